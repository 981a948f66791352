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
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The read watchdog: deadlines, unwanted reads of silent workers, interrupts and closing. */
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
    try (ReadWatchdog reads = new ReadWatchdog(20, 20)) {
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
    try (ReadWatchdog reads = new ReadWatchdog(20, 20)) {
      IOException e = assertThrows(IOException.class, () -> reads.call(() -> {
        throw new IOException("worker said no");
      }, 10_000, () -> "split r01"));
      assertEquals("worker said no", e.getMessage());
    }
  }

  @Test
  void aReadRunningAtCloseKeepsItsWatchdogAndLaterReadsAreRefused() throws Exception {
    ReadWatchdog reads = new ReadWatchdog(20, 20);
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
  void anUnwantedReadWhoseWorkerIsSilentIsInterruptedLongBeforeItsTimeout() throws Exception {
    try (ReadWatchdog reads = new ReadWatchdog(20, 100)) {
      AtomicBoolean unwanted = new AtomicBoolean();
      CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS).execute(() -> unwanted.set(true));
      long began = System.nanoTime();
      ReadWatchdog.AbandonedException e = assertThrows(ReadWatchdog.AbandonedException.class,
          () -> reads.call(progress -> blockUntilInterrupted(), 30_000, () -> "split r03",
              unwanted::get));
      long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
      assertTrue(tookMs >= 100 && tookMs < 10_000, "interrupted after " + tookMs + " ms");
      assertTrue(e.getMessage().contains("split r03 was no longer wanted"), e.getMessage());
      assertFalse(Thread.currentThread().isInterrupted(), "the watchdog's interrupt was left");
      assertEquals(1, reads.abandoned());
    }
  }

  @Test
  void anUnwantedReadStillReceivingOrClosingIsLeftAlone() throws Exception {
    try (ReadWatchdog reads = new ReadWatchdog(20, 100)) {
      // Bytes every 20 ms for 0.6 s, unwanted all along: never quiet for 100 ms.
      assertEquals("whole", reads.call(progress -> {
        for (int i = 0; i < 30; i++) {
          Thread.sleep(20);
          progress.advanced();
        }
        return "whole";
      }, 30_000, () -> "split r04", () -> true));
      // Closing (Alluxio's close waits for the worker): only its deadline ends it.
      long began = System.nanoTime();
      assertThrows(DeadlineExceededException.class, () -> reads.call(progress -> {
        progress.closing();
        return blockUntilInterrupted();
      }, 500, () -> "split r05", () -> true));
      assertTrue(System.nanoTime() - began >= TimeUnit.MILLISECONDS.toNanos(500));
      assertEquals(0, reads.abandoned());
    }
  }

  @Test
  void theTickIsATenthOfTheTimeoutWithinOneTo100Ms() {
    assertEquals(100, ReadWatchdog.tickFor(30_000));
    assertEquals(20, ReadWatchdog.tickFor(200));
    assertEquals(1, ReadWatchdog.tickFor(0));
    assertEquals(1_000, ReadWatchdog.quietFor(30_000), "a tenth of the timeout, at most 1 s");
    assertEquals(100, ReadWatchdog.quietFor(1_000));
    assertEquals(20, ReadWatchdog.quietFor(200));
    assertThrows(IllegalArgumentException.class, () -> new ReadWatchdog(0, 0));
  }
}
