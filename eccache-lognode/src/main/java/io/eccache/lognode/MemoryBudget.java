package io.eccache.lognode;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The buffer's byte bound. Every entry held in memory (a base, a delta, decided or not) is charged its
 * payload plus {@link #ENTRY_OVERHEAD}, so that many tiny deltas cannot hold unbounded memory; the
 * charge is taken before the entry is added and given back exactly once, when it leaves memory
 * (flushed, aborted, replaced by a new base, or dropped).
 */
final class MemoryBudget {
  /** A rough per-entry cost of the objects and map slots around a payload. */
  static final int ENTRY_OVERHEAD = 64;

  private final long capacity;
  private final AtomicLong used = new AtomicLong();

  MemoryBudget(long capacity) {
    this.capacity = capacity;
  }

  /** The charge for an entry with {@code payload} bytes. */
  static long charge(int payload) {
    return (long) payload + ENTRY_OVERHEAD;
  }

  /** Takes {@code bytes} if they fit under the capacity; false (nothing taken) otherwise. */
  boolean tryReserve(long bytes) {
    while (true) {
      long now = used.get();
      if (now + bytes > capacity) {
        return false;
      }
      if (used.compareAndSet(now, now + bytes)) {
        return true;
      }
    }
  }

  void release(long bytes) {
    if (bytes != 0) {
      long after = used.addAndGet(-bytes);
      if (after < 0) {
        throw new IllegalStateException("buffer accounting went negative: " + after);
      }
    }
  }

  long used() {
    return used.get();
  }

  long capacity() {
    return capacity;
  }
}
