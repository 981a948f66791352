/**
 * Pure decision logic for how much of the cache each object gets: the {@link
 * io.eccache.policy.RedundancyPlanner} (targets, drops, repairs and additions from every object's state)
 * over the allocators of parities (EC-Cache, OSDI'16 section 6.1),
 * replicas (selective replication, the same paper's baseline) or partitions (SP-Cache, SC'18), plus the
 * fork-join latency bound SP-Cache uses to pick its scale factor and a popularity tracker to feed them all;
 * where an object's splits go ({@link io.eccache.policy.SplitPlacement}); and the Zipf workload sampler
 * ({@link io.eccache.policy.ZipfSampler}) the simulator and the cluster benchmark draw requests from.
 * The coordinator (inside the Alluxio master) and the simulator both run this code; the module depends on
 * the JDK and eccache-common's pure {@code RedundancyScheme} only.
 *
 * <p>Nothing here does I/O or touches Alluxio; the coordinator supplies sizes, popularities and a clock.
 * Results are deterministic: ties go to the smaller key in {@link String#compareTo} order and randomness
 * comes only from a seed the caller passes in.
 */
package io.eccache.policy;
