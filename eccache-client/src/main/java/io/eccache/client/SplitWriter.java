package io.eccache.client;

import alluxio.AlluxioURI;
import alluxio.client.file.FileOutStream;
import alluxio.exception.status.DeadlineExceededException;
import alluxio.grpc.CreateFilePOptions;
import alluxio.grpc.WorkerNetAddress;
import alluxio.grpc.WritePType;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.StripeGeometry;
import io.eccache.isal.ReedSolomon;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.CRC32C;

/**
 * The one way split files are written, for PUTs ({@link StripedWriter}: every split of a new write)
 * and repairs ({@link SplitRebuilder}: chosen splits of a stored object). It opens each split file
 * pinned to its worker (cache only, replication max 1, one block per split), then stripe by stripe
 * takes the k data cells, codes the parity cells its splits need, computes the CRC32C of every cell
 * it writes and appends each to its split file, all splits in parallel on the context's I/O threads.
 * The writes of one stripe run while the caller prepares the next. Up to {@code tolerated} splits
 * may fail (their worker dies, refuses, or does not answer within the I/O timeout): they are left
 * out and named by {@link #finish()}, to be written elsewhere; one more fails the write. Until
 * {@link #finish()} returns, {@link #close()} cancels every split file. Not thread-safe.
 */
final class SplitWriter implements AutoCloseable {
  /** Bytes per write call: the stream API takes arrays, so direct cells pass through this chunk. */
  private static final ThreadLocal<byte[]> CHUNK = ThreadLocal.withInitial(() -> new byte[1 << 20]);

  /** Whether the split files exist, and if not, whether their directory does. */
  enum Files {
    /** Created by the coordinator with the allocation (empty, incomplete): opened, not created. */
    CREATED,
    /** To be created in a directory that exists (a new write's, made at the allocation). */
    CREATE,
    /** To be created, with their directory if it is missing (a repair's targets). */
    CREATE_WITH_PARENTS
  }

  /** One split to write: its index in the scheme, its file and the worker it is pinned to. */
  static final class Target {
    final int index;
    final String path;
    final WorkerNetAddress worker;

    Target(int index, String path, WorkerNetAddress worker) {
      this.index = index;
      this.path = path;
      this.worker = worker;
    }
  }

  private final ClientContext context;
  private final String key;
  private final RedundancyScheme scheme;
  private final List<Target> targets;
  private final FileOutStream[] outs;
  private final SplitFailures failures;
  /** Parity cells, two sets: one being written while the next stripe is coded into the other. */
  private final ByteBuffer[][] parity;
  private final int maxCell;
  private final List<Future<?>> inFlight = new ArrayList<>();
  /** Each split's last write, which its close follows. */
  private final CompletableFuture<?>[] lastWrite;
  private final List<Integer> inFlightIndex = new ArrayList<>();
  private int stripes;
  private boolean finished;

  private SplitWriter(ClientContext context, String key, RedundancyScheme scheme,
      List<Target> targets, int maxCell, int tolerated) {
    this.context = context;
    this.key = key;
    this.scheme = scheme;
    this.targets = targets;
    this.outs = new FileOutStream[targets.size()];
    this.lastWrite = new CompletableFuture<?>[targets.size()];
    this.failures = new SplitFailures(targets.size(), tolerated);
    this.maxCell = maxCell;
    int parities = 0;
    if (scheme.kind() == RedundancyScheme.Kind.ERASURE_CODED) {
      for (Target t : targets) {
        parities = Math.max(parities, t.index - scheme.dataSplits() + 1);
      }
    }
    this.parity = new ByteBuffer[2][parities];
    for (ByteBuffer[] set : parity) {
      for (int i = 0; i < parities; i++) {
        set[i] = context.pool().acquire(maxCell);
      }
    }
  }

  /**
   * Opens the split files of {@code targets} in parallel, pinned to their workers.
   *
   * @param splitSize bytes each split will hold, or -1 when not known yet
   * @param maxCell the largest cell a stripe will have
   * @param tolerated how many splits may fail and be left out
   * @param files whether the split files are to be created, and how
   * @throws DeadlineExceededException if a file does not open within the I/O timeout
   */
  static SplitWriter open(ClientContext context, String key, RedundancyScheme scheme,
      List<Target> targets, long splitSize, int maxCell, int tolerated, Files files)
      throws IOException {
    SplitWriter writer = new SplitWriter(context, key, scheme, targets, maxCell, tolerated);
    try {
      writer.openAll(splitSize, files);
      return writer;
    } catch (IOException | RuntimeException e) {
      writer.close();
      throw e;
    }
  }

