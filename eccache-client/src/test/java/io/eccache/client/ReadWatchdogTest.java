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

  /**
   * Starts a read that blocks until interrupted on a thread of its own under {@code reads}
   * ({@code closing}: one that has begun closing its stream); returns what it threw once it ends,
   * after it has begun.
   */
  private static CompletableFuture<Exception> start(ReadWatchdog reads, boolean closing,
      long timeoutMs, String what, java.util.function.BooleanSupplier unwanted)
      throws InterruptedException {
    CountDownLatch reading = new CountDownLatch(1);
    CompletableFuture<Exception> outcome = CompletableFuture.supplyAsync(() -> {
      try {
        reads.call(progress -> {
          if (closing) {
            progress.closing();
          }
          reading.countDown();
          return blockUntilInterrupted();
        }, timeoutMs, () -> what, unwanted);
        return null;
      } catch (Exception e) {
        return e;
      }
    });
    assertTrue(reading.await(10, TimeUnit.SECONDS), "the read never began");
    return outcome;
  }

  @Test
  void aReadPastItsTimeoutIsInterruptedAndTheInterruptIsNotLeftBehind() throws Exception {
    FakeTicker clock = new FakeTicker();
    try (ReadWatchdog reads = new ReadWatchdog(clock, 20, 20)) {
      assertEquals("bytes", reads.call(() -> "bytes", 100, () -> "a quick read"));
      CompletableFuture<Exception> outcome =
          start(reads, false, 100, "split r00", null);
      clock.advanceMs(99);
      reads.sweep();
      assertEquals(0, reads.timedOut(), "interrupted before its timeout");
      clock.advanceMs(1);
      reads.sweep();
      assertEquals(1, reads.timedOut());
      Exception e = outcome.get(10, TimeUnit.SECONDS);
      assertInstanceOf(DeadlineExceededException.class, e);
      assertTrue(e.getMessage().contains("split r00 gave no answer in 100 ms"), e.getMessage());
      assertInstanceOf(IOException.class, e.getCause());
      assertEquals(0, reads.running());
    }
    // On the caller's own thread: the interrupt is cleared before call returns.
    FakeTicker clock2 = new FakeTicker();
    try (ReadWatchdog reads = new ReadWatchdog(clock2, 20, 20)) {
      assertThrows(DeadlineExceededException.class, () -> reads.call(() -> {
        clock2.advanceMs(100);
        reads.sweep();
        return blockUntilInterrupted();
      }, 100, () -> "split r00"));
      assertFalse(Thread.currentThread().isInterrupted(), "the watchdog's interrupt was left");
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
    FakeTicker clock = new FakeTicker();
    ReadWatchdog reads = new ReadWatchdog(clock, 20, 20);
    CompletableFuture<Exception> outcome =
        start(reads, false, 300, "split r02", null);
    reads.close();
    assertEquals(1, reads.running());
    assertThrows(RejectedExecutionException.class, () -> reads.call(() -> "x", 100, () -> "late"));
    clock.advanceMs(300); // the watchdog's own thread, still sweeping, ends it
    assertInstanceOf(DeadlineExceededException.class, outcome.get(10, TimeUnit.SECONDS));
    assertEquals(0, reads.running());
  }

  @Test
  void anUnwantedReadWhoseWorkerIsSilentIsInterruptedLongBeforeItsTimeout() throws Exception {
    FakeTicker clock = new FakeTicker();
    try (ReadWatchdog reads = new ReadWatchdog(clock, 20, 100)) {
      AtomicBoolean unwanted = new AtomicBoolean();
      CompletableFuture<Exception> outcome =
          start(reads, false, 30_000, "split r03", unwanted::get);
      clock.advanceMs(500);
      reads.sweep();
      assertEquals(0, reads.abandoned(), "a wanted read is left to its deadline");
      unwanted.set(true);
      reads.sweep();
      assertEquals(1, reads.abandoned(), "silent for 500 ms and unwanted");
      Exception e = outcome.get(10, TimeUnit.SECONDS);
      assertInstanceOf(ReadWatchdog.AbandonedException.class, e);
      assertTrue(e.getMessage().contains("split r03 was no longer wanted"), e.getMessage());
      assertEquals(0, reads.timedOut());
    }
  }

  @Test
  void anUnwantedReadStillReceivingOrClosingIsLeftAlone() throws Exception {
    FakeTicker clock = new FakeTicker();
    try (ReadWatchdog reads = new ReadWatchdog(clock, 20, 100)) {
      // Bytes every 50 ms of the clock, unwanted all along: never quiet for 100 ms.
      assertEquals("whole", reads.call(progress -> {
        for (int i = 0; i < 30; i++) {
          clock.advanceMs(50);
          progress.advanced();
          reads.sweep();
        }
        return "whole";
      }, 30_000, () -> "split r04", () -> true));
      // Closing (Alluxio's close waits for the worker): only its deadline ends it.
      CompletableFuture<Exception> closing = start(reads, true, 500, "split r05", () -> true);
      clock.advanceMs(499);
      reads.sweep();
      assertEquals(0, reads.timedOut() + reads.abandoned(), "a closing read was interrupted");
      clock.advanceMs(1);
      reads.sweep();
      assertInstanceOf(DeadlineExceededException.class, closing.get(10, TimeUnit.SECONDS));
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
