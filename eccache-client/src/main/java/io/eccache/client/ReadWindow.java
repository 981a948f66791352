package io.eccache.client;

import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.Layout;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.zip.CRC32C;

/**
 * One window of stripes being read: where its bytes go, and the hand-over of what arrives. A
 * staged read that arrives while the window still wants splits is {@link #offer offered} and stays
 * the window's until claimed or {@link #finish() finished}; one that arrives later gives its buffer
 * back itself. Copies into the array hold the read lock and happen only while the window is open.
 */
final class ReadWindow {
  /** What {@link #readInto} returns once the window is done. */
  static final int CLOSED = -2;
  final Layout layout;
  final StripeGeometry geometry;
  final int from;
  final int to;
  /** Bytes of each split's range: the cells of stripes [from, to). */
  final int splitBytes;
  final long objectStart;
  final long objectBytes;
  final byte[] target;
  final int offset;
  private final ReentrantReadWriteLock copying = new ReentrantReadWriteLock();
  private volatile boolean done;
  private final Set<ByteBuffer> unclaimed = Collections.newSetFromMap(new IdentityHashMap<>());
  /** The split streams open on this window's reads, cancelled when it finishes. */
  private final Set<SplitSource.SplitStream> open = ConcurrentHashMap.newKeySet();

  ReadWindow(Layout layout, StripeGeometry geometry, int from, int to, byte[] target, int offset) {
    this.layout = layout;
    this.geometry = geometry;
    this.from = from;
    this.to = to;
    this.splitBytes = Math.toIntExact(geometry.splitOffset(to - 1) + geometry.cellLength(to - 1)
        - geometry.splitOffset(from));
    this.objectStart = geometry.objectOffset(from);
    this.objectBytes = Math.min(geometry.objectSize(), geometry.objectOffset(to)) - objectStart;
    this.target = target;
    this.offset = offset;
  }

  boolean done() {
    return done;
  }

  /**
   * Where byte {@code inCell} of data position {@code position}'s cell in {@code stripe} goes in
   * the array, and how many of {@code length} bytes from there are object bytes (the rest is
   * padding).
   */
  int objectBytesAt(int stripe, int position, long inCell, int length) {
    long at = geometry.objectOffset(stripe) + position * geometry.cellLength(stripe) + inCell;
    return (int) Math.max(0, Math.min(length, geometry.objectSize() - at));
  }

  int arrayIndex(int stripe, int position, long inCell) {
    return offset + (int) (geometry.objectOffset(stripe)
        + position * geometry.cellLength(stripe) + inCell - objectStart);
  }

  /**
   * Reads the next {@code length} bytes of {@code in} (at most; what it returns) straight into
   * their place in the array while the window is open, adding them to {@code crc}: the count,
   * -1 at the stream's end, or {@link #CLOSED} (nothing read) once the window is done. The read
   * holds off the window's completion: only for bytes the stream already holds.
   */
  int readInto(SplitSource.SplitStream in, int stripe, int position, long inCell, int length,
      CRC32C crc) throws IOException {
    int at = arrayIndex(stripe, position, inCell);
    copying.readLock().lock();
    try {
      if (done) {
        return CLOSED;
      }
      int n = in.read(target, at, length);
      if (n > 0) {
        crc.update(target, at, n);
      }
      return n;
    } finally {
      copying.readLock().unlock();
    }
  }

  /** Copies into the array while the window is open; false (nothing copied) once it is done. */
  boolean place(byte[] src, int srcAt, int stripe, int position, long inCell, int length) {
    int n = objectBytesAt(stripe, position, inCell, length);
    copying.readLock().lock();
    try {
      if (done) {
        return false;
      }
      if (n > 0) { // padding has no place in the array
        System.arraycopy(src, srcAt, target, arrayIndex(stripe, position, inCell), n);
      }
      return true;
    } finally {
      copying.readLock().unlock();
    }
  }

  /** Hands a staged split to the window; false when it no longer wants any. */
  synchronized boolean offer(ByteBuffer bytes) {
    if (done) {
      return false;
    }
    unclaimed.add(bytes);
    return true;
  }

  synchronized void claim(ByteBuffer bytes) {
    unclaimed.remove(bytes);
  }

  /**
   * A read opened {@code stream}: if the window is done already, it is cancelled at once (and
   * false returned); else the window cancels it when it finishes, unless {@link #closed} first.
   */
  boolean opened(SplitSource.SplitStream stream) {
    open.add(stream);
    if (done) { // after the add: a finish either sees this stream or is seen here
      open.remove(stream);
      stream.cancel();
      return false;
    }
    return true;
  }

  /** The read is closing {@code stream}: nothing of it to cancel. */
  void closed(SplitSource.SplitStream stream) {
    open.remove(stream);
  }

  /**
   * Wants no more splits: cancels the reads still open at their workers, waits for copies in
   * progress, so none touches the array afterwards, and returns the staged buffers offered and not
   * claimed. Done is set first, so a read into the array that waits for its worker meanwhile counts
   * as unwanted to the watchdog; the cancel wakes it at once.
   */
  List<ByteBuffer> finish() {
    done = true;
    for (SplitSource.SplitStream stream : open) {
      stream.cancel(); // the worker sends no more; a read waiting for it returns at once
    }
    copying.writeLock().lock();
    try {
      synchronized (this) { // an offer either sees done or is collected here
        List<ByteBuffer> left = new ArrayList<>(unclaimed);
        unclaimed.clear();
        return left;
      }
    } finally {
      copying.writeLock().unlock();
    }
  }
}
