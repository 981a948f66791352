package io.eccache.client;

import io.eccache.common.proto.Split;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;

/**
 * Where the {@link LateBindingReader} gets a split's bytes: the seam between the reader's policy
 * (which splits, how many, what counts as arrived, CRC checks, decoding) and the I/O. In production
 * it is {@link AlluxioSplitSource}, reading the split file on its worker; tests stand in fakes that
 * are slow, fail, corrupt bytes or never answer.
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
     * Reads exactly {@code length} bytes, the next ones of the split, into {@code dst} at absolute
     * index {@code at} ({@code dst}'s position and limit are not used nor moved). A read may take a
     * while: it checks {@code stop} between slices and, once it says so, fails with an
     * IOException.
     *
     * @throws IOException if the split ends early, its worker fails, or {@code stop} said so
     */
    void readFully(ByteBuffer dst, int at, int length, BooleanSupplier stop) throws IOException;
  }
}
