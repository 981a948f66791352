package io.eccache.client;

import alluxio.exception.status.DeadlineExceededException;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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
 */
final class ReadWatchdog implements AutoCloseable {
  private static final int RUNNING = 0;
  private static final int ENDED = 1;
  private static final int INTERRUPTING = 2;
  private static final int INTERRUPTED = 3;

  private final long tickMs;
  private final Set<Read> running = ConcurrentHashMap.newKeySet();
  private final ScheduledThreadPoolExecutor watchdog;
  private final AtomicBoolean started = new AtomicBoolean();
  private volatile boolean closed;

  /** One read in progress: its thread, its deadline and whether the watchdog has fired. */
  private static final class Read {
    final Thread thread = Thread.currentThread();
    final long deadline;
    final AtomicInteger state = new AtomicInteger(RUNNING);

    Read(long deadline) {
      this.deadline = deadline;
    }
  }

  /**
   * @param tickMs how often the watchdog looks at the reads in progress: how late past its timeout
   *     a read may be interrupted
   */
  ReadWatchdog(long tickMs) {
    if (tickMs < 1) {
      throw new IllegalArgumentException("the watchdog's tick must be at least 1 ms, not " + tickMs);
    }
    this.tickMs = tickMs;
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
   * Runs {@code read} on this thread, for at most {@code timeoutMs} (plus up to one tick) from now.
   * {@code what} names the read in the timeout's message, built only then (reads are a hot path).
   *
   * @throws DeadlineExceededException if it had not ended by then (its own failure the cause)
   * @throws RejectedExecutionException if the client is closed (nothing ran)
   * @throws Exception what {@code read} threw
   */
  <T> T call(Callable<T> read, long timeoutMs, Supplier<String> what) throws Exception {
    Read r = new Read(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs));
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
      result = read.call();
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
    if (fired) {
      throw new DeadlineExceededException(what.get() + " gave no answer in " + timeoutMs + " ms",
          failure);
    }
    throw failure;
  }

  /** Interrupts the reads past their deadline; after {@link #close()}, stops once none runs. */
  private void sweep() {
    long now = System.nanoTime();
    for (Read r : running) {
      if (now - r.deadline >= 0 && r.state.compareAndSet(RUNNING, INTERRUPTING)) {
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
