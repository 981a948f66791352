package io.eccache.client;

import alluxio.exception.status.DeadlineExceededException;
import java.util.concurrent.Callable;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Split reads made on the GET's own thread, for a GET that needs exactly one (a replicated object
 * is read from one copy): handing it to an I/O thread and waiting for the answer cost a 64 KiB GET
 * about 0.1 ms here, a sixth of its time.
 *
 * <p>Bounded as a read on an I/O thread is: a watchdog interrupts the thread when the read has not
 * ended within the I/O timeout. Alluxio's block stream waits for the worker's next message in an
 * interruptible poll, so the read then fails at once (and its stream's close does not wait
 * either); the caller gets a {@link DeadlineExceededException} and tries another split. The
 * watchdog's interrupt is cleared before {@link #call} returns, so the caller's thread never sees
 * it; an interrupt of the caller's own is kept. Reads in progress are counted, so closing the
 * client waits for them as for its I/O threads (they hold Alluxio worker clients).
 */
final class CallerThreadReads implements AutoCloseable {
  private static final int RUNNING = 0;
  private static final int ENDED = 1;
  private static final int INTERRUPTING = 2;
  private static final int INTERRUPTED = 3;

  private final ScheduledExecutorService watchdogs;
  private final AtomicInteger running = new AtomicInteger();

  CallerThreadReads() {
    ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "eccache-read-watchdog");
      t.setDaemon(true);
      return t;
    });
    timer.setRemoveOnCancelPolicy(true); // a GET's watchdog is cancelled almost always
    this.watchdogs = timer;
  }

  /**
   * Runs {@code read} on this thread, for at most {@code timeoutMs}.
   *
   * @throws DeadlineExceededException if it had not ended by then (its own failure the cause)
   * @throws java.util.concurrent.RejectedExecutionException if the client is closed (nothing ran)
   * @throws Exception what {@code read} threw
   */
  <T> T call(Callable<T> read, long timeoutMs, String what) throws Exception {
    Thread caller = Thread.currentThread();
    AtomicInteger state = new AtomicInteger(RUNNING);
    ScheduledFuture<?> watchdog = watchdogs.schedule(() -> {
      if (state.compareAndSet(RUNNING, INTERRUPTING)) {
        caller.interrupt();
        state.set(INTERRUPTED);
      }
    }, timeoutMs, TimeUnit.MILLISECONDS);
    running.incrementAndGet();
    T result = null;
    Exception failure = null;
    try {
      result = read.call();
    } catch (Exception e) {
      failure = e;
    } finally {
      running.decrementAndGet();
    }
    boolean fired = !state.compareAndSet(RUNNING, ENDED);
    if (fired) {
      while (state.get() != INTERRUPTED) {
        Thread.onSpinWait(); // the watchdog is between its two steps: a few instructions
      }
      Thread.interrupted(); // the watchdog's interrupt, not the caller's
    } else {
      watchdog.cancel(false);
    }
    if (failure == null) {
      return result; // ended just as the watchdog fired: the bytes are whole and checked
    }
    if (fired) {
      throw new DeadlineExceededException(what + " gave no answer in " + timeoutMs + " ms",
          failure);
    }
    throw failure;
  }

  /** Reads in progress on callers' threads. */
  int running() {
    return running.get();
  }

  /** Refuses reads started after this; those running keep their watchdogs. */
  @Override
  public void close() {
    watchdogs.shutdown(); // delayed tasks still run after shutdown (the executor's default)
  }
}
