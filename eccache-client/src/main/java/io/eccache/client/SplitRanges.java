package io.eccache.client;

import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.Split;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Reads one split's range of a {@link ReadWindow}: straight into the caller's array (a data split)
 * or into a pooled buffer (a parity, another copy), checking each cell's CRC32C, and stopping (and
 * cancelling the read at its worker) before the next slice once the window has its k. The bytes'
 * half of the {@link LateBindingReader}; where they go and why is in its class comment.
 */
final class SplitRanges {
  /** The most read at a time from the network, between the checks whether it is still wanted. */
  private static final int SLICE = 128 << 10;
  private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[SLICE]);

  private final SplitSource source;
  private final DirectBufferPool pool;
  private final ReadStatistics statistics;

  /** A split whose bytes fail their CRC32C: its worker answers, the split is bad. */
  static final class CorruptSplitException extends IOException {
    CorruptSplitException(String message) {
      super(message);
    }
  }

  SplitRanges(SplitSource source, DirectBufferPool pool, ReadStatistics statistics) {
    this.source = source;
    this.pool = pool;
    this.statistics = statistics;
  }

  /**
   * Reads a data split's range into its place in the array, checking each cell's CRC32C; returns
   * null (nothing staged). On the GET's own thread ({@code callerThread}) every byte is read
   * straight into the array, since the window cannot finish while it reads. On an I/O thread, which
   * can outlive the window, the bytes the stream already holds are read straight in, under the
   * window's lock; a read that may wait for the worker goes into a slice of the thread's own
   * first, copied in under the lock.
   */
  ByteBuffer intoArray(Split split, int position, ReadWindow window, boolean callerThread,
      ReadWatchdog.Progress progress) throws IOException {
    StripeGeometry g = window.geometry;
    byte[] slice = SCRATCH.get(); // on the GET's own thread, only for the last cell's padding
    CRC32C crc = new CRC32C();
    long left = window.splitBytes;
    try (SplitSource.SplitStream in = open(split, g.splitOffset(window.from), window, progress)) {
      for (int s = window.from; s < window.to; s++) {
        long cell = g.cellLength(s);
        crc.reset();
        for (long inCell = 0; inCell < cell; ) {
          stopIfDone(window, in);
          int want = (int) Math.min(SLICE, cell - inCell);
          int n;
          int held = callerThread ? 0 : (int) Math.min(in.buffered(), cell - inCell);
          if (held > 0 && window.objectBytesAt(s, position, inCell, held) == held) {
            n = window.readInto(in, s, position, inCell, held, crc);
            if (n == ReadWindow.CLOSED) {
              stopIfDone(window, in);
            }
          } else if (callerThread && window.objectBytesAt(s, position, inCell, want) == want) {
            int at = window.arrayIndex(s, position, inCell);
            n = in.read(window.target, at, want);
            if (n > 0) {
              crc.update(window.target, at, n);
            }
          } else {
            // A read that waits for the worker asks for little: what it brings beyond that, the
            // rest of the chunk, is then read straight into place on the next turn.
            n = in.read(slice, 0, held == 0 && !callerThread ? in.waitingReadLength(want) : want);
            if (n > 0) {
              crc.update(slice, 0, n);
              if (!window.place(slice, 0, s, position, inCell, n)) {
                stopIfDone(window, in);
              }
            }
          }
          if (n < 0) {
            throw ended(split, g.splitOffset(s) + inCell);
          }
          inCell += n;
          left -= n;
        }
        checkCrc(split, window, s, (int) crc.getValue());
      }
      return null;
    } catch (IOException e) {
      countIfStopped(split, window, left);
      throw e;
    }
  }

  /**
   * Reads a split's range into a pooled buffer, checking each cell's CRC32C; the buffer goes back
   * to the pool if the read fails or arrives after the window stopped wanting it.
   */
  ByteBuffer staged(Split split, ReadWindow window, ReadWatchdog.Progress progress)
      throws IOException {
    StripeGeometry g = window.geometry;
    ByteBuffer buffer = pool.acquire(window.splitBytes);
    byte[] slice = SCRATCH.get();
    CRC32C crc = new CRC32C();
    boolean handed = false;
    long left = window.splitBytes;
    try (SplitSource.SplitStream in = open(split, g.splitOffset(window.from), window, progress)) {
      int at = 0;
      for (int s = window.from; s < window.to; s++) {
        int cell = (int) g.cellLength(s);
        crc.reset();
        for (int inCell = 0; inCell < cell; ) {
          stopIfDone(window, in);
          int n = in.read(slice, 0, Math.min(slice.length, cell - inCell));
          if (n < 0) {
            throw ended(split, g.splitOffset(s) + inCell);
          }
          crc.update(slice, 0, n);
          buffer.duplicate().position(at + inCell).put(slice, 0, n);
          inCell += n;
          left -= n;
        }
        checkCrc(split, window, s, (int) crc.getValue());
        at += cell;
      }
      buffer.position(0).limit(window.splitBytes);
      handed = window.offer(buffer);
      if (!handed) {
        statistics.addDiscarded();
        throw new IOException("read whole but not needed: k splits arrived first");
      }
      return buffer;
    } catch (IOException e) {
      countIfStopped(split, window, left);
      throw e;
    } finally {
      if (!handed) {
        pool.release(buffer);
      }
    }
  }

  /**
   * A read that ended with {@code left} of its range's bytes not read, after its window had its
   * k (stopped at a slice, cancelled, or ended by the watchdog): counted as stopped early, and
   * its rest as unread (an upper bound of what its worker still sent).
   */
  private void countIfStopped(Split split, ReadWindow window, long left) {
    if (window.done() && left > 0) {
      ClientMetrics.READS_STOPPED_EARLY.inc();
      statistics.addUnread(split.getWorker().getHost(), left);
    }
  }

  /**
   * Opens a split for {@code window}, telling {@code progress} of every byte that arrives and of
   * the close; the window cancels it at its worker if it finishes first.
   */
  private SplitSource.SplitStream open(Split split, long offset, ReadWindow window,
      ReadWatchdog.Progress progress) throws IOException {
    SplitSource.SplitStream in = source.open(split, offset);
    SplitSource.SplitStream watched = new SplitSource.SplitStream() {
      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, len);
        progress.advanced();
        return n;
      }

      @Override
      public int buffered() {
        return in.buffered();
      }

      @Override
      public int waitingReadLength(int wanted) {
        return in.waitingReadLength(wanted);
      }

      @Override
      public void cancel() {
        in.cancel();
      }

      @Override
      public void close() throws IOException {
        window.closed(this);
        progress.closing();
        in.close();
      }
    };
    window.opened(watched);
    return watched;
  }

  /**
   * Ends a read the window no longer wants, cancelling it at its worker (if the window's own
   * cancel missed it); its rest is counted by {@link #countIfStopped}.
   */
  private static void stopIfDone(ReadWindow window, SplitSource.SplitStream in)
      throws IOException {
    if (window.done()) {
      in.cancel();
      throw new IOException("stopped part-way: k splits arrived first");
    }
  }

  private static IOException ended(Split split, long at) {
    return new IOException("split " + split.getPath() + " ended at byte " + at);
  }

  private static void checkCrc(Split split, ReadWindow window, int stripe, int crc)
      throws CorruptSplitException {
    int expected = window.layout.getCrc32C(window.geometry.checksumIndex(split.getIndex(), stripe));
    if (crc != expected) {
      throw new CorruptSplitException("split " + split.getPath() + " is corrupt in stripe " + stripe
          + " (CRC32C " + Integer.toHexString(crc) + ", expected " + Integer.toHexString(expected)
          + ")");
    }
  }
}