  private void openAll(long splitSize, Files files) throws IOException {
    CreateFilePOptions options = CreateFilePOptions.newBuilder()
        .setWriteType(WritePType.MUST_CACHE)
        .setReplicationMax(1)
        // One block per split, so a split lives on exactly one worker (1 TiB when not known yet).
        .setBlockSizeBytes(StripeGeometry.splitBlockSize(splitSize))
        .setOverwrite(true)
        .setRecursive(files == Files.CREATE_WITH_PARENTS)
        .buildPartial();
    List<Future<FileOutStream>> opening = new ArrayList<>();
    for (Target t : targets) {
      CreateFilePOptions pinned = options.toBuilder().setWorkerLocation(t.worker).build();
      AlluxioURI uri = new AlluxioURI(t.path);
      opening.add(context.io().submit(() -> files == Files.CREATED
          ? context.openCreated(uri, pinned) : context.fs().createFile(uri, pinned)));
    }
    IOException failure = null;
    long timeoutMs = context.ioTimeoutMs();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    for (int j = 0; j < outs.length; j++) {
      try {
        outs[j] = opening.get(j).get(Math.max(0, deadline - System.nanoTime()),
            TimeUnit.NANOSECONDS);
      } catch (ExecutionException e) {
        failures.record(j, e.getCause()); // its worker is gone or full: written elsewhere later
      } catch (TimeoutException e) {
        failure = failure != null ? failure : new DeadlineExceededException("opening split "
            + targets.get(j).path + " on worker " + targets.get(j).worker.getHost()
            + " took more than " + timeoutMs + " ms (alluxio.user.eccache.io.timeout); check"
            + " that worker, then try again");
        closeWhenOpened(opening.get(j));
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

  /**
   * Writes one stripe: codes the parity cells the targets need from {@code data} (k cells of
   * {@code cellLength} bytes each, between position and limit), computes every target's CRC32C,
   * waits for the previous stripe's writes and starts this one's. {@code data} must stay unchanged
   * until the next call, {@link #drain()} or {@link #finish()}. Data cells may be direct or heap
   * buffers: heap cells (a PUT's own array) are written and coded as they are, not copied
   * (the coder pins their array for the call).
   *
   * @return the CRC32C of each target's cell, in target order
   */
  int[] writeStripe(ByteBuffer[] data, int cellLength) throws IOException {
    ByteBuffer[] parities = parity[stripes & 1];
    ByteBuffer[] coded = new ByteBuffer[parities.length];
    for (int i = 0; i < parities.length; i++) {
      coded[i] = parities[i].duplicate().clear().limit(cellLength);
    }
    ByteBuffer[] cells = new ByteBuffer[scheme.dataSplits()];
    for (int i = 0; i < cells.length; i++) {
      cells[i] = data[i].duplicate();
      if (cells[i].remaining() != cellLength) {
        throw new IllegalArgumentException("cell " + i + " holds " + cells[i].remaining()
            + " bytes, not " + cellLength);
      }
    }
    if (coded.length > 0 && cellLength > 0) {
      long began = System.nanoTime();
      ReedSolomon.coder(cells.length, coded.length).encode(cells, coded);
      context.statistics().addEncode(System.nanoTime() - began);
    }
    ByteBuffer[] units = new ByteBuffer[targets.size()];
    int[] crcs = new int[units.length];
    for (int j = 0; j < units.length; j++) {
      int index = targets.get(j).index;
      ByteBuffer unit = scheme.kind() == RedundancyScheme.Kind.REPLICATED ? cells[0]
          : index < cells.length ? cells[index] : coded[index - cells.length];
      units[j] = unit.duplicate();
      crcs[j] = crc32c(units[j]);
    }
    drain(); // each stream takes one write at a time
    for (int j = 0; j < units.length; j++) {
      if (failures.failed(j)) {
        continue;
      }
      FileOutStream out = outs[j];
      ByteBuffer unit = units[j];
      int slot = j;
      lastWrite[j] = CompletableFuture.runAsync(() -> {
        try {
          copy(unit, out);
          ClientMetrics.BYTES_WRITTEN.inc(cellLength);
        } catch (IOException | RuntimeException e) {
          failures.record(slot, e);
          cancelQuietly(out);
        }
      }, context.io());
      track(j, lastWrite[j]);
    }
    stripes++;
    return crcs;
  }

  /** Waits for the writes in flight (the I/O timeout at most; a silent split counts as failed). */
  void drain() throws IOException {
    awaitAll("writing stripe " + (stripes - 1) + " of '" + key + "'", 1);
  }

  /**
   * Completes every split file that did not fail; returns the indexes (in the scheme) of the splits
   * that failed, at most {@code tolerated}. Each split is closed as soon as its own last write
   * ends, not after the slowest split's: a split's close waits for the master (block commit and
   * file completion), and those waits of different splits then overlap their writes.
   */
  List<Integer> finish() throws IOException {
    for (int j = 0; j < outs.length; j++) {
      if (failures.failed(j)) {
        continue;
      }
      FileOutStream out = outs[j];
      int slot = j;
      Runnable close = () -> {
        if (failures.failed(slot)) {
          return; // its last write failed and cancelled it
        }
        try {
          out.close(); // completes the split's block on its worker
        } catch (IOException | RuntimeException e) {
          failures.record(slot, e);
        }
      };
      track(j, lastWrite[j] == null ? CompletableFuture.runAsync(close, context.io())
          : lastWrite[j].thenRunAsync(close, context.io()));
    }
    // The last stripe's writes (when not drained yet) and the closes: an I/O timeout for each.
    awaitAll("writing the last stripe and completing the split files of '" + key + "'", 2);
    finished = true;
    List<Integer> failed = new ArrayList<>();
    for (int j : failures.indexes()) {
      failed.add(targets.get(j).index);
    }
    return failed;
  }

  /** Cancels every split file unless {@link #finish()} completed them; gives the buffers back. */
  @Override
  public void close() {
    if (!finished) {
      try {
        awaitAll("cleaning up", 1);
      } catch (IOException ignored) {
        // already failing; the first error is the one reported
      }
      for (FileOutStream out : outs) {
        cancelQuietly(out);
      }
    }
    inFlight.clear();
    for (ByteBuffer[] set : parity) {
      for (int i = 0; i < set.length; i++) {
        context.pool().release(set[i]);
        set[i] = null;
      }
    }
  }

  private void track(int slot, Future<?> future) {
    inFlight.add(future);
    inFlightIndex.add(slot);
  }

  /**
   * Waits for every task, {@code steps} I/O timeouts at most in all. A split whose task has not
   * finished by then counts as failed (its stream is abandoned, the split written elsewhere if the
   * code allows). Clears the list.
   */
  private void awaitAll(String what, int steps) throws IOException {
    IOException failure = null;
    long timeoutMs = steps * context.ioTimeoutMs();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    for (int t = 0; t < inFlight.size(); t++) {
      try {
        inFlight.get(t).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (ExecutionException e) {
        failure = failure != null ? failure : IoErrors.asIOException(e.getCause());
      } catch (TimeoutException e) {
        failures.record(inFlightIndex.get(t), new DeadlineExceededException(what + " took more"
            + " than " + timeoutMs + " ms (" + (steps == 1 ? "" : steps + " x ")
            + "alluxio.user.eccache.io.timeout): a worker does not"
            + " answer; check it, then try again"));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failure = new IOException("interrupted while writing splits", e);
        break;
      }
    }
    inFlight.clear();
    inFlightIndex.clear();
    if (failure != null) {
      throw failure;
    }
    failures.check();
  }

  /** A split file opened after the write gave up on it: cancelled once it is there. */
  private void closeWhenOpened(Future<FileOutStream> late) {
    context.io().submit(() -> {
      try {
        cancelQuietly(late.get());
      } catch (ExecutionException | InterruptedException ignored) {
        // never opened
      }
      return null;
    });
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

  /** The CRC32C of {@code cell}'s remaining bytes (its position is not moved). */
  static int crc32c(ByteBuffer cell) {
    CRC32C crc = new CRC32C();
    crc.update(cell.duplicate());
    return (int) crc.getValue();
  }

  /**
   * Writes {@code src}'s remaining bytes to {@code out}: a heap buffer's straight from its array,
   * a direct one's through a per-thread chunk.
   */
  static void copy(ByteBuffer src, OutputStream out) throws IOException {
    if (src.hasArray()) {
      out.write(src.array(), src.arrayOffset() + src.position(), src.remaining());
      src.position(src.limit());
      return;
    }
    byte[] chunk = CHUNK.get();
    while (src.hasRemaining()) {
      int len = Math.min(chunk.length, src.remaining());
      src.get(chunk, 0, len);
      out.write(chunk, 0, len);
    }
  }
}
