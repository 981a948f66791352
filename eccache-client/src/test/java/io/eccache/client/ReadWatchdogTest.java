package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.exception.status.DeadlineExceededException;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The watchdog of reads made on a GET's own thread: bounds, interrupts and closing. */
class ReadWatchdogTest {
  /** Blocks as Alluxio's block stream does: until interrupted, then fails. */
  private static String blockUntilInterrupted() throws IOException {
    try {
      Thread.sleep(60_000);
      return "never";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for the worker", e);
    }
  }

  @Test
  void aReadPastItsTimeoutIsInterruptedWithinATickAndTheInterruptIsNotLeftBehind()
      throws Exception {
    try (ReadWatchdog reads = new ReadWatchdog(20)) {
      assertEquals("bytes", reads.call(() -> "bytes", 100, () -> "a quick read"));
      long began = System.nanoTime();
      DeadlineExceededException e = assertThrows(DeadlineExceededException.class,
          () -> reads.call(ReadWatchdogTest::blockUntilInterrupted, 100, () -> "split r00"));
      long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
      assertTrue(tookMs >= 100 && tookMs < 2_000, "interrupted after " + tookMs + " ms");
      assertTrue(e.getMessage().contains("split r00 gave no answer in 100 ms"), e.getMessage());
      assertInstanceOf(IOException.class, e.getCause());
      assertFalse(Thread.currentThread().isInterrupted(), "the watchdog's interrupt was left");
      assertEquals(0, reads.running());
    }
  }

  @Test
  void aReadsOwnFailureBeforeItsTimeoutIsThrownAsIs() {
    try (ReadWatchdog reads = new ReadWatchdog(20)) {
      IOException e = assertThrows(IOException.class, () -> reads.call(() -> {
        throw new IOException("worker said no");
      }, 10_000, () -> "split r01"));
      assertEquals("worker said no", e.getMessage());
    }
  }

  @Test
  void aReadRunningAtCloseKeepsItsWatchdogAndLaterReadsAreRefused() throws Exception {
    ReadWatchdog reads = new ReadWatchdog(20);
    CountDownLatch reading = new CountDownLatch(1);
    CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
      try {
        reads.call(() -> {
          reading.countDown();
          return blockUntilInterrupted();
        }, 300, () -> "split r02");
        return null;
      } catch (Exception e) {
        return e;
      }
    });
    assertTrue(reading.await(10, TimeUnit.SECONDS));
    reads.close();
    assertEquals(1, reads.running());
    assertThrows(RejectedExecutionException.class, () -> reads.call(() -> "x", 100, () -> "late"));
    assertInstanceOf(DeadlineExceededException.class, outcome.get(10, TimeUnit.SECONDS));
    assertEquals(0, reads.running());
  }

  @Test
  void theTickIsATenthOfTheTimeoutWithinOneTo100Ms() {
    assertEquals(100, ReadWatchdog.tickFor(30_000));
    assertEquals(20, ReadWatchdog.tickFor(200));
    assertEquals(1, ReadWatchdog.tickFor(0));
    assertThrows(IllegalArgumentException.class, () -> new ReadWatchdog(0));
  }
}
