package io.eccache.client;

import alluxio.client.file.FileOutStream;
import alluxio.exception.status.DeadlineExceededException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.UnavailableException;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.Split;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Writes one allocated PUT stripe by stripe: reads k cells from the source and hands them to the
 * {@link SplitWriter}, which codes the r parity cells and appends cell i to split file i, each
 * split pinned to its worker. Later stripes are read while earlier ones are written, so memory
 * stays at {@link SplitWriter#DEPTH} stripes whatever the object's size. An object given as one
 * array is not staged: its data cells are views of the array (only a zero-padded last cell is a
 * copy). A whole-copy (replica)
 * layout writes the same bytes to every copy. A THROUGH write also copies the object to the under
 * store as it goes. Up to the scheme's tolerated losses may fail and are returned, to be written
 * elsewhere; on any other failure every stream is cancelled and nothing is committed.
 */
final class StripedWriter {
  private final ClientContext context;

  /** What a finished write commits. */
  static final class Result {
    final long objectSize;
    final List<Integer> crc32c;
    /** Splits whose worker failed during the write: to be written again elsewhere. */
    final List<Integer> failed;

    Result(long objectSize, List<Integer> crc32c, List<Integer> failed) {
      this.objectSize = objectSize;
      this.crc32c = crc32c;
      this.failed = failed;
    }
  }

  StripedWriter(ClientContext context) {
    this.context = context;
  }

  /**
   * Writes everything {@code source} yields into the splits of {@code allocation}, and also to
   * {@code persist} when not null (the whole object, for a THROUGH write). Up to n - k splits may
   * fail (their worker dies or refuses): the others are written to the end and the failed ones are
   * returned, to be rebuilt on other workers before the commit; one more failure fails the write.
   *
   * @param expectedSize the size the allocation was made for, or -1 when not known
   * @param digest fed every object byte, in order, as the stripes are written
   */
  Result write(AllocateResponse allocation, ByteSource source, long expectedSize,
      FileOutStream persist, MessageDigest digest) throws IOException {
    Layout layout = allocation.getLayout();
    RedundancyScheme scheme = SchemeProtos.of(layout);
    int k = scheme.dataSplits();
    int n = scheme.splits();
    int cell = Math.toIntExact(layout.getCellSize());
    List<SplitWriter.Target> targets = new ArrayList<>();
    for (Split split : allocation.getSplitsList()) {
      targets.add(new SplitWriter.Target(split.getIndex(), split.getPath(), split.getWorker()));
    }
    byte[] whole = ByteSource.wholeArray(source);
    if (whole != null && whole.length != expectedSize) {
      whole = null; // the checks below name the mismatch
    }
    if (whole == null) {
      source = ByteSource.digesting(source, digest);
    }
    Stripe[] sets = new Stripe[whole != null ? 0 : SplitWriter.DEPTH];
    for (int i = 0; i < sets.length; i++) {
      sets[i] = new Stripe(k, cell);
    }
    List<int[]> crcs = new ArrayList<>();
    Future<?> persisting = null;
    // The coordinator made the write's directory, and (a coordinator of this version) its split
    // files, at the allocation.
    SplitWriter.Files files = allocation.getWriteThrough() ? SplitWriter.Files.THROUGH
        : allocation.getSplitFilesCreated() ? SplitWriter.Files.CREATED
        : SplitWriter.Files.CREATE;
    try (SplitWriter splits = SplitWriter.open(context, layout.getKey(), scheme, targets,
        layout.getSplitSize(), cell, scheme.toleratedLosses(), files)) {
      if (whole != null) {
        StripeGeometry g = new StripeGeometry(whole.length, k, cell);
        for (int s = 0; s < g.stripes(); s++) {
          int cellLen = Math.toIntExact(g.cellLength(s));
          ByteBuffer[] cells = arrayCells(whole, Math.toIntExact(g.objectOffset(s)),
              Math.toIntExact(g.dataBytes(s)), k, cellLen);
          crcs.add(splits.writeStripe(cells, cellLen));
          if (persist != null) {
            awaitPersist(persisting, layout.getKey());
            persisting = persist(cells, k, cellLen, Math.toIntExact(g.dataBytes(s)), persist,
                layout.getKey());
          }
        }
        // While the last stripes are written: every stripe's writes start before it, unhindered.
        digest.update(whole);
        List<Integer> failed = splits.finish(); // each split closed after its own last write
        awaitPersist(persisting, layout.getKey());
        persisting = null;
        return new Result(whole.length, splitMajor(crcs, n), failed);
      }
      long total = 0;
      for (int s = 0; ; s++) {
        Stripe stripe = sets[s % sets.length];
        splits.awaitStripe(s - sets.length); // the last stripe written from this set
        int got = stripe.fill(source, k, cell);
        if (got == 0) {
          break;
        }
        total += got;
        if (expectedSize >= 0 && total > expectedSize) {
          throw new InvalidArgumentException("the stream holds more than the " + expectedSize
              + " bytes the PUT declared: give its exact length, or -1 if unknown");
        }
        int cellLen = got == k * cell ? cell : (got + k - 1) / k;
        stripe.layOut(k, got, cell, cellLen);
        crcs.add(splits.writeStripe(stripe.cells, cellLen));
        if (persist != null) {
          awaitPersist(persisting, layout.getKey()); // the stream takes one write at a time
          persisting = persist(stripe.cells, k, cellLen, got, persist, layout.getKey());
        }
        if (got < k * cell) {
          break; // a short stripe is the last
        }
      }
      splits.drain();
      awaitPersist(persisting, layout.getKey());
      persisting = null;
      if (expectedSize >= 0 && total == expectedSize && hasMore(source)) {
        // A full last stripe (or an empty object) stops the loop before it sees the extra bytes.
        throw new InvalidArgumentException("the stream holds more than the " + expectedSize
            + " bytes the PUT declared: give its exact length, or -1 if unknown");
      }
      if (expectedSize >= 0 && total != expectedSize) {
        throw new InvalidArgumentException("the stream ended after " + total + " of the "
            + expectedSize + " bytes the PUT declared: give its exact length, or -1 if unknown");
      }
      List<Integer> failed = splits.finish();
      return new Result(total, splitMajor(crcs, n), failed);
    } finally {
      if (persisting != null) {
        try {
          awaitPersist(persisting, layout.getKey());
        } catch (IOException ignored) {
          // already failing; the first error is the one reported
        }
      }
      for (Stripe set : sets) {
        set.release();
      }
    }
  }

  /**
   * One stripe's k data cells of {@code cellLen} bytes as views of the caller's array, so they are
   * written without staging: {@code bytes} object bytes from {@code from}, cell i holding the i-th
   * run of {@code cellLen}. Only a cell the object ends in (or after) is a copy, zero-padded to
   * {@code cellLen}, as the layout's cells are.
   */
  static ByteBuffer[] arrayCells(byte[] data, int from, int bytes, int k, int cellLen) {
    ByteBuffer[] cells = new ByteBuffer[k];
    for (int i = 0; i < k; i++) {
      int at = Math.min(bytes, i * cellLen);
      int len = Math.min(cellLen, bytes - at);
      if (len == cellLen) {
        cells[i] = ByteBuffer.wrap(data, from + at, cellLen).slice();
      } else {
        byte[] padded = new byte[cellLen];
        System.arraycopy(data, from + at, padded, 0, len);
        cells[i] = ByteBuffer.wrap(padded);
      }
    }
    return cells;
  }

  /** Copies one stripe's object bytes (not the padding) to the under store, on an I/O thread. */
  private Future<?> persist(ByteBuffer[] cells, int k, int cellLen, int objectBytes,
      FileOutStream persist, String key) {
    ByteBuffer[] parts = new ByteBuffer[k];
    int left = objectBytes;
    for (int i = 0; i < k; i++) {
      parts[i] = cells[i].duplicate().position(0).limit(Math.max(0, Math.min(cellLen, left)));
      left -= parts[i].remaining();
    }
    return context.io().submit(() -> {
      try {
        for (ByteBuffer part : parts) {
          SplitWriter.copy(part, persist);
        }
      } catch (IOException | RuntimeException e) {
        throw new UnavailableException("writing '" + key + "' to the under store (S3) failed: "
            + e.getMessage() + "; check that S3 is reachable, or PUT with CACHE_ONLY", e);
      }
      return null;
    });
  }

  /** Waits for the under-store copy of the last stripe; its failure or delay fails the write. */
  private void awaitPersist(Future<?> persisting, String key) throws IOException {
    if (persisting == null) {
      return;
    }
    long timeoutMs = context.ioTimeoutMs();
    try {
      persisting.get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw IoErrors.asIOException(e.getCause());
    } catch (TimeoutException e) {
      throw new DeadlineExceededException("writing '" + key + "' to the under store took more"
          + " than " + timeoutMs + " ms (alluxio.user.eccache.io.timeout): the under store (S3)"
          + " does not answer; check it, then PUT again");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while writing to the under store", e);
    }
  }

  /** The k data cell buffers of one stripe, reused from stripe to stripe. */
  private final class Stripe {
    final ByteBuffer[] cells;

    Stripe(int n, int cell) {
      cells = new ByteBuffer[n];
      for (int i = 0; i < n; i++) {
        cells[i] = context.pool().acquire(cell);
      }
    }

    /** Reads up to k full cells; returns the bytes read (less than k cells only at the end). */
    int fill(ByteSource source, int k, int cell) throws IOException {
      int got = 0;
      for (int i = 0; i < k; i++) {
        cells[i].clear().limit(cell);
        int g = source.fill(cells[i]);
        got += g;
        if (g < cell) {
          for (int j = i + 1; j < k; j++) {
            cells[j].clear(); // position 0: nothing read into it
          }
          break;
        }
      }
      return got;
    }

    /**
     * Puts the {@code got} bytes read into full-size cells into cells of {@code cellLen} bytes, the
     * tail zero-padded: the same bytes when the stripe is full or the cells fit already.
     */
    void layOut(int k, int got, int cell, int cellLen) {
      if (cellLen < cell) {
        byte[] bytes = new byte[got];
        for (int i = 0, at = 0; i < k && at < got; i++) {
          int len = Math.min(cell, got - at);
          cells[i].duplicate().position(0).get(bytes, at, len);
          at += len;
        }
        for (int i = 0; i < k; i++) {
          int from = Math.min(got, i * cellLen);
          int len = Math.min(cellLen, got - from);
          cells[i].clear().put(bytes, from, len);
        }
      }
      for (int i = 0; i < k; i++) {
        ByteBuffer c = cells[i];
        // fill() left each cell's position at its last byte read (0 for unread cells)
        int filled = c.position();
        c.limit(cellLen);
        while (filled < cellLen) {
          c.put(filled++, (byte) 0);
        }
        c.position(0);
      }
    }

    void release() {
      for (ByteBuffer c : cells) {
        context.pool().release(c);
      }
    }
  }

  private static boolean hasMore(ByteSource source) throws IOException {
    return source.fill(ByteBuffer.allocate(1)) > 0;
  }

  private static List<Integer> splitMajor(List<int[]> byStripe, int n) {
    List<Integer> crcs = new ArrayList<>(n * byStripe.size());
    for (int i = 0; i < n; i++) {
      for (int[] stripe : byStripe) {
        crcs.add(stripe[i]);
      }
    }
    return crcs;
  }
}
