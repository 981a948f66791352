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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32C;

/**
 * The one way split files are written, for PUTs ({@link StripedWriter}: every split of a new write)
 * and repairs ({@link SplitRebuilder}: chosen splits of a stored object). It opens each split file
 * pinned to its worker (cache only, replication max 1, one block per split), then stripe by stripe
 * takes the k data cells, codes the parity cells its splits need, computes the CRC32C of every cell
 * it writes and appends each to its split file, all splits in parallel on the context's I/O threads.
 * Each split's writes follow one another, with no barrier across splits: a data cell's write starts
 * before the stripe's parity is coded, and a split that is done with one stripe goes on to the next
 * while slower splits finish theirs. A stripe's buffers are reused {@link #DEPTH} stripes later,
 * once every write of it has ended. Up to {@code tolerated} splits
 * may fail (their worker dies, refuses, or does not answer within the I/O timeout): they are left
 * out and named by {@link #finish()}, to be written elsewhere; one more fails the write. Until
 * {@link #finish()} returns, {@link #close()} cancels every split file. Not thread-safe.
 */
final class SplitWriter implements AutoCloseable {
  /** Bytes per write call: the stream API takes arrays, so direct cells pass through this chunk. */
  private static final ThreadLocal<byte[]> CHUNK = ThreadLocal.withInitial(() -> new byte[1 << 20]);

  /**
   * Stripes whose writes may be in flight at once: the parity cells of stripe s, and a streamed
   * PUT's data cells ({@link StripedWriter}), are reused for stripe s + DEPTH.
   */
  static final int DEPTH = 2;

  /** Whether the split files exist, and if not, whether their directory does. */
  enum Files {
    /** Created by the coordinator with the allocation (empty, incomplete): opened, not created. */
    CREATED,
    /** To be created in a directory that exists (a new write's, made at the allocation). */
    CREATE,
    /** To be created, with their directory if it is missing (a repair's targets). */
    CREATE_WITH_PARENTS,
    /**
     * To be created in their regions' mounts and written through to those S3 regions, not cached
     * (a regional object's splits, docs/agar.md).
     */
    THROUGH
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
  /** Parity cells, {@link #DEPTH} sets: stripe s's are written while later stripes are coded. */
  private final ByteBuffer[][] parity;
  /** Writes not yet waited for, oldest stripe first. */
  private final ArrayDeque<Pending> pending = new ArrayDeque<>();
  /** Each split's last write, which its next write and its close follow. */
  private final CompletableFuture<?>[] lastWrite;
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
    int parities = 0;
    if (scheme.kind() == RedundancyScheme.Kind.ERASURE_CODED) {
      for (Target t : targets) {
        parities = Math.max(parities, t.index - scheme.dataSplits() + 1);
      }
    }
    this.parity = new ByteBuffer[DEPTH][parities];
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
        .setWriteType(files == Files.THROUGH ? WritePType.THROUGH : WritePType.MUST_CACHE)
        .setReplicationMax(1)
        // One block per split, so a split lives on exactly one worker (1 TiB when not known yet).
        .setBlockSizeBytes(StripeGeometry.splitBlockSize(splitSize))
        .setOverwrite(true)
        .setRecursive(files == Files.CREATE_WITH_PARENTS)
        .buildPartial();
    List<Future<FileOutStream>> opening = new ArrayList<>();
    // Which thread is opening each file, so a timeout can say where it is stuck.
    List<AtomicReference<Thread>> openers = new ArrayList<>();
    for (Target t : targets) {
      CreateFilePOptions pinned = options.toBuilder().setWorkerLocation(t.worker).build();
      AlluxioURI uri = new AlluxioURI(t.path);
      AtomicReference<Thread> opener = new AtomicReference<>();
      openers.add(opener);
      opening.add(context.io().submit(() -> {
        opener.set(Thread.currentThread());
        try {
          return files == Files.CREATED
              ? context.openCreated(uri, pinned) : context.fs().createFile(uri, pinned);
        } finally {
          opener.set(null);
        }
      }));
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
        if (failure == null) {
          failure = new DeadlineExceededException("opening split " + targets.get(j).path
              + " on worker " + targets.get(j).worker.getHost() + " took more than " + timeoutMs
              + " ms (alluxio.user.eccache.io.timeout); check that worker, then try again");
          failure.addSuppressed(IoErrors.whereStuck("opening " + targets.get(j).path,
              openers.get(j).get()));
        }
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
   * Writes one stripe: starts the data cells' writes, codes the parity cells the targets need from
   * {@code data} (k cells of {@code cellLength} bytes each, between position and limit), computes
   * every target's CRC32C and starts the parity cells' writes, each after its split's write of the
   * previous stripe. {@code data} must stay unchanged until {@link #awaitStripe} of this stripe,
   * {@link #drain()} or {@link #finish()} returns. Data cells may be direct or heap buffers: heap
   * cells (a PUT's own array) are written and coded as they are, not copied (the coder pins their
   * array for the call).
   *
   * @return the CRC32C of each target's cell, in target order
   */
  int[] writeStripe(ByteBuffer[] data, int cellLength) throws IOException {
    int stripe = stripes;
    awaitStripe(stripe - DEPTH); // its parity set is this one's
    ByteBuffer[] parities = parity[stripe % DEPTH];
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
    Pending writes = new Pending(stripe);
    pending.add(writes);
    int[] crcs = new int[targets.size()];
    // Data cells (and a replica's copies) first: their writes need nothing coded.
    for (int j = 0; j < targets.size(); j++) {
      int index = targets.get(j).index;
      if (scheme.kind() == RedundancyScheme.Kind.REPLICATED || index < cells.length) {
        ByteBuffer unit = scheme.kind() == RedundancyScheme.Kind.REPLICATED ? cells[0]
            : cells[index];
        startWrite(writes, j, unit.duplicate(), cellLength);
        crcs[j] = crc32c(unit);
      }
    }
    if (coded.length > 0 && cellLength > 0) {
      long began = System.nanoTime();
      ReedSolomon.coder(cells.length, coded.length).encode(cells, coded);
      context.statistics().addEncode(System.nanoTime() - began);
    }
    for (int j = 0; j < targets.size(); j++) {
      int index = targets.get(j).index;
      if (scheme.kind() == RedundancyScheme.Kind.ERASURE_CODED && index >= cells.length) {
        ByteBuffer unit = coded[index - cells.length];
        crcs[j] = crc32c(unit);
        startWrite(writes, j, unit.duplicate(), cellLength);
      }
    }
    stripes++;
    return crcs;
  }

  /** Starts appending {@code unit} to split {@code j} once its previous write has ended. */
  private void startWrite(Pending writes, int j, ByteBuffer unit, int cellLength) {
    if (failures.failed(j)) {
      return;
    }
    FileOutStream out = outs[j];
    Runnable write = () -> {
      if (failures.failed(j)) {
        return; // an earlier write of this split failed (and cancelled it) or timed out
      }
      try {
        copy(unit, out);
        ClientMetrics.BYTES_WRITTEN.inc(cellLength);
      } catch (IOException | RuntimeException e) {
        failures.record(j, e);
        cancelQuietly(out);
      }
    };
    lastWrite[j] = lastWrite[j] == null ? CompletableFuture.runAsync(write, context.io())
        : lastWrite[j].thenRunAsync(write, context.io());
    writes.add(j, lastWrite[j]);
  }

  /**
   * Waits for every write of {@code stripe} and the stripes before it (the I/O timeout at most; a
   * silent split counts as failed), after which their buffers may be reused. Nothing for a stripe
   * below 0.
   */
  void awaitStripe(int stripe) throws IOException {
    while (!pending.isEmpty() && pending.peek().stripe <= stripe) {
      Pending writes = pending.poll();
      await(writes, "writing stripe " + writes.stripe + " of '" + key + "'", 1);
    }
  }

  /** Waits for the writes in flight (the I/O timeout at most; a silent split counts as failed). */
  void drain() throws IOException {
    awaitStripe(stripes - 1);
  }

  /** Every write not waited for yet, as one set, taken off {@link #pending}. */
  private Pending inFlight() {
    Pending all = new Pending(stripes);
    for (Pending writes : pending) {
      all.futures.addAll(writes.futures);
      all.slots.addAll(writes.slots);
    }
    pending.clear();
    return all;
  }

  /**
   * Completes every split file that did not fail; returns the indexes (in the scheme) of the splits
   * that failed, at most {@code tolerated}. Each split is closed as soon as its own last write
   * ends, not after the slowest split's: a split's close waits for the master (block commit and
   * file completion), and those waits of different splits then overlap their writes.
   */
  List<Integer> finish() throws IOException {
    // The writes of the stripes still in flight, then the closes: two I/O timeouts in all.
    Pending closes = inFlight();
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
      closes.add(j, lastWrite[j] == null ? CompletableFuture.runAsync(close, context.io())
          : lastWrite[j].thenRunAsync(close, context.io()));
    }
    await(closes, "writing the last stripes and completing the split files of '" + key + "'", 2);
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
        await(inFlight(), "cleaning up", 1);
      } catch (IOException ignored) {
        // already failing; the first error is the one reported
      }
      for (FileOutStream out : outs) {
        cancelQuietly(out);
      }
    }
    for (ByteBuffer[] set : parity) {
      for (int i = 0; i < set.length; i++) {
        context.pool().release(set[i]);
        set[i] = null;
      }
    }
  }

