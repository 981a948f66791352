package io.eccache.client;

import io.eccache.common.proto.Split;
import java.io.Closeable;
import java.io.IOException;

/**
 * Where the {@link LateBindingReader} gets a split's bytes: the seam between the reader's policy
 * (which splits, how many, what counts as arrived, CRC checks, decoding) and the I/O. In production
 * it is {@link AlluxioSplitSource}, reading the split file on its worker; tests stand in fakes that
 * are slow, fail, corrupt bytes or never answer. Whether a read is still wanted is the reader's
 * to check, between the slices it asks for.
 */
interface SplitSource {
  /**
   * Opens split {@code split} (its index, file, worker and file status as the lookup gave them) at
   * byte {@code offset}. The stream is read and closed by the thread that opened it.
   */
  SplitStream open(Split split, long offset) throws IOException;

  /** One open split, read forward. */
  interface SplitStream extends Closeable {
    /**
     * Reads the next bytes of the split into {@code b}: at least one and at most {@code len},
     * blocking until some arrive; -1 at the split's end.
     *
     * @throws IOException if its worker fails
     */
    int read(byte[] b, int off, int len) throws IOException;

    /**
     * How many bytes the next {@link #read} returns without waiting for the worker, as far as the
     * stream knows: the rest of the chunk it has received and is part-way through; 0 when the next
     * read may wait. A hint for where the reader copies to, never relied on for safety: a read of
     * that many bytes may still wait, and then ends only by the worker or the watchdog.
     */
    default int buffered() {
      return 0;
    }

    /**
     * How many of {@code wanted} bytes to ask for in a read that may wait for the worker (nothing
     * {@link #buffered}). The reader copies those bytes twice (through a slice of its own, since a
     * read into the caller's array must not wait); a stream that receives its bytes in chunks asks
     * for a few, so the rest of the chunk they bring is read straight into place.
     */
    default int waitingReadLength(int wanted) {
      return wanted;
    }

    /**
     * Stops the read at its worker, from any thread: the worker sends no more of it, and a read
     * waiting for bytes returns at once (with an IOException). For a read its GET no longer
     * needs; the reading thread still closes the stream. Best effort: by default nothing.
     */
    default void cancel() {}
  }
}
