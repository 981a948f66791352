package io.eccache.policy.agar;

import java.util.Collection;

/** Chooses at most one caching option per key within a capacity in chunks, maximising the total value. */
public interface KnapsackSolver {
  /**
   * @param options the candidate options, any number per key
   * @param capacityChunks the cache size in chunks, at least 0
   * @return a configuration of weight at most {@code capacityChunks}
   * @throws IllegalArgumentException if the capacity is negative
   */
  CacheConfiguration solve(Collection<CachingOption> options, int capacityChunks);
}
