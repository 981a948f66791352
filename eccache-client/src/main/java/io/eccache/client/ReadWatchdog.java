package io.eccache.client;

import alluxio.exception.status.DeadlineExceededException;
import com.google.common.base.Ticker;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Bounds every split read a client makes, on whichever thread makes it: an I/O thread, or the
 * GET's own thread for a GET that needs exactly one read (a replicated object is read from one
 * copy: handing that read to an I/O thread and waiting for the answer cost a 64 KiB GET about a
 * sixth of its time).
 *
 * <p>A read that has not ended within the I/O timeout is interrupted. Alluxio's block stream waits
 * for the worker's next message in an interruptible poll, so the read then fails at once (and its
 * stream's close does not wait either); the caller gets a {@link DeadlineExceededException}. Without
 * this, a read of a worker that is hung (its sockets open, nothing answering) held its I/O thread
 * until Alluxio's own stream timeout (minutes): a few GETs that asked such a worker left the client
 * no I/O thread, and every GET failed ({@code CrashTest}). The watchdog's interrupt is cleared
 * before {@link #call} returns, so the thread never sees it; an interrupt of the thread's own is
 * kept.
 *
 * <p>The watchdog is one thread that sweeps the reads in progress every {@code tick}, so a read
 * registers and unregisters in a concurrent set and wakes no thread (scheduling and cancelling a
 * timer task per read took 4% of a small GET's CPU in a profile, and a wake-up of the timer's
 * thread each time). A read is therefore interrupted between its timeout and its timeout plus one
 * tick. Reads in progress are counted, so closing the client waits for them (they hold Alluxio
 * worker clients); the watchdog keeps sweeping until the last one has ended.
 *
 * <p>A read its GET no longer wants (k splits arrived without it) is also interrupted, well before
 * its timeout, once its worker has sent nothing for {@link #quietFor a tenth of the timeout, at
 * most 1 s}: a late-binding extra read of a hung worker otherwise held its I/O thread for the
 * whole timeout, and a burst of GETs within one timeout could hold every thread. A healthy unwanted
 * read stops by itself at its next slice long before that, and one closing its stream is left to
 * close, so a read is interrupted early only when its worker is silent: interrupting reads that were
 * merely late (an earlier version interrupted every unwanted read still running 1 s after its GET)
 * went with PUTs stalling on the same workers.
 */
final class ReadWatchdog implements AutoCloseable {
  private static final int RUNNING = 0;
  private static final int ENDED = 1;
  private static final int INTERRUPTING = 2;
  private static final int INTERRUPTED = 3;

  private final Ticker ticker;
  private final long tickMs;
  /** How long an unwanted read's worker may send nothing before the read is interrupted. */
  private final long quietNanos;
  private final AtomicLong abandoned = new AtomicLong();
  private final AtomicLong timedOut = new AtomicLong();
  private final Set<Read> running = ConcurrentHashMap.newKeySet();
  private final ScheduledThreadPoolExecutor watchdog;
  private final AtomicBoolean started = new AtomicBoolean();
  private volatile boolean closed;

  /** What a read tells its watchdog as it goes, so a silent worker can be told from a slow one. */
  interface Progress {
    /** Bytes arrived. */
    void advanced();

    /** The read is closing its stream: from now on it is ended only by its deadline. */
    void closing();

    /** For reads no watchdog looks at. */
    Progress NONE = new Progress() {
      @Override
      public void advanced() {}

      @Override
      public void closing() {}
    };
  }

  /** A read that reports its {@link Progress}. */
  @FunctionalInterface
  interface WatchedRead<T> {
    T call(Progress progress) throws Exception;
  }

  /** Thrown by a read interrupted because it was no longer wanted and its worker was silent. */
  static final class AbandonedException extends IOException {
    AbandonedException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** One read in progress: its thread, its deadline and whether the watchdog has fired. */
  private static final class Read implements Progress {
    final Thread thread = Thread.currentThread();
    final long deadline;
    /** Whether the read is still wanted; null: always (a read on the GET's own thread). */
    final BooleanSupplier unwanted;
    final AtomicInteger state = new AtomicInteger(RUNNING);
    /** Bumped by the reading thread as bytes arrive. */
    volatile int progress;
    volatile boolean closing;
    /** Set before the interrupt: why the watchdog fired. */
    volatile boolean abandon;
    // The sweeper's own: the progress it last saw, and since when it has seen no other.
    int seenProgress;
    long quietSince;

    Read(long began, long deadline, BooleanSupplier unwanted) {
      this.deadline = deadline;
      this.unwanted = unwanted;
      this.quietSince = began;
    }

    @Override
    public void advanced() {
      progress++; // only the reading thread writes it
    }

    @Override
    public void closing() {
      closing = true;
    }
  }

  /**
   * @param tickMs how often the watchdog looks at the reads in progress: how late past its timeout
   *     a read may be interrupted
   * @param quietMs how long an unwanted read's worker may send nothing before it is interrupted
   */
  ReadWatchdog(long tickMs, long quietMs) {
    this(Ticker.systemTicker(), tickMs, quietMs);
  }

  /**
   * As {@link #ReadWatchdog(long, long)}, with deadlines and quiet times read on {@code ticker}
   * (a test's clock; the sweep still runs every {@code tickMs} of real time, and {@link #sweep}
   * can be run by the test itself).
   */
  ReadWatchdog(Ticker ticker, long tickMs, long quietMs) {
    this.ticker = ticker;
    if (tickMs < 1) {
      throw new IllegalArgumentException("the watchdog's tick must be at least 1 ms, not " + tickMs);
    }
    this.tickMs = tickMs;
    this.quietNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(tickMs, quietMs));
    this.watchdog = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "eccache-read-watchdog");
      t.setDaemon(true);
      return t;
    });
    // Reads running when the client closes keep their watchdog: it stops itself after them.
    watchdog.setContinueExistingPeriodicTasksAfterShutdownPolicy(true);
  }

  /** The tick for reads bounded by {@code timeoutMs}: a tenth of it, between 1 and 100 ms. */
  static long tickFor(long timeoutMs) {
    return Math.max(1, Math.min(100, timeoutMs / 10));
  }

  /**
   * How long an unwanted read's worker may be silent, for reads bounded by {@code timeoutMs}: a
   * tenth of it, between one tick and 1 s.
   */
  static long quietFor(long timeoutMs) {
    return Math.max(tickFor(timeoutMs), Math.min(1000, timeoutMs / 10));
  }

  /**
   * Runs {@code read} on this thread, for at most {@code timeoutMs} (plus up to one tick) from now.
   * {@code what} names the read in the timeout's message, built only then (reads are a hot path).
   *
   * @throws DeadlineExceededException if it had not ended by then (its own failure the cause)
   * @throws RejectedExecutionException if the client is closed (nothing ran)
   * @throws Exception what {@code read} threw
   */
  <T> T call(Callable<T> read, long timeoutMs, Supplier<String> what) throws Exception {
    return call(progress -> read.call(), timeoutMs, what, null);
  }

  /**
   * As {@link #call(Callable, long, Supplier)}, and once {@code unwanted} says the read is no longer
   * needed, interrupted as soon as it has reported no {@link Progress} for the quiet time (unless
   * it is closing).
   *
   * @throws AbandonedException if it was interrupted so (its own failure the cause)
   */
  <T> T call(WatchedRead<T> read, long timeoutMs, Supplier<String> what,
      BooleanSupplier unwanted) throws Exception {
    long began = ticker.read();
    Read r = new Read(began, began + TimeUnit.MILLISECONDS.toNanos(timeoutMs), unwanted);
    running.add(r);
    if (closed) { // read after the add: a close either sees this read or is seen here
      running.remove(r);
      throw new RejectedExecutionException("the client is closed");
    }
    if (!started.get() && started.compareAndSet(false, true)) {
      try {
        watchdog.scheduleWithFixedDelay(this::sweep, tickMs, tickMs, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException closing) { // closed since the check above
        running.remove(r);
        throw closing;
      }
    }
    T result = null;
    Exception failure = null;
    try {
      result = read.call(r);
    } catch (Exception e) {
      failure = e;
    } finally {
      running.remove(r);
    }
    boolean fired = !r.state.compareAndSet(RUNNING, ENDED);
    if (fired) {
      while (r.state.get() != INTERRUPTED) {
        Thread.onSpinWait(); // the watchdog is between its two steps: a few instructions
      }
      Thread.interrupted(); // the watchdog's interrupt, not the caller's
    }
    if (failure == null) {
      return result; // ended just as the watchdog fired: the bytes are whole and checked
    }
    if (fired && r.abandon) {
      throw new AbandonedException(what.get() + " was no longer wanted and its worker sent nothing"
          + " for " + TimeUnit.NANOSECONDS.toMillis(quietNanos) + " ms: interrupted", failure);
    }
    if (fired) {
      throw new DeadlineExceededException(what.get() + " gave no answer in " + timeoutMs + " ms",
          failure);
    }
    throw failure;
  }

  /**
   * Interrupts the reads past their deadline, and the unwanted ones gone quiet; after
   * {@link #close()}, stops once none runs. Runs on the watchdog's thread every tick (and on a
   * test's, which moves its clock and sweeps): one sweep at a time.
   */
  synchronized void sweep() {
    long now = ticker.read();
    for (Read r : running) {
      int progress = r.progress;
      if (progress != r.seenProgress) {
        r.seenProgress = progress;
        r.quietSince = now;
      }
      boolean late = now - r.deadline >= 0;
      boolean abandon = !late && r.unwanted != null && !r.closing
          && now - r.quietSince >= quietNanos && r.unwanted.getAsBoolean();
      if ((late || abandon) && r.state.compareAndSet(RUNNING, INTERRUPTING)) {
        r.abandon = abandon;
        (abandon ? abandoned : timedOut).incrementAndGet();
        r.thread.interrupt();
        r.state.set(INTERRUPTED);
      }
    }
    if (closed && running.isEmpty()) {
      watchdog.shutdownNow();
    }
  }

  /** Reads in progress. */
  int running() {
    return running.size();
  }

  /** Reads interrupted at their deadline. */
  long timedOut() {
    return timedOut.get();
  }

  /** Reads interrupted because they were no longer wanted and their worker was silent. */
  long abandoned() {
    return abandoned.get();
  }

  /** Refuses reads started after this; those running keep their watchdog until they end. */
  @Override
  public void close() {
    closed = true;
    watchdog.shutdown(); // the periodic sweep goes on (the policy above) until it stops itself
    if (!started.get()) {
      watchdog.shutdownNow();
    }
  }
}
