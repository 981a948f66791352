package io.eccache.client;

import alluxio.AlluxioURI;
import alluxio.client.file.FileOutStream;
import alluxio.client.file.FileSystem;
import alluxio.exception.AlluxioException;
import alluxio.exception.status.DeadlineExceededException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.UnavailableException;
import alluxio.grpc.CreateFilePOptions;
import alluxio.grpc.WritePType;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.Layout;
import io.eccache.isal.ErasureCoder;
import io.eccache.isal.ReedSolomon;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.CRC32C;

/**
 * Writes one allocated PUT stripe by stripe: reads k cells from the source, encodes r parity cells
 * with the ISA-L coder, and appends cell i to split file i, each split pinned to its worker (cache
 * only, one block). Stripe s + 1 is read and encoded while stripe s is written, so memory stays at
 * two stripes whatever the object's size. A whole-copy (replica) layout writes the same bytes to
 * every copy. On any failure every stream is cancelled and nothing is committed.
 */
final class StripedWriter {
  /** Bytes per write call: the stream API takes arrays, so cells pass through this chunk. */
  private static final ThreadLocal<byte[]> CHUNK = ThreadLocal.withInitial(() -> new byte[1 << 20]);

  private final FileSystem fs;
  private final ExecutorService io;
  private final DirectBufferPool pool;

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

  private final ReadStatistics statistics;
  /** The longest wait for one step (open, a stripe's writes, close) of the split streams. */
  private final long timeoutMs;

  StripedWriter(FileSystem fs, ExecutorService io, DirectBufferPool pool,
      ReadStatistics statistics, long timeoutMs) {
    this.fs = fs;
    this.io = io;
    this.pool = pool;
    this.statistics = statistics;
    this.timeoutMs = timeoutMs;
  }

  /**
   * Writes everything {@code source} yields into the splits of {@code allocation}, and also to
   * {@code persist} when not null (the whole object, for a THROUGH write). Up to n - k splits may
   * fail (their worker dies or refuses): the others are written to the end and the failed ones are
   * returned, to be rebuilt on other workers before the commit; one more failure fails the write.
   *
   * @param expectedSize the size the allocation was made for, or -1 when not known
   */
  Result write(AllocateResponse allocation, ByteSource source, long expectedSize,
      FileOutStream persist) throws IOException {
    Layout layout = allocation.getLayout();
    RedundancyScheme scheme = SchemeProtos.of(layout);
    int k = scheme.dataSplits();
    int n = scheme.splits();
    int cell = Math.toIntExact(layout.getCellSize());
    boolean replicas = scheme.kind() == RedundancyScheme.Kind.REPLICATED;
    FileOutStream[] outs = new FileOutStream[n];
    int cellBuffers = replicas ? k : n; // copies all write the one data cell
    Stripe[] sets = {new Stripe(cellBuffers, cell), new Stripe(cellBuffers, cell)};
    List<int[]> crcs = new ArrayList<>();
    List<SplitTask> inFlight = new ArrayList<>();
    SplitFailures failures = new SplitFailures(n, scheme.toleratedLosses());
    boolean done = false;
    try {
      openAll(allocation, outs, layout.getSplitSize(), failures);
      long total = 0;
      for (int s = 0; ; s++) {
        Stripe stripe = sets[s & 1];
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
        ByteBuffer[] units = stripe.units(k, n, cellLen, replicas);
        if (!replicas && n > k && cellLen > 0) {
          ByteBuffer[] data = new ByteBuffer[k];
          ByteBuffer[] parity = new ByteBuffer[n - k];
          System.arraycopy(units, 0, data, 0, k);
          System.arraycopy(units, k, parity, 0, n - k);
          long began = System.nanoTime();
          ReedSolomon.coder(k, n - k).encode(data, parity);
          statistics.addEncode(System.nanoTime() - began);
        }
        int[] stripeCrcs = new int[n];
        for (int i = 0; i < n; i++) {
          CRC32C crc = new CRC32C();
          crc.update(units[i].duplicate());
          stripeCrcs[i] = (int) crc.getValue();
        }
        crcs.add(stripeCrcs);
        // The previous stripe's writes: each stream takes one write at a time.
        awaitAll(inFlight, "writing stripe " + (s - 1) + " of '" + layout.getKey() + "'",
            failures);
        failures.check();
        for (int i = 0; i < n; i++) {
          if (failures.failed(i)) {
            continue;
          }
          FileOutStream out = outs[i];
          ByteBuffer unit = units[i];
          int index = i;
          inFlight.add(new SplitTask(i, io.submit(() -> {
            try {
              copy(unit.duplicate(), out);
              ClientMetrics.BYTES_WRITTEN.inc(unit.remaining());
            } catch (IOException | RuntimeException e) {
              failures.record(index, e);
              cancelQuietly(out);
            }
            return null;
          })));
        }
        if (persist != null) {
          int objectBytes = got;
          inFlight.add(new SplitTask(SplitTask.UNDER_STORE, io.submit(() -> {
            int left = objectBytes;
            try {
              for (int i = 0; i < k && left > 0; i++) {
                ByteBuffer part = units[i].duplicate();
                part.limit(Math.min(cellLen, left));
                left -= part.remaining();
                copy(part, persist);
              }
            } catch (IOException | RuntimeException e) {
              throw new UnavailableException("writing '" + layout.getKey() + "' to the under store"
                  + " (S3) failed: " + e.getMessage() + "; check that S3 is reachable, or PUT with"
                  + " CACHE_ONLY", e);
            }
            return null;
          })));
        }
        if (got < k * cell) {
          break; // a short stripe is the last
        }
      }
      awaitAll(inFlight, "writing the last stripe of '" + layout.getKey() + "'", failures);
      if (expectedSize >= 0 && total == expectedSize && hasMore(source)) {
        // A full last stripe (or an empty object) stops the loop before it sees the extra bytes.
        throw new InvalidArgumentException("the stream holds more than the " + expectedSize
            + " bytes the PUT declared: give its exact length, or -1 if unknown");
      }
      if (expectedSize >= 0 && total != expectedSize) {
        throw new InvalidArgumentException("the stream ended after " + total + " of the "
            + expectedSize + " bytes the PUT declared: give its exact length, or -1 if unknown");
      }
      closeAll(outs, failures);
      failures.check();
      done = true;
      return new Result(total, splitMajor(crcs, n), failures.indexes());
    } finally {
      if (!done) {
        awaitQuietly(inFlight, failures);
        for (FileOutStream out : outs) {
          cancelQuietly(out);
        }
      }
      sets[0].release(pool);
      sets[1].release(pool);
    }
  }

