/**
 * The data-path benchmark ({@code eccache-bench datapath}): eccache's GET and PUT against the same
 * bytes as k plain Alluxio files pinned to k workers and as one plain file, side by side on one
 * in-process cluster, as paired per-round ratios of throughput, CPU per MiB and latency.
 */
package io.eccache.benchmarks.datapath;
