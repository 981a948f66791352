package io.eccache.policy.agar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AgarPolicyTest {
  private static final double EPS = 1e-9;
  private static final ChunkLayout TABLE_I = AgarRegions.layout(1.0);

  private static void read(ChunkCachePolicy policy, String key, int times) {
    for (int i = 0; i < times; i++) {
      policy.recordRead(key);
    }
  }

  @Test
  void ewmaOverThreePeriods() {
    AgarPolicy agar = new AgarPolicy(TABLE_I, 9);
    // Period 1: a x10.           a = 0.8 x 10 = 8
    read(agar, "a", 10);
    assertEquals(List.of(), agar.cachedChunks("a"), "nothing is cached before the first tick");
    agar.tick();
    assertEquals(8.0, agar.popularity("a"), EPS);
    // Period 2: b x5.            a = 0.2 x 8 = 1.6,          b = 0.8 x 5 = 4
    read(agar, "b", 5);
    agar.tick();
    assertEquals(1.6, agar.popularity("a"), EPS);
    assertEquals(4.0, agar.popularity("b"), EPS);
    // Period 3: a x5.            a = 0.8 x 5 + 0.2 x 1.6 = 4.32,  b = 0.2 x 4 = 0.8
    read(agar, "a", 5);
    agar.tick();
    assertEquals(4.32, agar.popularity("a"), EPS);
    assertEquals(0.8, agar.popularity("b"), EPS);
  }

  /**
   * The allocation half of "chunk add/drop under a popularity change", capacity 9 chunks over Table I.
   * Period 1: x read 100 times, y 10: popularity 80 and 8. x7 + y1 = 265600 + 16000 = 281600 beats
   * x5 + y3 = 278400 and x9 = 272000. Period 2: only y, 100 times: x = 0.2 x 80 = 16, y = 80 + 1.6 = 81.6.
   * y5 + x3 = 261120 + 44800 = 305920 beats y7 + x1 = 302912 and y9 = 277440: y rises from 1 to 5 chunks,
   * x drops from 7 to 3.
   */
  @Test
  void chunksFollowAPopularityChange() {
    for (KnapsackSolver solver : List.of(new Populate(), new ExactKnapsack())) {
      AgarPolicy agar = new AgarPolicy(TABLE_I, 9, AgarPolicy.DEFAULT_ALPHA, solver);
      read(agar, "x", 100);
      read(agar, "y", 10);
      agar.tick();
      assertEquals(281_600, agar.configuration().value(), EPS, solver.toString());
      List<Integer> xBefore = agar.cachedChunks("x");
      List<Integer> yBefore = agar.cachedChunks("y");
      assertEquals(List.of(1, 2, 3, 4, 7, 8, 9), xBefore);
      assertEquals(List.of(4), yBefore);

      read(agar, "y", 100);
      agar.tick();
      assertEquals(16.0, agar.popularity("x"), EPS);
      assertEquals(81.6, agar.popularity("y"), EPS);
      assertEquals(305_920, agar.configuration().value(), 1e-6, solver.toString());
      assertEquals(List.of(3, 4, 9), agar.cachedChunks("x"));
      assertEquals(List.of(2, 3, 4, 8, 9), agar.cachedChunks("y"));
      // What the maintainer would do: drop x's Dublin and N. Virginia chunks, add y's N. Virginia and Sao
      // Paulo ones; the chunks both configurations share stay.
      assertEquals(List.of(1, 2, 7, 8), minus(xBefore, agar.cachedChunks("x")));
      assertEquals(List.of(2, 3, 8, 9), minus(agar.cachedChunks("y"), yBefore));
      assertTrue(agar.configuration().weight() <= agar.capacityChunks());
    }
  }

  @Test
  void coldObjectsLeaveTheCache() {
    AgarPolicy agar = new AgarPolicy(TABLE_I, 9);
    read(agar, "x", 10);
    agar.tick();
    assertEquals(9, agar.cachedChunks("x").size(), "alone, x takes the whole read set");
    // x unread in period 2 (1.6), a hot newcomer z (80): z9 = 272000 beats z7 + x1 = 265600 + 3200, so x
    // leaves the cache entirely.
    read(agar, "z", 100);
    agar.tick();
    assertEquals(List.of(), agar.cachedChunks("x"));
    assertEquals(9, agar.cachedChunks("z").size());
  }

  @Test
  void concurrentReadsAreAllCounted() throws Exception {
    AgarPolicy agar = new AgarPolicy(TABLE_I, 9, 1.0, new Populate());
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        futures.add(pool.submit(() -> read(agar, "k", 1000)));
      }
      for (Future<?> future : futures) {
        future.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    agar.tick();
    assertEquals(4000.0, agar.popularity("k"), EPS);
  }

  @Test
  void badInputIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> new AgarPolicy(TABLE_I, -1));
    assertThrows(IllegalArgumentException.class, () -> new AgarPolicy(TABLE_I, 9, 0, new Populate()));
    assertThrows(IllegalArgumentException.class, () -> new AgarPolicy(TABLE_I, 9, 1.5, new Populate()));
  }

  private static List<Integer> minus(List<Integer> from, List<Integer> removed) {
    List<Integer> result = new ArrayList<>(from);
    result.removeAll(removed);
    return result;
  }
}
