package io.eccache.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A JVM whose step deadlocks is halted with a dump that names the deadlock and its threads. */
class HangWatchdogTest {
  @Test
  void aDeadlockedStepHaltsItsJvmWithADumpThatShowsTheDeadlock(@TempDir Path dir)
      throws Exception {
    Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
    Process child = new ProcessBuilder(List.of(java.toString(),
        "-D" + HangWatchdog.LIMIT_PROPERTY + "=PT2S",
        "-cp", System.getProperty("java.class.path"), Deadlock.class.getName()))
        .directory(dir.toFile()).redirectErrorStream(true).start();
    assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the watchdog did not end the JVM in 60 s");
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(HangWatchdog.HALT_STATUS, child.exitValue(), out);
    assertTrue(out.contains("'two threads taking two locks' has run for"), out);
    assertTrue(out.contains("Deadlocked threads"), out);
    assertTrue(out.contains("\"deadlock-a\"") && out.contains("\"deadlock-b\""), out);
    assertTrue(out.contains("owned by \"deadlock-"), out);
    assertTrue(out.contains("Deadlock.lockBoth"), "whole stacks, down to the test's frames: " + out);
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> dumps = files.filter(f -> f.getFileName().toString().startsWith("hang-"))
          .collect(Collectors.toList());
      assertEquals(1, dumps.size(), "one dump file beside the JVM: " + dumps);
      assertTrue(Files.readString(dumps.get(0)).contains("\"deadlock-a\""));
    }
  }

  @Test
  void theLimitMustBePositive() {
    String before = System.getProperty(HangWatchdog.LIMIT_PROPERTY);
    try {
      System.setProperty(HangWatchdog.LIMIT_PROPERTY, "PT0S");
      IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
          IllegalArgumentException.class, HangWatchdog::limit);
      assertTrue(e.getMessage().contains("must be positive"), e.getMessage());
      System.setProperty(HangWatchdog.LIMIT_PROPERTY, "PT90S");
      assertEquals(90, HangWatchdog.limit().toSeconds());
    } finally {
      if (before == null) {
        System.clearProperty(HangWatchdog.LIMIT_PROPERTY);
      } else {
        System.setProperty(HangWatchdog.LIMIT_PROPERTY, before);
      }
    }
  }

  /** A main that deadlocks two threads inside a watched step. */
  static final class Deadlock {
    private static final Object FIRST = new Object();
    private static final Object SECOND = new Object();
    private static final CountDownLatch BOTH_HOLD_ONE = new CountDownLatch(2);

    public static void main(String[] args) throws InterruptedException {
      HangWatchdog.started("two threads taking two locks");
      Thread a = new Thread(() -> lockBoth(FIRST, SECOND), "deadlock-a");
      Thread b = new Thread(() -> lockBoth(SECOND, FIRST), "deadlock-b");
      a.start();
      b.start();
      a.join();
    }

    private static void lockBoth(Object one, Object two) {
      synchronized (one) {
        BOTH_HOLD_ONE.countDown();
        try {
          BOTH_HOLD_ONE.await();
        } catch (InterruptedException e) {
          return;
        }
        synchronized (two) {
          throw new AssertionError("both locks taken: no deadlock");
        }
      }
    }
  }
}
