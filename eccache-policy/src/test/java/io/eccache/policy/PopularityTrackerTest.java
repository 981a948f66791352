package io.eccache.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class PopularityTrackerTest {
  private static final double TOLERANCE = 1e-12;

  private static void record(PopularityTracker tracker, String key, int times) {
    for (int i = 0; i < times; i++) {
      tracker.record(key);
    }
  }

  @Test
  void ewmaOverThreePeriods() {
    PopularityTracker tracker = new PopularityTracker(0.8);
    // Period 1: a x10, b x5.          a = 0.8*10 = 8,            b = 0.8*5 = 4
    record(tracker, "a", 10);
    record(tracker, "b", 5);
    assertEquals(0, tracker.popularity("a"), "nothing counts until the period closes");
    tracker.roll();
    assertEquals(8.0, tracker.popularity("a"), TOLERANCE);
    assertEquals(4.0, tracker.popularity("b"), TOLERANCE);
    // Period 2: b x10.                a = 0.2*8 = 1.6,           b = 0.8*10 + 0.2*4 = 8.8
    record(tracker, "b", 10);
    tracker.roll();
    assertEquals(1.6, tracker.popularity("a"), TOLERANCE);
    assertEquals(8.8, tracker.popularity("b"), TOLERANCE);
    // Period 3: a x5, c x1.           a = 4 + 0.2*1.6 = 4.32,    b = 0.2*8.8 = 1.76,   c = 0.8
    record(tracker, "a", 5);
    record(tracker, "c", 1);
    tracker.roll();
    assertEquals(4.32, tracker.popularity("a"), TOLERANCE);
    assertEquals(1.76, tracker.popularity("b"), TOLERANCE);
    assertEquals(0.8, tracker.popularity("c"), TOLERANCE);
    assertEquals(0, tracker.popularity("unknown"));
    Map<String, Double> snapshot = tracker.snapshot();
    assertEquals(3, snapshot.size());
    assertThrows(UnsupportedOperationException.class, () -> snapshot.put("d", 1.0));
    tracker.roll();
    assertEquals(4.32, snapshot.get("a"), TOLERANCE, "a snapshot does not change under later rolls");
  }

  @Test
  void accessesReportedTogetherCountAsManySingleOnes() {
    PopularityTracker tracker = new PopularityTracker(0.8);
    tracker.record("a");
    tracker.record("a", 9); // reads a client served from a cached layout, reported at once
    tracker.roll();
    assertEquals(8.0, tracker.popularity("a"), TOLERANCE);
    assertThrows(IllegalArgumentException.class, () -> tracker.record("a", 0));
    assertThrows(IllegalArgumentException.class, () -> tracker.record("a", -3));
    tracker.roll();
    assertEquals(1.6, tracker.popularity("a"), TOLERANCE, "refused counts are not counted");
  }

  @Test
  void coldKeysAreForgottenOnceBelowOneMillionth() {
    // 8 * 0.2^9 = 4.1e-6 is kept; 8 * 0.2^10 = 8.2e-7 is dropped.
    PopularityTracker tracker = new PopularityTracker(0.8);
    record(tracker, "a", 10);
    tracker.roll();
    for (int period = 0; period < 9; period++) {
      tracker.roll();
    }
    assertEquals(8 * Math.pow(0.2, 9), tracker.popularity("a"), 1e-18);
    assertTrue(tracker.snapshot().containsKey("a"));
    tracker.roll();
    assertFalse(tracker.snapshot().containsKey("a"));
    assertEquals(0, tracker.popularity("a"));
  }

  @Test
  void weightOneKeepsOnlyTheLastPeriod() {
    PopularityTracker tracker = new PopularityTracker(1.0);
    record(tracker, "a", 3);
    tracker.roll();
    assertEquals(3.0, tracker.popularity("a"));
    tracker.roll();
    assertFalse(tracker.snapshot().containsKey("a"));
  }

  @Test
  void forgetDropsCountsAndAverage() {
    PopularityTracker tracker = new PopularityTracker(0.8);
    record(tracker, "a", 10);
    tracker.roll();
    record(tracker, "a", 10);
    tracker.forget("a");
    tracker.forget("never-seen");
    assertFalse(tracker.snapshot().containsKey("a"));
    tracker.roll();
    assertEquals(0, tracker.popularity("a"), "the pending count went too");
  }

  @Test
  void rejectsWeightsOutsideZeroToOne() {
    for (double weight : new double[] {0, -0.1, 1.5, Double.NaN}) {
      assertTrue(assertThrows(IllegalArgumentException.class, () -> new PopularityTracker(weight))
          .getMessage().contains(String.valueOf(weight)));
    }
  }

  @Test
  void concurrentRecordsSumExactly() throws Exception {
    int threads = 8;
    int perThread = 100_000;
    PopularityTracker tracker = new PopularityTracker(1.0);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < perThread; i++) {
            tracker.record("k" + (i % 4));
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> future : done) {
        future.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    tracker.roll();
    for (int key = 0; key < 4; key++) {
      assertEquals(threads * perThread / 4.0, tracker.popularity("k" + key), "k" + key);
    }
  }

  @Test
  void accessesRacingWithRollsAreCountedInExactlyOnePeriod() throws Exception {
    // Weight 1: each roll's average is that period's count, so the sum over rolls must be every access.
    int threads = 4;
    int perThread = 200_000;
    PopularityTracker tracker = new PopularityTracker(1.0);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicBoolean recording = new AtomicBoolean(true);
    double counted = 0;
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(pool.submit(() -> {
          for (int i = 0; i < perThread; i++) {
            tracker.record("k" + (i % 8));
          }
        }));
      }
      Thread waiter = new Thread(() -> {
        for (Future<?> future : done) {
          try {
            future.get();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }
        recording.set(false);
      });
      waiter.start();
      while (recording.get()) {
        tracker.roll();
        counted += tracker.snapshot().values().stream().mapToDouble(Double::doubleValue).sum();
      }
      waiter.join();
    } finally {
      pool.shutdownNow();
    }
    tracker.roll();
    counted += tracker.snapshot().values().stream().mapToDouble(Double::doubleValue).sum();
    assertEquals((double) threads * perThread, counted);
  }
}
