/**
 * Agar (Halalai et al., ICDCS 2017): partial caching of erasure-coded objects. A region's cache holds some
 * of the k chunks of many objects, chosen each period by a knapsack over popularity x latency saved. Here as
 * pure logic: the {@link io.eccache.policy.agar.ChunkLayout} (k + m chunks round-robin over regions with
 * read latencies; {@link io.eccache.policy.agar.AgarRegions} has the paper's Table I), the
 * {@link io.eccache.policy.agar.CachingOptions} per object, the paper's knapsack
 * {@link io.eccache.policy.agar.Populate} and the exact {@link io.eccache.policy.agar.ExactKnapsack}, and
 * three {@link io.eccache.policy.agar.ChunkCachePolicy} implementations the coordinator can run: Agar and
 * the paper's LFU-c and LRU-c baselines. Units: weights and capacities are chunks; latencies are
 * {@link java.time.Duration}s; values are popularity x milliseconds. See docs/agar.md.
 */
package io.eccache.policy.agar;
