package io.eccache.policy.agar;

import java.util.List;

/**
 * A cache of erasure-coded chunks as one region's clients see it: which chunks of an object are cached now,
 * and a hook for every read. Implementations are thread-safe; {@link #recordRead} is cheap and runs on
 * the read path, {@link #tick} runs on the caller's period (the coordinator's heartbeat; tests call it
 * directly) and nothing here reads a clock or starts a thread.
 */
public interface ChunkCachePolicy {
  /**
   * Notes one read of an object (after {@link #cachedChunks} told the reader what to take from the cache).
   *
   * @param key the object read
   */
  void recordRead(String key);

  /**
   * @param key an object key
   * @return the chunk indexes of that object cached now, ascending; empty if none
   */
  List<Integer> cachedChunks(String key);

  /** Closes the current period; policies that reconfigure per period do so here. */
  void tick();

  /** @return the cache's size in chunks */
  int capacityChunks();
}
