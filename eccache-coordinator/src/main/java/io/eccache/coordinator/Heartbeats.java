package io.eccache.coordinator;

import alluxio.conf.Configuration;
import alluxio.heartbeat.FixedIntervalSupplier;
import alluxio.heartbeat.HeartbeatContext;
import alluxio.heartbeat.HeartbeatExecutor;
import alluxio.heartbeat.HeartbeatThread;
import alluxio.security.user.UserState;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * The coordinator's heartbeats, run by Alluxio's {@link HeartbeatThread} as its own masters run
 * theirs.
 *
 * <p>Alluxio 2.9.6's {@code HeartbeatThread} looks the timer class up by the heartbeat's name in
 * {@link HeartbeatContext}'s static map, which lists only Alluxio's own names (an unknown name fails
 * with a NullPointerException), and the only way to add one, {@code setTimerClass}, is package-private
 * and meant for Alluxio's tests. {@link #register} adds eccache's names with Alluxio's sleeping timer
 * through reflection, once, leaving a name that is already mapped (e.g. to a test's scheduled timer)
 * alone. For the same reason Alluxio's {@code ManuallyScheduleHeartbeat} (in its test jar) is of no
 * use here; tests run one pass synchronously through {@link CoordinatorMaster#retuner()} and
 * {@link CoordinatorMaster#sweep()} instead.
 */
final class Heartbeats {
  static final String RETUNE = "EcCache Retune";
  static final String SWEEP = "EcCache Namespace Sweep";
  static final String JOURNAL_WAKEUP = "EcCache Journal Wakeup";

  private Heartbeats() {}

  /**
   * Maps eccache's heartbeat names (its own and {@code formNames}, the storage forms') to Alluxio's
   * sleeping timer, unless they are mapped already.
   */
  static synchronized void register(List<String> formNames) {
    List<String> names = new ArrayList<>(List.of(RETUNE, SWEEP, JOURNAL_WAKEUP));
    names.addAll(formNames);
    for (String name : names) {
      if (HeartbeatContext.getTimerClass(name) != null) {
        continue;
      }
      try {
        Method set = HeartbeatContext.class.getDeclaredMethod("setTimerClass", String.class,
            Class.class);
        set.setAccessible(true);
        set.invoke(null, name, HeartbeatContext.SLEEPING_TIMER_CLASS);
      } catch (ReflectiveOperationException | RuntimeException e) {
        throw new IllegalStateException("cannot register the heartbeat '" + name + "' with"
            + " Alluxio's HeartbeatContext (not Alluxio 2.9?)", e);
      }
    }
  }

  /**
   * A heartbeat of {@code executor} every {@code intervalMs}, as {@code userState}'s user, the
   * first one interval after the start (Alluxio's timer runs the first at once, while the master
   * may still be in safe mode).
   */
  static HeartbeatThread thread(String name, HeartbeatExecutor executor, long intervalMs,
      UserState userState, ExecutorService pool) {
    return new HeartbeatThread(name, new AfterFirstInterval(executor, pool),
        () -> new FixedIntervalSupplier(intervalMs), Configuration.global(), userState);
  }

  /**
   * Skips the heartbeat Alluxio's sleeping timer runs right at the start, and ends the thread once
   * the master's executor is shut down even if a pass swallowed the interrupt that asked it to.
   */
  private static final class AfterFirstInterval implements HeartbeatExecutor {
    private final HeartbeatExecutor executor;
    private final ExecutorService pool;
    private boolean started;

    AfterFirstInterval(HeartbeatExecutor executor, ExecutorService pool) {
      this.executor = executor;
      this.pool = pool;
    }

    @Override
    public void heartbeat(long timeLimitMs) throws InterruptedException {
      if (pool.isShutdown()) {
        throw new InterruptedException("the master stopped");
      }
      if (started) {
        executor.heartbeat(timeLimitMs);
      }
      started = true;
    }

    @Override
    public void close() {
      executor.close();
    }
  }
}
