package io.eccache.client;

import io.eccache.common.StripeGeometry;
import java.nio.ByteBuffer;

/**
 * A run of whole stripes of an object, read and decoded: the k data splits' bytes for those stripes,
 * in pooled buffers that {@link #close()} gives back.
 */
final class StripeWindow implements AutoCloseable {
  private final StripeGeometry geometry;
  private final int from;
  private final ByteBuffer[] data;
  private final DirectBufferPool pool;
  private final long splitStart;
  private final long objectStart;
  private final long objectEnd;

  StripeWindow(StripeGeometry geometry, int from, int to, ByteBuffer[] data,
      DirectBufferPool pool) {
    this.geometry = geometry;
    this.from = from;
    this.data = data;
    this.pool = pool;
    this.splitStart = geometry.splitOffset(from);
    this.objectStart = geometry.objectOffset(from);
    this.objectEnd = Math.min(geometry.objectSize(), geometry.objectOffset(to));
  }

  /** Object offset of the window's first byte. */
  long objectStart() {
    return objectStart;
  }

  /** Object offset just past the window's last byte. */
  long objectEnd() {
    return objectEnd;
  }

  /**
   * Copies object bytes from {@code position} on into {@code b}: at most {@code len}, at least one
   * unless {@code position} is the window's end. Returns the count.
   */
  int copy(long position, byte[] b, int off, int len) {
    if (position < objectStart || position > objectEnd) {
      throw new IndexOutOfBoundsException("position " + position + " outside the window ["
          + objectStart + ", " + objectEnd + ")");
    }
    if (position == objectEnd || len == 0) {
      return 0;
    }
    int stripe = geometry.stripeOf(position);
    long inStripe = position - geometry.objectOffset(stripe);
    long cell = geometry.cellLength(stripe);
    int split = (int) (inStripe / cell);
    long inCell = inStripe % cell;
    int n = (int) Math.min(len, Math.min(cell - inCell, objectEnd - position));
    ByteBuffer src = data[split].duplicate();
    src.position((int) (geometry.splitOffset(stripe) - splitStart + inCell));
    src.get(b, off, n);
    return n;
  }

  /**
   * Copies the window's object bytes from {@code position} to its end into {@code b} at
   * {@code off}; returns the count.
   */
  int copyTo(long position, byte[] b, int off) {
    int total = 0;
    for (long p = position; p < objectEnd; ) {
      int n = copy(p, b, off + total, (int) Math.min(Integer.MAX_VALUE, objectEnd - p));
      p += n;
      total += n;
    }
    return total;
  }

  @Override
  public void close() {
    for (int i = 0; i < data.length; i++) {
      pool.release(data[i]);
      data[i] = null;
    }
  }

  int firstStripe() {
    return from;
  }

  /** Data split {@code i}'s bytes for this window's stripes (a view; do not release it). */
  ByteBuffer data(int i) {
    return data[i].duplicate();
  }
}
