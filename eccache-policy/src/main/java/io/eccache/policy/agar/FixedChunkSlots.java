package io.eccache.policy.agar;

import java.util.List;
import java.util.Objects;

/**
 * The cache of a baseline that holds c chunks of every cached object (the paper's LFU-c and
 * LRU-c): {@code floor(capacity / c)} object slots, each holding the c most distant chunks of the
 * object's read set. Also checks the capacities every policy and solver takes.
 */
final class FixedChunkSlots {
  final int capacityChunks;
  final int objectSlots;
  final List<Integer> chunks;

  /**
   * @throws IllegalArgumentException if the capacity is negative or c is not in [1, k]
   */
  FixedChunkSlots(ChunkLayout layout, int capacityChunks, int c) {
    Objects.requireNonNull(layout, "layout");
    this.capacityChunks = checkCapacity(capacityChunks);
    if (c < 1 || c > layout.k()) {
      throw new IllegalArgumentException("c must be in [1, " + layout.k() + "] but was " + c);
    }
    this.objectSlots = capacityChunks / c;
    this.chunks = layout.mostDistantReadChunks(c);
  }

  /** {@code capacityChunks}, checked to be at least 0. */
  static int checkCapacity(int capacityChunks) {
    if (capacityChunks < 0) {
      throw new IllegalArgumentException("capacityChunks must be >= 0 but was " + capacityChunks);
    }
    return capacityChunks;
  }
}
