package io.eccache.client;

import alluxio.exception.status.DeadlineExceededException;
import alluxio.exception.status.UnavailableException;
import io.eccache.common.ClientKeys;
import io.eccache.common.ReadChoice;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import io.eccache.isal.ErasureCoder;
import io.eccache.isal.ReedSolomon;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.zip.CRC32C;

/**
 * EC-Cache's read (paper section 4.3): read k + Δ of the live splits in parallel, straight from the
 * workers that hold them; finish as soon as any k have arrived intact; decode only when a data
 * split is among the missing. A failed, corrupt (CRC32C per cell) or slow split costs only its
 * share: another one takes its place. Which k + Δ are read is the {@link ReadChoice}: uniformly at
 * random as in the paper, or the data splits first.
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
 * for its worker all the same (the hint wrong), the window being done makes it unwanted and the
 * {@link ReadWatchdog} ends it once its worker has been silent for the quiet time. A data split
 * whose cell fails its CRC after part of it was written counts as missing, and the decoder
 * overwrites its place.
 *
 * <p>The reads not needed are not cancelled at once: each stops before its next read (a chunk's
 * first bytes or a 128 KiB slice, or the rest of a chunk its stream already holds), counted in
 * {@code EcCacheSplitReadsStoppedEarly} and its rest as unread bytes; one that arrived whole but
 * too late is counted in {@code EcCacheSplitReadsDiscarded}. One whose worker sends
 * nothing (hung) never reaches its next slice: the {@link ReadWatchdog} interrupts it once that
 * worker has been silent for a tenth of the I/O timeout (at most 1 s), counted as stopped early
 * too, so it does not hold its I/O thread for the whole timeout. Alluxio's block stream sends
 * ahead of the reader, so a stopped read saves the client's copying, not the link's bytes: the extra
 * bytes on the links are about Δ/k of the object, as in the paper.
 */