  /** The writes of one stripe (or the closes), with the split each is for. */
  private static final class Pending {
    final int stripe;
    final List<Future<?>> futures = new ArrayList<>();
    final List<Integer> slots = new ArrayList<>();

    Pending(int stripe) {
      this.stripe = stripe;
    }

    void add(int slot, Future<?> future) {
      futures.add(future);
      slots.add(slot);
    }

  }

  /**
   * Waits for every task of {@code tasks}, {@code steps} I/O timeouts at most in all. A split whose
   * task has not finished by then counts as failed (its stream is abandoned, the split written
   * elsewhere if the code allows); the tasks of a split that failed already are not waited for.
   */
  private void await(Pending tasks, String what, int steps) throws IOException {
    IOException failure = null;
    long timeoutMs = steps * context.ioTimeoutMs();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    for (int t = 0; t < tasks.futures.size(); t++) {
      int slot = tasks.slots.get(t);
      if (failures.failed(slot) && !tasks.futures.get(t).isDone()) {
        continue; // failed before: what it still runs is abandoned
      }
      try {
        tasks.futures.get(t).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (ExecutionException e) {
        failure = failure != null ? failure : IoErrors.asIOException(e.getCause());
      } catch (TimeoutException e) {
        failures.record(slot, new DeadlineExceededException(what + " took more"
            + " than " + timeoutMs + " ms (" + (steps == 1 ? "" : steps + " x ")
            + "alluxio.user.eccache.io.timeout): a worker does not"
            + " answer; check it, then try again"));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failure = new IOException("interrupted while writing splits", e);
        break;
      }
    }
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
