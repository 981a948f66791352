package io.eccache.testkit;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Ends a test JVM that has stopped making progress, after saying why. Every test module that has the
 * testkit on its class path registers it for every class (JUnit's extension autodetection, switched
 * on in the parent pom's surefire and failsafe settings). When one test, or one class's set-up or
 * tear-down, has run for longer than {@value #LIMIT_PROPERTY} (a {@link Duration}, default
 * {@link #DEFAULT_LIMIT}), it prints the stack of every thread with the locks each holds and waits
 * for, and the deadlocks the JVM finds, to stderr and to {@code target/hang-<time>.txt}, then halts
 * the JVM (its child processes first). Surefire reports the fork as crashed, and the run fails in
 * minutes with the dump that shows the cause, where a hung test would otherwise hold the build until
 * CI's own limit and leave nothing to go on. Timeouts inside the code under test are still what a
 * test asserts; this is only the net under them.
 */
public final class HangWatchdog
    implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
  /** The system property that sets the limit, e.g. {@code -Deccache.test.hang.limit=PT2M}. */
  public static final String LIMIT_PROPERTY = "eccache.test.hang.limit";
  /** Several times the slowest test's own bounded waits; far below CI's 90 minutes. */
  public static final Duration DEFAULT_LIMIT = Duration.ofMinutes(8);
  /** The exit status of a JVM this ended. */
  static final int HALT_STATUS = 86;

  private static final Object LOCK = new Object();
  private static ScheduledExecutorService checker;
  private static long since;
  private static String running = "nothing yet";

  @Override
  public void beforeAll(ExtensionContext context) {
    started(context.getDisplayName() + ": @BeforeAll and class extensions");
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    started(context.getRequiredTestClass().getName() + "." + context.getDisplayName());
  }

  @Override
  public void afterEach(ExtensionContext context) {
    started(context.getRequiredTestClass().getName() + ": after " + context.getDisplayName());
  }

  @Override
  public void afterAll(ExtensionContext context) {
    started(context.getDisplayName() + ": @AfterAll, class extensions and what runs next");
  }

  /** Marks the start of the step now running; starts the checker the first time. */
  static void started(String what) {
    synchronized (LOCK) {
      since = System.nanoTime();
      running = what;
      if (checker == null) {
        Duration limit = limit();
        checker = Executors.newSingleThreadScheduledExecutor(r -> {
          Thread t = new Thread(r, "eccache-hang-watchdog");
          t.setDaemon(true);
          return t;
        });
        long every = Math.max(1, Math.min(10, limit.toSeconds() / 10));
        checker.scheduleWithFixedDelay(() -> check(limit), every, every, TimeUnit.SECONDS);
      }
    }
  }

  static Duration limit() {
    String value = System.getProperty(LIMIT_PROPERTY);
    if (value == null || value.isBlank()) {
      return DEFAULT_LIMIT;
    }
    Duration limit = Duration.parse(value.trim());
    if (limit.isNegative() || limit.isZero()) {
      throw new IllegalArgumentException(LIMIT_PROPERTY + " must be positive, got " + value);
    }
    return limit;
  }

  private static void check(Duration limit) {
    String what;
    long ranNanos;
    synchronized (LOCK) {
      what = running;
      ranNanos = System.nanoTime() - since;
    }
    if (ranNanos < limit.toNanos()) {
      return;
    }
    String report = "eccache HangWatchdog: '" + what + "' has run for "
        + TimeUnit.NANOSECONDS.toSeconds(ranNanos) + " s, more than " + limit + " ("
        + LIMIT_PROPERTY + "): halting this JVM after the thread dump below. Find the wait that"
        + " never ends in it (a thread BLOCKED or WAITING in eccache's or Alluxio's code).\n"
        + threadDump();
    PrintStream err = System.err;
    err.println(report);
    err.flush();
    try {
      Path dir = Files.isDirectory(Paths.get("target")) ? Paths.get("target") : Paths.get(".");
      Path file = dir.resolve("hang-" + Instant.now().toString().replace(':', '-') + ".txt");
      Files.writeString(file, report, StandardCharsets.UTF_8);
      err.println("eccache HangWatchdog: the dump is also in " + file.toAbsolutePath());
    } catch (IOException | RuntimeException e) {
      err.println("eccache HangWatchdog: could not write the dump to a file: " + e);
    }
    // The S3 server and process clusters run as children: they would outlive a halted JVM.
    ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
    Runtime.getRuntime().halt(HALT_STATUS);
  }

  /** Every thread's whole stack, with the monitors and locks held and waited for; deadlocks first. */
  static String threadDump() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    StringBuilder out = new StringBuilder();
    long[] deadlocked = threads.findDeadlockedThreads();
    if (deadlocked != null) {
      out.append("Deadlocked threads (ids): ").append(Arrays.toString(deadlocked))
          .append('\n');
    } else {
      out.append("The JVM finds no deadlock among monitors and ownable locks.\n");
    }
    for (ThreadInfo t : threads.dumpAllThreads(true, true)) {
      out.append('\n').append('"').append(t.getThreadName()).append("\" id=")
          .append(t.getThreadId()).append(' ').append(t.getThreadState());
      if (t.getLockName() != null) {
        out.append(" on ").append(t.getLockName());
      }
      if (t.getLockOwnerName() != null) {
        out.append(" owned by \"").append(t.getLockOwnerName()).append("\" id=")
            .append(t.getLockOwnerId());
      }
      out.append('\n');
      StackTraceElement[] stack = t.getStackTrace();
      MonitorInfo[] monitors = t.getLockedMonitors();
      for (int i = 0; i < stack.length; i++) {
        out.append("\tat ").append(stack[i]).append('\n');
        for (MonitorInfo m : monitors) {
          if (m.getLockedStackDepth() == i) {
            out.append("\t- locked ").append(m).append('\n');
          }
        }
      }
      LockInfo[] synchronizers = t.getLockedSynchronizers();
      if (synchronizers.length > 0) {
        out.append("\tLocked synchronizers:\n");
        for (LockInfo l : synchronizers) {
          out.append("\t- ").append(l).append('\n');
        }
      }
    }
    return out.toString();
  }
}
