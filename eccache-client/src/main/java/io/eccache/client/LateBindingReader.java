package io.eccache.client;

import com.google.common.base.Ticker;
import io.eccache.common.ReadChoice;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * EC-Cache's read (paper section 4.3), the mechanism: read splits in parallel, straight from the
 * workers that hold them; finish as soon as the plan has k intact; decode only when a data split
 * is among the missing. Which splits are read, when more are asked for and when a read is given
 * up on is a {@link ReadPlan}'s (policy apart from mechanism, as Ozone's EC read proxy chooses and
 * its streams read): this class starts the reads the plan asks for, checks each cell's CRC32C and
 * tells the plan what arrived or failed. A failed, corrupt or silent split costs only its share.
 * The reader holds the window (a {@link ReadWindow}); the {@link WindowDecoder} rebuilds.
 *
 * <p>Where the bytes go: a data split is read straight into its place in the caller's array, so a
 * healthy GET copies the object once, from Alluxio's chunks. Only the first few KiB of each chunk
 * the worker sends go through a slice of the thread's own and are copied from there: that read
 * waits for the worker, and a read into the array must never wait on one (below). Parities (and a
 * second copy of a replicated object) are staged in pooled direct buffers; the decoder reads the
 * data cells where they lie in the array and writes rebuilt cells into their place, with pooled
 * cells only for the last stripe's zero padding.
 *
 * <p>A read still running when the window completes (late binding's extra read, a straggler) must
 * not touch the array after {@link #read} returns. Every read or copy into the array holds the
 * window's read lock and checks that the window is still open; completing marks it done, then takes
 * the write lock, so once it holds it no write is in progress and none starts. Completing therefore
 * waits for reads into the array in progress: each is of bytes the stream already holds (the rest
 * of its chunk, {@link SplitSource.SplitStream#buffered}), a copy of microseconds. Should one wait
 * for its worker all the same (the hint wrong), the window's cancel (below) ends it at once. A data
 * split whose cell fails its CRC after part of it was written counts as missing, and the decoder
 * overwrites its place.
 *
 * <p>The reads not needed are cancelled at their workers when the window completes: it cancels
 * every split stream still open on it ({@link SplitSource.SplitStream#cancel}), so the worker sends
 * no more and a read waiting for it returns at once; a read that meets the done window before its
 * next slice cancels its own. Each is counted in {@code EcCacheSplitReadsStoppedEarly} and its rest
 * as unread bytes; one that arrived whole but too late is counted in
 * {@code EcCacheSplitReadsDiscarded}. Should a cancel miss a read (its stream opened an instant
 * before), the {@link ReadWatchdog} interrupts it once its worker has been silent for a tenth of
 * the I/O timeout (at most 1 s), so it does not hold its I/O thread for the whole timeout.
 */
final class LateBindingReader {
  /** Data-first: by default, the least a late data split is waited for once k arrived. */
  private static final long MIN_GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private final SplitRanges ranges;
  private final ExecutorService io;
  private final DirectBufferPool pool;
  private final ReadStatistics statistics;
  private final WindowDecoder decoder;
  /** The longest wait for the next split to arrive before the ones in flight count as failed. */
  private final long timeoutMs;
  private final ReadChoice choice;
  /** Whether this machine's CPU is busy: what the adaptive choice goes by. */
  private final BooleanSupplier cpuBusy;
  /** Data-first: the least a late data split is waited for once k splits arrived. */
  private final long minGraceNanos;
  private final Ticker ticker;
  private final WorkerHealth health;
  /**
   * Bounds each split read at {@link #timeoutMs}, and lets a GET that needs one read make it on
   * its own thread; null (tests): reads unbounded but for the reader's wait, all on {@link #io}.
   */
  private final ReadWatchdog watchdog;

  LateBindingReader(ClientContext context) {
    this(new AlluxioSplitSource(context.alluxio(), context.statistics()), context.io(), context.readWatchdog(), context.pool(),
        context.statistics(), context.ioTimeoutMs(), context.readChoice(), MIN_GRACE_NANOS,
        context.ticker(), context.workerHealth(), context.cpuLoad()::busy);
  }

  /** As below, on a CPU that is never busy (tests). */
  LateBindingReader(SplitSource source, ExecutorService io, ReadWatchdog watchdog,
      DirectBufferPool pool, ReadStatistics statistics, long timeoutMs, ReadChoice choice,
      long minGraceNanos, Ticker ticker, WorkerHealth health) {
    this(source, io, watchdog, pool, statistics, timeoutMs, choice, minGraceNanos, ticker, health,
        () -> false);
  }

  LateBindingReader(SplitSource source, ExecutorService io, ReadWatchdog watchdog,
      DirectBufferPool pool, ReadStatistics statistics, long timeoutMs, ReadChoice choice,
      long minGraceNanos, Ticker ticker, WorkerHealth health, BooleanSupplier cpuBusy) {
    this.ranges = new SplitRanges(source, pool, statistics);
    this.io = io;
    this.watchdog = watchdog;
    this.pool = pool;
    this.statistics = statistics;
    this.decoder = new WindowDecoder(pool, statistics);
    this.timeoutMs = timeoutMs;
    this.choice = choice;
    this.minGraceNanos = minGraceNanos;
    this.ticker = ticker;
    this.health = health;
    this.cpuBusy = cpuBusy;
  }

  /** One split's range that arrived intact: in the array ({@code staged} null) or staged. */
  private static final class Arrived {
    final int index;
    final ByteBuffer staged;

    Arrived(int index, ByteBuffer staged) {
      this.index = index;
      this.staged = staged;
    }
  }

  /** One GET's reads in flight and what they brought: the mechanism's state, not the plan's. */
  private final class Reads {
    final ReadWindow window;
    final ReadPlan plan;
    final CompletionService<Arrived> arrivals = new ExecutorCompletionService<>(io);
    /** Every read started and not yet taken from {@link #arrivals}, with its plan entry. */
    final Map<Future<Arrived>, ReadPlan.PlannedRead> started = new IdentityHashMap<>();
    /**
     * Whether a read copying into the array was started for each data position: only one may (a
     * replicated object's later copies are staged), so no two reads write the same bytes.
     */
    final boolean[] placed;
    final boolean[] inPlace;
    final ByteBuffer[] staged;

    Reads(ReadWindow window, ReadPlan plan, int k, int n) {
      this.window = window;
      this.plan = plan;
      this.placed = new boolean[k];
      this.inPlace = new boolean[k];
      this.staged = new ByteBuffer[n];
    }

    void startAll(List<ReadPlan.PlannedRead> reads) {
      for (ReadPlan.PlannedRead r : reads) {
        start(r);
      }
    }

    /** Starts {@code read} on an I/O thread, into the array if no read of its position is. */
    void start(ReadPlan.PlannedRead read) {
      Split split = read.split;
      int position = plan.position(split);
      boolean intoArray = position < placed.length && !placed[position];
      if (intoArray) {
        placed[position] = true;
      }
      ReadWatchdog.WatchedRead<Arrived> call = progress -> {
        if (window.done()) {
          // Queued behind other reads until the GET had its k: no buffer taken, no worker asked.
          throw new IOException("not begun: k splits arrived first");
        }
        ReadWatchdog.Progress both = both(progress, read);
        return intoArray
            ? new Arrived(split.getIndex(), ranges.intoArray(split, position, window, false, both))
            : new Arrived(split.getIndex(), ranges.staged(split, window, both));
      };
      // Bounded on the I/O thread too: a read of a hung worker would hold its thread until
      // Alluxio's own stream timeout, long after this GET gave up on it or stopped needing it.
      started.put(arrivals.submit(watchdog == null ? () -> call.call(ReadWatchdog.Progress.NONE)
          : () -> {
            try {
              return watchdog.call(call, timeoutMs, () -> "reading split " + split.getPath(),
                  window::done);
            } catch (ReadWatchdog.AbandonedException e) {
              // Its worker sent nothing for the watchdog's quiet time: hung or cut off, so the
              // next GETs avoid it (a read merely given up on by the plan does not trip it).
              health.failed(split.getWorker());
              throw e; // counted as stopped early by the read itself
            }
          }), read);
    }

    /**
     * Makes the GET's one read here, straight into the array, no hand-off; false when the client
     * is closing (the I/O path then says so). A failure is the plan's, as any read's.
     */
    boolean readHere(ReadPlan.PlannedRead read) {
      int position = plan.position(read.split);
      placed[position] = true;
      try {
        watchdog.call(() -> ranges.intoArray(read.split, position, window, true,
            both(ReadWatchdog.Progress.NONE, read)),
            timeoutMs, () -> "reading split " + read.split.getPath());
      } catch (RejectedExecutionException closed) {
        placed[position] = false;
        return false;
      } catch (Exception e) {
        ClientMetrics.READS_FAILED.inc();
        startAll(plan.failed(read, e));
        return true;
      }
      inPlace[position] = true;
      ClientMetrics.SPLITS_READ.inc();
      startAll(plan.arrived(read));
      return true;
    }

    /** Takes in what {@code next} brought and tells the plan. */
    void took(Future<Arrived> next) throws InterruptedException {
      ReadPlan.PlannedRead read = started.remove(next);
      try {
        Arrived a = next.get();
        if (a.staged == null) {
          inPlace[plan.position(read.split)] = true;
        } else {
          window.claim(a.staged);
          staged[a.index] = a.staged;
        }
        ClientMetrics.SPLITS_READ.inc();
        startAll(plan.arrived(read));
      } catch (ExecutionException e) {
        ClientMetrics.READS_FAILED.inc();
        startAll(plan.failed(read, e.getCause()));
      }
    }
  }

  /** A progress that tells both the watchdog and the plan. */
  private static ReadWatchdog.Progress both(ReadWatchdog.Progress watchdog,
      ReadPlan.PlannedRead read) {
    return new ReadWatchdog.Progress() {
      @Override
      public void advanced() {
        watchdog.advanced();
        read.advanced();
      }

      @Override
      public void closing() {
        watchdog.closing();
      }
    };
  }

  /**
   * Reads stripes {@code [from, to)} of the object {@code lookup} describes into {@code target}:
   * the object's byte at {@code objectOffset(from) + i} lands at {@code target[offset + i]}, for
   * every byte of those stripes inside the object (not the last stripe's padding). Which splits
   * are read and when is a {@link ReadPlan}'s; this moves the bytes. Nothing writes into
   * {@code target} after this returns or throws.
   *
   * @throws alluxio.exception.status.UnavailableException when fewer than k splits could be read
   */
  void read(LookupResponse lookup, int delta, int from, int to, byte[] target, int offset)
      throws IOException {
    Layout layout = lookup.getLayout();
    StripeGeometry geometry = StripeGeometry.of(layout);
    RedundancyScheme scheme = SchemeProtos.of(layout);
    int k = scheme.dataSplits();
    boolean replicated = scheme.kind() == RedundancyScheme.Kind.REPLICATED;
    ReadWindow window = new ReadWindow(layout, geometry, from, to, target, offset);
    if (window.objectBytes > target.length - (long) offset) {
      throw new IllegalArgumentException("stripes [" + from + ", " + to + ") hold "
          + window.objectBytes + " object bytes; the array has " + (target.length - offset));
    }
    ReadStrategy strategy = ReadStrategy.of(lookup, replicated, choice, cpuBusy);
    ReadPlan plan = new ReadPlan(layout.getKey(), strategy,
        strategy.order(lookup, k, ThreadLocalRandom.current()), k, delta, ticker, health,
        statistics, timeoutMs, minGraceNanos);
    Reads reads = new Reads(window, plan, k, scheme.splits());
    List<ReadPlan.PlannedRead> first = plan.start();
    boolean complete = false;
    try {
      if (first.size() != 1 || watchdog == null || plan.position(first.get(0).split) >= k
          || !reads.readHere(first.get(0))) {
        reads.startAll(first);
      }
      while (!plan.complete()) {
        Future<Arrived> next = reads.arrivals.poll(plan.waitNanos(), TimeUnit.NANOSECONDS);
        if (next == null) {
          reads.startAll(plan.due());
        } else {
          reads.took(next);
        }
      }
      complete = true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading '" + layout.getKey() + "'", e);
    } finally {
      // From here on no read copies into the array: the slower ones stop at their next slice and
      // close their streams in their own threads; those that arrived unclaimed give their buffers
      // back here, later ones in their own thread.
      for (ByteBuffer unclaimed : window.finish()) {
        statistics.addDiscarded();
        pool.release(unclaimed);
      }
      if (!complete) {
        decoder.releaseAll(reads.staged);
      }
    }
    try {
      if (replicated) {
        if (!reads.inPlace[0]) {
          WindowDecoder.placeStaged(window, WindowDecoder.firstNonNull(reads.staged), 0);
        }
      } else {
        decoder.decodeMissing(window, scheme, reads.inPlace, reads.staged);
      }
    } finally {
      decoder.releaseAll(reads.staged);
    }
  }
}