  /** The k data (and r parity) cell buffers of one stripe, reused from stripe to stripe. */
  private final class Stripe {
    final ByteBuffer[] cells;

    Stripe(int n, int cell) {
      cells = new ByteBuffer[n];
      for (int i = 0; i < n; i++) {
        cells[i] = pool.acquire(cell);
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

    ByteBuffer[] units(int k, int n, int cellLen, boolean replicas) {
      ByteBuffer[] units = new ByteBuffer[n];
      for (int i = 0; i < n; i++) {
        units[i] = (replicas ? cells[0] : cells[i]).duplicate();
        units[i].position(0).limit(cellLen);
      }
      return units;
    }

    void release(DirectBufferPool pool) {
      for (ByteBuffer c : cells) {
        pool.release(c);
      }
    }
  }

  private void openAll(AllocateResponse allocation, FileOutStream[] outs, long splitSize,
      SplitFailures failures) throws IOException {
    CreateFilePOptions options = CreateFilePOptions.newBuilder()
        .setWriteType(WritePType.MUST_CACHE)
        .setReplicationMax(1)
        // One block per split, so a split lives on exactly one worker (1 TiB when not known yet).
        .setBlockSizeBytes(splitSize < 0 ? 1L << 40 : Math.max(splitSize, 1 << 20))
        .setOverwrite(true)
        .setRecursive(true)
        .buildPartial();
    List<Future<FileOutStream>> opening = new ArrayList<>();
    for (int i = 0; i < outs.length; i++) {
      var split = allocation.getSplits(i);
      CreateFilePOptions pinned = options.toBuilder().setWorkerLocation(split.getWorker()).build();
      opening.add(io.submit(() -> fs.createFile(new AlluxioURI(split.getPath()), pinned)));
    }
    IOException failure = null;
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    for (int i = 0; i < outs.length; i++) {
      try {
        outs[i] = opening.get(i).get(Math.max(0, deadline - System.nanoTime()),
            TimeUnit.NANOSECONDS);
      } catch (ExecutionException e) {
        failures.record(i, e.getCause()); // its worker is gone or full: written elsewhere later
      } catch (TimeoutException e) {
        failure = failure != null ? failure : new DeadlineExceededException("opening split "
            + allocation.getSplits(i).getPath() + " on worker "
            + allocation.getSplits(i).getWorker().getHost() + " took more than " + timeoutMs
            + " ms (alluxio.user.eccache.io.timeout); check that worker, then PUT again");
        closeWhenOpened(opening.get(i));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failure = new IOException("interrupted while opening split files", e);
      }
    }
    if (failure != null) {
      throw failure;
    }
    failures.check();
  }

  private void closeAll(FileOutStream[] outs, SplitFailures failures) throws IOException {
    List<SplitTask> closing = new ArrayList<>();
    for (int i = 0; i < outs.length; i++) {
      if (failures.failed(i)) {
        continue;
      }
      FileOutStream out = outs[i];
      int index = i;
      closing.add(new SplitTask(i, io.submit(() -> {
        try {
          out.close(); // completes the split's block on its worker
        } catch (IOException | RuntimeException e) {
          failures.record(index, e);
        }
        return null;
      })));
    }
    awaitAll(closing, "completing the split files", failures);
  }

  /** The splits that failed during one write, and how many may. Thread-safe. */
  private static final class SplitFailures {
    private final Throwable[] causes;
    private final int tolerated;

    SplitFailures(int splits, int tolerated) {
      this.causes = new Throwable[splits];
      this.tolerated = tolerated;
    }

    synchronized void record(int index, Throwable cause) {
      if (causes[index] == null) {
        causes[index] = cause;
      }
    }

    synchronized boolean failed(int index) {
      return causes[index] != null;
    }

    synchronized List<Integer> indexes() {
      List<Integer> failed = new ArrayList<>();
      for (int i = 0; i < causes.length; i++) {
        if (causes[i] != null) {
          failed.add(i);
        }
      }
      return failed;
    }

    /** Throws when more splits failed than can be rebuilt from the others. */
    synchronized void check() throws IOException {
      List<Integer> failed = indexes();
      if (failed.size() > tolerated) {
        // The first failure as it was (typed); the code could rebuild `tolerated` of them.
        IOException e = asIOException(causes[failed.get(0)]);
        for (int i = 1; i < failed.size(); i++) {
          e.addSuppressed(causes[failed.get(i)]);
        }
        throw e;
      }
    }
  }

  private static boolean hasMore(ByteSource source) throws IOException {
    return source.fill(ByteBuffer.allocate(1)) > 0;
  }

  private static void copy(ByteBuffer src, OutputStream out) throws IOException {
    byte[] chunk = CHUNK.get();
    while (src.hasRemaining()) {
      int len = Math.min(chunk.length, src.remaining());
      src.get(chunk, 0, len);
      out.write(chunk, 0, len);
    }
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

  /** A split file opened after its PUT gave up on it: cancelled once it is there. */
  private void closeWhenOpened(Future<FileOutStream> late) {
    io.submit(() -> {
      try {
        cancelQuietly(late.get());
      } catch (ExecutionException | InterruptedException ignored) {
        // never opened
      }
      return null;
    });
  }

  /** One split's write or close in flight (or the under-store copy's). */
  private static final class SplitTask {
    static final int UNDER_STORE = -1;
    final int index;
    final Future<?> future;

    SplitTask(int index, Future<?> future) {
      this.index = index;
      this.future = future;
    }
  }

  /**
   * Waits for every task, {@code alluxio.user.eccache.io.timeout} at most in all. A split whose
   * task has not finished by then counts as failed (its stream is abandoned, the split is written
   * elsewhere if the code allows); the under-store copy's failure or delay fails the write. Clears
   * the list.
   */
  private void awaitAll(List<SplitTask> tasks, String what, SplitFailures failures)
      throws IOException {
    IOException failure = null;
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    for (SplitTask task : tasks) {
      try {
        task.future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (ExecutionException e) {
        failure = failure != null ? failure : asIOException(e.getCause());
      } catch (TimeoutException e) {
        DeadlineExceededException late = new DeadlineExceededException(what + " took more than "
            + timeoutMs + " ms (alluxio.user.eccache.io.timeout): "
            + (task.index == SplitTask.UNDER_STORE ? "the under store (S3)" : "a worker")
            + " does not answer; check it, then PUT again");
        if (task.index == SplitTask.UNDER_STORE) {
          failure = failure != null ? failure : late;
        } else {
          failures.record(task.index, late);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failure = new IOException("interrupted while writing splits", e);
        break;
      }
    }
    tasks.clear();
    if (failure != null) {
      throw failure;
    }
    failures.check();
  }

  private void awaitQuietly(List<SplitTask> tasks, SplitFailures failures) {
    try {
      awaitAll(tasks, "cleaning up", failures);
    } catch (IOException ignored) {
      // already failing; the first error is the one reported
    }
  }

  private static void cancelQuietly(FileOutStream out) {
    if (out != null) {
      try {
        out.cancel();
      } catch (IOException | RuntimeException ignored) {
        // best effort: the coordinator drops the uncommitted write directory later
      }
    }
  }

  static IOException asIOException(Throwable cause) {
    if (cause instanceof IOException) {
      return (IOException) cause;
    }
    if (cause instanceof AlluxioException) {
      return new IOException(cause.getMessage(), cause);
    }
    return new IOException("split I/O failed: " + cause, cause);
  }
}
