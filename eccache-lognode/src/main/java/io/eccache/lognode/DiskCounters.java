package io.eccache.lognode;

import java.util.concurrent.atomic.AtomicLongArray;

/** The live counters behind {@link DiskStats}; every disk access of the node goes through {@link #count}. */
final class DiskCounters {
  private static final int SIZE = DiskStats.Purpose.values().length * DiskStats.Access.values().length;

  private final AtomicLongArray ios = new AtomicLongArray(SIZE);
  private final AtomicLongArray bytes = new AtomicLongArray(SIZE);

  void count(DiskStats.Purpose purpose, DiskStats.Access access, long byteCount) {
    int i = DiskStats.index(purpose, access);
    ios.incrementAndGet(i);
    bytes.addAndGet(i, byteCount);
  }

  static DiskStats zero() {
    return new DiskStats(new long[SIZE], new long[SIZE]);
  }

  DiskStats snapshot() {
    long[] i = new long[SIZE];
    long[] b = new long[SIZE];
    for (int n = 0; n < SIZE; n++) {
      i[n] = ios.get(n);
      b[n] = bytes.get(n);
    }
    return new DiskStats(i, b);
  }
}
