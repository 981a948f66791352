package io.eccache.client;

import java.util.function.Consumer;

/**
 * A run of whole stripes of an object, read and decoded: its object bytes in a heap array, which
 * {@link #close()} hands back to the stream that reads into it.
 */
final class StripeWindow implements AutoCloseable {
  private final byte[] bytes;
  private final long objectStart;
  private final long objectEnd;
  private final Consumer<byte[]> recycle;

  /** The object bytes {@code [objectStart, objectEnd)} at the start of {@code bytes}. */
  StripeWindow(byte[] bytes, long objectStart, long objectEnd, Consumer<byte[]> recycle) {
    this.bytes = bytes;
    this.objectStart = objectStart;
    this.objectEnd = objectEnd;
    this.recycle = recycle;
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
   * Copies object bytes from {@code position} on into {@code b}: at most {@code len}, as many as
   * the window holds from there. Returns the count.
   */
  int copy(long position, byte[] b, int off, int len) {
    if (position < objectStart || position > objectEnd) {
      throw new IndexOutOfBoundsException("position " + position + " outside the window ["
          + objectStart + ", " + objectEnd + ")");
    }
    int n = (int) Math.min(len, objectEnd - position);
    System.arraycopy(bytes, (int) (position - objectStart), b, off, n);
    return n;
  }

  @Override
  public void close() {
    recycle.accept(bytes);
  }
}
