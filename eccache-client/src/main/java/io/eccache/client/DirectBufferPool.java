package io.eccache.client;

import io.eccache.isal.ReedSolomon;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reusable cache-line-aligned direct buffers for cells and split ranges, so a busy client does not
 * allocate (and wait for the GC to free) direct memory per request. Buffers up to 1 MiB come in
 * power-of-two capacities; larger ones in multiples of 64 KiB, so a 25.6 MiB split range takes 25.6
 * MiB, not 32. At most {@code maxRetainedBytes} of returned buffers are kept, the rest are left to
 * the GC. Contents of an acquired buffer are undefined.
 */
final class DirectBufferPool {
  private static final int MIN_CAPACITY = 4096;
  private static final int POWER_OF_TWO_UP_TO = 1 << 20;
  private static final int LARGE_GRAIN = 64 << 10;

  private final long maxRetainedBytes;
  private final AtomicLong retained = new AtomicLong();
  /** Buffers acquired and not given back yet (a leak shows as a count that does not return to 0). */
  private final AtomicLong lent = new AtomicLong();
  /** Buffers allocated because none of the size was free (growth, or memory the cap let go). */
  private final AtomicLong allocated = new AtomicLong();
  private final ConcurrentHashMap<Integer, ConcurrentLinkedDeque<ByteBuffer>> free =
      new ConcurrentHashMap<>();

  DirectBufferPool(long maxRetainedBytes) {
    this.maxRetainedBytes = maxRetainedBytes;
  }

  /** A buffer with position 0 and limit {@code size}. */
  ByteBuffer acquire(int size) {
    int capacity = capacityFor(size);
    ConcurrentLinkedDeque<ByteBuffer> list = free.get(capacity);
    ByteBuffer buffer = list == null ? null : list.pollFirst();
    if (buffer == null) {
      buffer = ReedSolomon.allocateAligned(capacity);
      allocated.incrementAndGet();
    } else {
      retained.addAndGet(-capacity);
    }
    buffer.clear().limit(size);
    lent.incrementAndGet();
    return buffer;
  }

  /** Gives {@code buffer} back; the caller must not touch it afterwards. Null is ignored. */
  void release(ByteBuffer buffer) {
    if (buffer == null || buffer.capacity() < MIN_CAPACITY
        || capacityFor(buffer.capacity()) != buffer.capacity()) {
      return; // not one of ours
    }
    lent.decrementAndGet();
    int capacity = buffer.capacity();
    if (retained.addAndGet(capacity) > maxRetainedBytes) {
      retained.addAndGet(-capacity);
      return;
    }
    free.computeIfAbsent(capacity, c -> new ConcurrentLinkedDeque<>()).addFirst(buffer);
  }

  /** Bytes held for reuse now. */
  long retainedBytes() {
    return retained.get();
  }

  /** Buffers acquired and not yet given back. */
  long outstanding() {
    return lent.get();
  }

  /** Buffers allocated so far (not taken from the free lists). */
  long allocations() {
    return allocated.get();
  }

  private static int capacityFor(int size) {
    if (size < 0 || size > (1 << 30)) {
      throw new IllegalArgumentException("buffer size " + size + " outside 0..1 GiB");
    }
    if (size > POWER_OF_TWO_UP_TO) {
      return (size + LARGE_GRAIN - 1) / LARGE_GRAIN * LARGE_GRAIN;
    }
    return Math.max(MIN_CAPACITY, Integer.highestOneBit(Math.max(1, size - 1)) << 1);
  }
}