final class LateBindingReader {
  /** The most read at a time from the network, between the checks whether it is still wanted. */
  private static final int SLICE = 128 << 10;
  /** Data-first: by default, the least a late data split is waited for once k arrived. */
  private static final long MIN_GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[SLICE]);

  private final SplitSource source;
  private final ExecutorService io;
  private final DirectBufferPool pool;
  private final ReadStatistics statistics;
  /** The longest wait for the next split to arrive before the ones in flight count as failed. */
  private final long timeoutMs;
  private final ReadChoice choice;

  /** Data-first: the least a late data split is waited for once k splits arrived. */
  private final long minGraceNanos;
  /**
   * Bounds each split read at {@link #timeoutMs}, and lets a GET that needs one read make it on
   * its own thread; null (tests): reads unbounded but for the reader's wait, all on {@link #io}.
   */
  private final ReadWatchdog watchdog;

  LateBindingReader(ClientContext context) {
    this(new AlluxioSplitSource(context::splitReads, context.fs().getConf(),
        context.statistics()), context.io(),
        context.readWatchdog(), context.pool(), context.statistics(), context.ioTimeoutMs(),
        context.readChoice(), MIN_GRACE_NANOS);
  }

  LateBindingReader(SplitSource source, ExecutorService io, ReadWatchdog watchdog,
      DirectBufferPool pool, ReadStatistics statistics, long timeoutMs, ReadChoice choice,
      long minGraceNanos) {
    this.source = source;
    this.io = io;
    this.watchdog = watchdog;
    this.pool = pool;
    this.statistics = statistics;
    this.timeoutMs = timeoutMs;
    this.choice = choice;
    this.minGraceNanos = minGraceNanos;
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

  /**
   * Reads stripes {@code [from, to)} of the object {@code lookup} describes into {@code target}:
   * the object's byte at {@code objectOffset(from) + i} lands at {@code target[offset + i]}, for
   * every byte of those stripes inside the object (not the last stripe's padding). Nothing writes
   * into {@code target} after this returns or throws.
   *
   * @throws UnavailableException when fewer than k splits could be read
   */
  void read(LookupResponse lookup, int delta, int from, int to, byte[] target, int offset)
      throws IOException {
    Layout layout = lookup.getLayout();
    StripeGeometry geometry = StripeGeometry.of(layout);
    RedundancyScheme scheme = SchemeProtos.of(layout);
    int k = scheme.dataSplits();
    int n = scheme.splits();
    boolean replicated = scheme.kind() == RedundancyScheme.Kind.REPLICATED;
    Window window = new Window(layout, geometry, from, to, target, offset);
    if (window.objectBytes > target.length - (long) offset) {
      throw new IllegalArgumentException("stripes [" + from + ", " + to + ") hold "
          + window.objectBytes + " object bytes; the array has " + (target.length - offset));
    }
    List<Split> candidates = candidates(lookup, k, replicated);
    if (candidates.size() < k) {
      throw new UnavailableException("only " + candidates.size() + " of " + n + " splits of '"
          + layout.getKey() + "' are on live workers and k = " + k + " are needed");
    }
    CompletionService<Arrived> arrivals = new ExecutorCompletionService<>(io);
    // The reads still counted on, with the split each reads; a read given up on (silent past the
    // timeout) is not, though its bytes are used if they do arrive.
    Map<Future<Arrived>, Integer> waiting = new IdentityHashMap<>();
    // Whether a read copying into the array was started for each data position: only one may (a
    // replicated object's later copies are staged), so no two reads write the same bytes.
    boolean[] placed = new boolean[k];
    // Hedged: only the k data splits up front; the Δ extra reads wait until one of them is late.
    boolean hedged = choice == ReadChoice.HEDGED && !replicated;
    int hedges = hedged ? delta : 0;
    long hedgeAt = 0; // when the Δ extra reads start if the last data split has not arrived
    int launched = 0;
    boolean[] inPlace = new boolean[k];
    ByteBuffer[] staged = new ByteBuffer[n];
    int arrived = 0;
    List<String> failures = new ArrayList<>();
    boolean timedOut = false; // a read ended by the watchdog is among the failures
    long began = System.nanoTime();
    int first = Math.min(hedged ? k : k + delta, candidates.size());
    Split only = candidates.get(0);
    int onlyPosition = replicated ? 0 : only.getIndex();
    if (first == 1 && watchdog != null && onlyPosition < k) {
      // One read is all this GET asks for: made here, straight into the array, no hand-off.
      launched = 1;
      placed[onlyPosition] = true;
      try {
        watchdog.call(() -> readInPlace(only, onlyPosition, window, true,
            ReadWatchdog.Progress.NONE), timeoutMs, () -> "reading split " + only.getPath());
        inPlace[onlyPosition] = true;
        arrived = 1;
        ClientMetrics.SPLITS_READ.inc();
      } catch (RejectedExecutionException closed) {
        placed[onlyPosition] = false; // the client is closing: the I/O path says so
        launched = 0;
      } catch (Exception e) {
        failures.add(String.valueOf(e));
        ClientMetrics.READS_FAILED.inc();
        timedOut |= e instanceof DeadlineExceededException;
        first = Math.min(2, candidates.size()); // the next candidate takes its place, if any
      }
    }
    for (; launched < first; launched++) {
      launch(arrivals, waiting, candidates.get(launched), window, placed, replicated);
    }
    long graceEnds = 0; // data-first: when the k-th arrival stops waiting for a data split
    try {
      while (arrived < k || graceEnds != 0 && waitForData(waiting, k, replicated, graceEnds)) {
        if (waiting.isEmpty()) {
          if (timedOut) { // as when the wait below runs out: the same typed error
            throw noSplitLeft(layout.getKey(), failures, arrived, k);
          }
          throw new UnavailableException("could read only " + arrived + " of the k = " + k
              + " splits needed for '" + layout.getKey() + "': " + failures);
        }
        long waitNanos = arrived < k ? TimeUnit.MILLISECONDS.toNanos(timeoutMs)
            : graceEnds - System.nanoTime();
        if (hedgeAt != 0) {
          waitNanos = Math.min(waitNanos, hedgeAt - System.nanoTime());
        }
        Future<Arrived> next = arrivals.poll(waitNanos, TimeUnit.NANOSECONDS);
        if (next == null && arrived >= k) {
          break; // the data split is late: decode it
        }
        if (next == null && hedgeAt != 0 && System.nanoTime() - hedgeAt >= 0) {
          // The last data split is late: the Δ extra reads start now, once; the read still waits
          // at most the timeout from here for the next arrival.
          int extra = Math.min(hedges, candidates.size() - launched);
          for (int i = 0; i < extra; i++) {
            launch(arrivals, waiting, candidates.get(launched++), window, placed, replicated);
          }
          statistics.addHedge();
          hedges = 0;
          hedgeAt = 0;
          continue;
        }
        if (next == null) {
          // Nothing arrived in time: the reads in flight count as failed (they stop at their next
          // slice or when Alluxio's own stream timeout ends them); untried splits take their place.
          int silent = waiting.size();
          failures.add(silent + " split read(s) gave no answer in " + timeoutMs + " ms");
          int replacements = Math.min(silent, candidates.size() - launched);
          if (replacements == 0) {
            throw noSplitLeft(layout.getKey(),
                silent + " split read(s) gave no answer in " + timeoutMs + " ms", arrived, k);
          }
          waiting.clear(); // the silent ones are given up on
          for (int i = 0; i < replacements; i++) {
            launch(arrivals, waiting, candidates.get(launched++), window, placed, replicated);
          }
          continue;
        }
        boolean counted = waiting.remove(next) != null;
        try {
          Arrived a = next.get();
          if (a.staged == null) {
            inPlace[replicated ? 0 : a.index] = true;
          } else {
            window.claim(a.staged);
            staged[a.index] = a.staged;
          }
          arrived++;
          ClientMetrics.SPLITS_READ.inc();
          if (hedges > 0 && arrived == k - 1 && launched < candidates.size()) {
            // A quarter of the time the k - 1 took, as data-first's grace, for the last one.
            long now = System.nanoTime();
            hedgeAt = now + Math.max(minGraceNanos, (now - began) / 4);
          }
          if (arrived == k && choice == ReadChoice.DATA_FIRST && !replicated) {
            // A parity came before a data split that is still on its way: give that one a
            // quarter of the time the read took so far before decoding instead.
            long now = System.nanoTime();
            graceEnds = now + Math.max(minGraceNanos, (now - began) / 4);
          }
        } catch (ExecutionException e) {
          failures.add(String.valueOf(e.getCause()));
          timedOut |= e.getCause() instanceof DeadlineExceededException;
          ClientMetrics.READS_FAILED.inc();
          // Late binding's second chance: a split not yet asked for replaces the failed one.
          if (counted && arrived < k && launched < candidates.size()) {
            launch(arrivals, waiting, candidates.get(launched++), window, placed, replicated);
          }
        }
      }
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
      if (arrived < k) {
        releaseAll(staged);
      }
    }
    try {
      if (replicated) {
        if (!inPlace[0]) {
          placeStaged(window, firstNonNull(staged), 0);
        }
      } else {
        decodeMissing(window, scheme, inPlace, staged);
      }
    } finally {
      releaseAll(staged);
    }
  }

  /** A GET that timed out on {@code what} with no split left to try in its place. */
  private static DeadlineExceededException noSplitLeft(String key, Object what, int arrived,
      int k) {
    return new DeadlineExceededException("reading '" + key + "': " + what + " ("
        + ClientKeys.IO_TIMEOUT.getName() + ") and no other split is left to try; " + arrived
        + " of k = " + k + " arrived. Check the workers holding its splits, then GET it again");
  }

  /** The live splits to read, in the order they are asked for. */
  private List<Split> candidates(LookupResponse lookup, int k, boolean replicated) {
    if (lookup.getLayout().getSplitPathsCount() > 0) {
      return regionalCandidates(lookup);
    }
    List<Split> data = new ArrayList<>();
    List<Split> parities = new ArrayList<>();
    for (Split s : lookup.getSplitsList()) {
      if (s.getLive() && s.hasStatus()) {
        (s.getIndex() < k || replicated ? data : parities).add(s);
      }
    }
    ThreadLocalRandom random = ThreadLocalRandom.current();
    if (choice != ReadChoice.RANDOM && !replicated) {
      Collections.shuffle(data, random);
      Collections.shuffle(parities, random);
      data.addAll(parities);
      return data;
    }
    data.addAll(parities);
    Collections.shuffle(data, random);
    return data;
  }

  /**
   * A regional object's splits (Agar): those a live worker caches first, in random order, then the
   * others from their regions, nearest first (ties by index), so the k read are the cached ones and
   * the nearest of the rest, and a failed read is replaced by the next nearest.
   */
  private static List<Split> regionalCandidates(LookupResponse lookup) {
    List<Split> cached = new ArrayList<>();
    List<Split> regional = new ArrayList<>();
    for (Split s : lookup.getSplitsList()) {
      if (s.hasStatus()) {
        (s.getLive() ? cached : regional).add(s);
      }
    }
    Collections.shuffle(cached, ThreadLocalRandom.current());
    regional.sort(java.util.Comparator.comparingLong(Split::getRegionLatencyMicros)
        .thenComparingInt(Split::getIndex));
    cached.addAll(regional);
    return cached;
  }

  private static ByteBuffer firstNonNull(ByteBuffer[] buffers) {
    for (ByteBuffer b : buffers) {
      if (b != null) {
        return b;
      }
    }
    throw new IllegalStateException("no split arrived");
  }

  private void releaseAll(ByteBuffer[] buffers) {
    for (int i = 0; i < buffers.length; i++) {
      pool.release(buffers[i]);
      buffers[i] = null;
    }
  }

  /**
   * One window of stripes being read: where its bytes go, and the hand-over of what arrives. A
   * staged read that arrives while the window still wants splits is {@link #offer offered} and stays
   * the window's until claimed or {@link #finish() finished}; one that arrives later gives its buffer
   * back itself. Copies into the array hold the read lock and happen only while the window is open.
   */
  private static final class Window {
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

    Window(Layout layout, StripeGeometry geometry, int from, int to, byte[] target, int offset) {
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
     * Wants no more splits: waits for copies in progress, so none touches the array afterwards,
     * and returns the staged buffers offered and not claimed. Done is set first, so a read into the
     * array that waits for its worker meanwhile counts as unwanted to the watchdog.
     */
    List<ByteBuffer> finish() {
      done = true;
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

  private void launch(CompletionService<Arrived> arrivals, Map<Future<Arrived>, Integer> waiting,
      Split split, Window window, boolean[] placed, boolean replicated) {
    int k = placed.length;
    int position = replicated ? 0 : split.getIndex();
    boolean inPlace = position < k && !placed[position];
    if (inPlace) {
      placed[position] = true;
    }
    ReadWatchdog.WatchedRead<Arrived> read = progress -> {
      if (window.done()) {
        // Queued behind other reads until the GET had its k: no buffer taken, no worker asked.
        throw new IOException("not begun: k splits arrived first");
      }
      return inPlace
          ? new Arrived(split.getIndex(), readInPlace(split, position, window, false, progress))
          : new Arrived(split.getIndex(), readStaged(split, window, progress));
    };
    // Bounded on the I/O thread too: a read of a hung worker would hold its thread until Alluxio's
    // own stream timeout, long after this GET gave up on it or stopped needing it.
    waiting.put(arrivals.submit(watchdog == null ? () -> read.call(ReadWatchdog.Progress.NONE)
        : () -> {
          try {
            return watchdog.call(read, timeoutMs, () -> "reading split " + split.getPath(),
                window::done);
          } catch (ReadWatchdog.AbandonedException e) {
            ClientMetrics.READS_STOPPED_EARLY.inc();
            throw e;
          }
        }), split.getIndex());
  }

  /**
   * Data-first, after the k-th arrival: whether to wait on, because a data split is still being
   * read and its grace has not run out. Either way the window has its k.
   */
  private static boolean waitForData(Map<Future<Arrived>, Integer> waiting, int k,
      boolean replicated, long graceEnds) {
    if (replicated || System.nanoTime() >= graceEnds) {
      return false;
    }
    for (int index : waiting.values()) {
      if (index < k) {
        return true;
      }
    }
    return false;
  }

  /**
   * Reads a data split's range into its place in the array, checking each cell's CRC32C; returns
   * null (nothing staged). On the GET's own thread ({@code callerThread}) every byte is read
   * straight into the array, since the window cannot finish while it reads. On an I/O thread, which
   * can outlive the window, the bytes the stream already holds are read straight in, under the
   * window's lock; a read that may wait for the worker goes into a slice of the thread's own
   * first, copied in under the lock.
   */
  private ByteBuffer readInPlace(Split split, int position, Window window, boolean callerThread,
      ReadWatchdog.Progress progress) throws IOException {
    StripeGeometry g = window.geometry;
    byte[] slice = SCRATCH.get(); // on the GET's own thread, only for the last cell's padding
    CRC32C crc = new CRC32C();
    try (SplitSource.SplitStream in = open(split, g.splitOffset(window.from), progress)) {
      long left = window.splitBytes;
      for (int s = window.from; s < window.to; s++) {
        long cell = g.cellLength(s);
        crc.reset();
        for (long inCell = 0; inCell < cell; ) {
          stopIfDone(split, window, left);
          int want = (int) Math.min(SLICE, cell - inCell);
          int n;
          int held = callerThread ? 0 : (int) Math.min(in.buffered(), cell - inCell);
          if (held > 0 && window.objectBytesAt(s, position, inCell, held) == held) {
            n = window.readInto(in, s, position, inCell, held, crc);
            if (n == Window.CLOSED) {
              stopIfDone(split, window, left);
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
                stopIfDone(split, window, left);
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
    }
  }

  /**
   * Reads a split's range into a pooled buffer, checking each cell's CRC32C; the buffer goes back
   * to the pool if the read fails or arrives after the window stopped wanting it.
   */
  private ByteBuffer readStaged(Split split, Window window, ReadWatchdog.Progress progress)
      throws IOException {
    StripeGeometry g = window.geometry;
    ByteBuffer buffer = pool.acquire(window.splitBytes);
    byte[] slice = SCRATCH.get();
    CRC32C crc = new CRC32C();
    boolean handed = false;
    try (SplitSource.SplitStream in = open(split, g.splitOffset(window.from), progress)) {
      long left = window.splitBytes;
      int at = 0;
      for (int s = window.from; s < window.to; s++) {
        int cell = (int) g.cellLength(s);
        crc.reset();
        for (int inCell = 0; inCell < cell; ) {
          stopIfDone(split, window, left);
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
    } finally {
      if (!handed) {
        pool.release(buffer);
      }
    }
  }

  /** Opens a split, telling {@code progress} of every byte that arrives and of the close. */
  private SplitSource.SplitStream open(Split split, long offset, ReadWatchdog.Progress progress)
      throws IOException {
    SplitSource.SplitStream in = source.open(split, offset);
    if (progress == ReadWatchdog.Progress.NONE) {
      return in;
    }
    return new SplitSource.SplitStream() {
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
      public void close() throws IOException {
        progress.closing();
        in.close();
      }
    };
  }

  /** Ends a read the window no longer wants, counting the rest of its range as unread. */
  private void stopIfDone(Split split, Window window, long left) throws IOException {
    if (window.done()) {
      ClientMetrics.READS_STOPPED_EARLY.inc();
      statistics.addUnread(split.getWorker().getHost(), left);
      throw new IOException("stopped part-way: k splits arrived first");
    }
  }

  private static IOException ended(Split split, long at) {
    return new IOException("split " + split.getPath() + " ended at byte " + at);
  }

  private static void checkCrc(Split split, Window window, int stripe, int crc)
      throws IOException {
    int expected = window.layout.getCrc32C(window.geometry.checksumIndex(split.getIndex(), stripe));
    if (crc != expected) {
      throw new IOException("split " + split.getPath() + " is corrupt in stripe " + stripe
          + " (CRC32C " + Integer.toHexString(crc) + ", expected " + Integer.toHexString(expected)
          + ")");
    }
  }

  /** A replicated object's copy that was staged: its object bytes into the array. */
  private static void placeStaged(Window window, ByteBuffer copy, int position) {
    copy.duplicate().position(0)
        .get(window.target, window.offset, (int) window.objectBytes);
  }

  /**
   * Rebuilds the data splits not in place, stripe by stripe, from the k that arrived. The coder
   * takes heap buffers: a data cell wholly inside the object is read where it lies in the array, and
   * a rebuilt one is written straight into its place. Only cells the object ends in or after (the
   * last stripe's zero padding, as the writer coded it) go through pooled cells: inputs copied and
   * zero-padded, outputs copied into the array for their object bytes. Runs after the window
   * finished, so no split read writes into the array meanwhile.
   */
  private void decodeMissing(Window window, RedundancyScheme scheme, boolean[] inPlace,
      ByteBuffer[] staged) {
    int k = scheme.dataSplits();
    int n = scheme.splits();
    List<Integer> missing = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      if (!inPlace[i]) {
        missing.add(i);
      }
    }
    if (missing.isEmpty()) {
      return;
    }
    long began = System.nanoTime();
    int[] erased = missing.stream().mapToInt(Integer::intValue).toArray();
    StripeGeometry g = window.geometry;
    // Pooled cells for the cells that are not wholly object bytes, taken when first needed: data
    // inputs by position, outputs by their index in erased.
    ByteBuffer[] padded = new ByteBuffer[k];
    ByteBuffer[] outputs = new ByteBuffer[erased.length];
    try {
      ErasureCoder coder = ReedSolomon.coder(k, scheme.paritySplits());
      long start = g.splitOffset(window.from);
      for (int s = window.from; s < window.to; s++) {
        int cell = (int) g.cellLength(s);
        int at = (int) (g.splitOffset(s) - start);
        ByteBuffer[] in = new ByteBuffer[n];
        for (int i = 0; i < n; i++) {
          if (i < k && inPlace[i]) {
            int object = window.objectBytesAt(s, i, 0, cell);
            if (object == cell) {
              in[i] = ByteBuffer.wrap(window.target, window.arrayIndex(s, i, 0), cell);
              continue;
            }
            in[i] = pooledCell(padded, i, cell);
            if (object > 0) {
              in[i].duplicate().put(window.target, window.arrayIndex(s, i, 0), object);
            }
            for (int p = object; p < cell; p++) {
              in[i].put(p, (byte) 0);
            }
          } else if (staged[i] != null) {
            in[i] = staged[i].duplicate().limit(at + cell).position(at);
          }
        }
        ByteBuffer[] out = new ByteBuffer[erased.length];
        for (int i = 0; i < erased.length; i++) {
          out[i] = window.objectBytesAt(s, erased[i], 0, cell) == cell
              ? ByteBuffer.wrap(window.target, window.arrayIndex(s, erased[i], 0), cell)
              : pooledCell(outputs, i, cell);
        }
        coder.decode(in, erased, out);
        for (int i = 0; i < erased.length; i++) {
          int object = window.objectBytesAt(s, erased[i], 0, cell);
          if (object > 0 && object < cell) {
            out[i].duplicate().get(window.target, window.arrayIndex(s, erased[i], 0), object);
          }
        }
      }
    } finally {
      releaseAll(padded);
      releaseAll(outputs);
    }
    statistics.addDecode(System.nanoTime() - began);
  }

  /** {@code held[i]} as a cell of {@code cell} bytes, taken from the pool if it has none yet. */
  private ByteBuffer pooledCell(ByteBuffer[] held, int i, int cell) {
    if (held[i] == null || held[i].capacity() < cell) {
      pool.release(held[i]);
      held[i] = null;
      held[i] = pool.acquire(cell);
    }
    return held[i].clear().limit(cell);
  }
}
