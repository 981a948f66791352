/**
 * Reporting for the cluster benchmark and the simulator: the EC-Cache paper's load-imbalance and
 * latency metrics, and the raw CSV, {@code summary.md} tables and PNG plots that go into
 * {@code benchmarks/results/<scenario>/}.
 */
package io.eccache.benchmarks.report;
