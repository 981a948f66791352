package io.eccache.policy.agar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * POPULATE on hand-computed cases and against the exact multiple-choice knapsack.
 *
 * <p>The hand cases use Table I's layout, where an object of popularity p has options of weight 1, 3, 5, 7,
 * 9 worth p x 2000, 2800, 3200, 3320, 3400. With popularities a = 10, b = 4, c = 1:
 * a: 20000, 28000, 32000, 33200, 34000; b: 8000, 11200, 12800, 13280, 13600; c: 2000, 2800, 3200, 3320, 3400.
 */
class PopulateTest {
  private static final double EPS = 1e-6;
  private static final ChunkLayout TABLE_I = AgarRegions.layout(1.0);
  private static final List<CachingOption> ABC =
      CachingOptions.forAll(Map.of("a", 10.0, "b", 4.0, "c", 1.0), TABLE_I);

  @Test
  void capacityFour() {
    // Weight <= 4 from {1, 3, 5, ...} per key: a3+b1 = 36000 beats a1+b3 = 31200 and a1+b1+c1 = 30000.
    expect(4, 36_000, Map.of("a", 3, "b", 1));
  }

  @Test
  void capacitySix() {
    // a5+b1 = 40000 beats a3+b3 = 39200 and a3+b1+c1 = 38000.
    expect(6, 40_000, Map.of("a", 5, "b", 1));
  }

  @Test
  void capacityTen() {
    // a5+b3+c1 = 45200 (weight 9) beats a5+b5 = 44800, a7+b3 = 44400 and a7+b1+c1 = 43200: the best
    // configuration leaves a chunk free, so MaxV[10] is not the answer.
    expect(10, 45_200, Map.of("a", 5, "b", 3, "c", 1));
  }

  @Test
  void smallCapacities() {
    expect(0, 0, Map.of());
    expect(1, 20_000, Map.of("a", 1));
    expect(2, 28_000, Map.of("a", 1, "b", 1));
  }

  @Test
  void oneKeyIsCachedOnce() {
    List<CachingOption> only = CachingOptions.forObject("a", 10, TABLE_I);
    for (KnapsackSolver solver : solvers()) {
      // Room for 9 + 7 chunks, but options of one key are alternatives: a9 alone, not a9 + a7 = 67200.
      CacheConfiguration config = solver.solve(only, 16);
      assertEquals(34_000, config.value(), EPS, solver.toString());
      assertEquals(Map.of("a", 9), weights(config), solver.toString());
    }
    assertThrows(IllegalArgumentException.class,
        () -> CacheConfiguration.of(List.of(only.get(0), only.get(1))));
  }

  @Test
  void relaxShrinksAnEarlierChoice() {
    // Capacity 9 with a (10) and b (4): a9 = 34000 comes first and fills MaxV[9]; RELAX with b's options
    // must shrink a to make room: a5 + b3 = 43200 is the optimum (a7 + b1 = 41200, a3 + b5 = 40800).
    List<CachingOption> options = CachingOptions.forAll(Map.of("a", 10.0, "b", 4.0), TABLE_I);
    CacheConfiguration config = new Populate().solve(options, 9);
    assertEquals(43_200, config.value(), EPS);
    assertEquals(Map.of("a", 5, "b", 3), weights(config));
  }

  @Test
  void earlyStopNeverBeatsTheFullRun() {
    List<CachingOption> options = CachingOptions.forAll(Map.of("a", 10.0, "b", 4.0, "c", 1.0), TABLE_I);
    CacheConfiguration full = new Populate().solve(options, 10);
    CacheConfiguration stopped = new Populate().withEarlyStop(0).solve(options, 10);
    assertTrue(stopped.weight() <= 10);
    assertTrue(stopped.value() <= full.value() + EPS);
    // Options by value: a9, a7, a5, a3, a1, b9, ... a alone never weighs 10; b9 added to a1 first fills
    // MaxV[10] (33600), and stopping there returns the best slot, a9 = 34000, against 45200 in full.
    assertEquals(34_000, stopped.value(), EPS, stopped.toString());
    assertEquals(45_200, full.value(), EPS, full.toString());
    assertThrows(IllegalArgumentException.class, () -> new Populate().withEarlyStop(-1));
    assertThrows(IllegalArgumentException.class, () -> new Populate().solve(options, -1));
  }

  @Test
  void exactSolverMatchesBruteForce() {
    Random random = new Random(7);
    for (int trial = 0; trial < 100; trial++) {
      List<CachingOption> options = randomOptions(random, 1 + random.nextInt(4));
      int capacity = random.nextInt(20);
      double brute = bruteForce(options, capacity);
      CacheConfiguration exact = new ExactKnapsack().solve(options, capacity);
      assertEquals(brute, exact.value(), EPS, "trial " + trial);
      assertTrue(exact.weight() <= capacity);
    }
  }

  /**
   * 200 seeded random instances: POPULATE never beats the optimum, never exceeds the capacity, and is
   * reported against it (docs/agar.md quotes the printed line).
   */
  @Test
  void populateAgainstTheOptimumOnRandomInstances() {
    for (Populate.OptionOrder order : Populate.OptionOrder.values()) {
      Populate populate = new Populate().withOrder(order);
      Random random = new Random(42);
      double sumRatio = 0;
      double minRatio = 1;
      int optimal = 0;
      int instances = 200;
      for (int trial = 0; trial < instances; trial++) {
        List<CachingOption> options = randomOptions(random, 2 + random.nextInt(9));
        int totalK = 0;
        for (CachingOption option : options) {
          totalK = Math.max(totalK, option.weight());
        }
        int capacity = random.nextInt(1 + 4 * totalK);
        CacheConfiguration heuristic = populate.solve(options, capacity);
        CacheConfiguration exact = new ExactKnapsack().solve(options, capacity);
        assertTrue(heuristic.weight() <= capacity, "trial " + trial);
        assertTrue(heuristic.value() <= exact.value() + EPS, "trial " + trial);
        double ratio = exact.value() == 0 ? 1 : heuristic.value() / exact.value();
        sumRatio += ratio;
        minRatio = Math.min(minRatio, ratio);
        if (ratio > 1 - 1e-9) {
          optimal++;
        }
      }
      double mean = sumRatio / instances;
      System.out.printf(Locale.ROOT, "POPULATE %s vs optimum over %d instances: mean %.4f, min %.4f, "
          + "optimal in %d%n", order, instances, mean, minRatio, optimal);
      assertTrue(mean >= 0.95, order + " mean ratio " + mean);
    }
  }

  /**
   * The paper's setting: 300 objects of Zipf popularity over Table I's layout, caches of 5 to 50 "MB"
   * (1 MB objects of 9 chunks, so 45 to 450 chunks; Fig. 8a) and skews 0.8 to 1.4 at 10 MB (Fig. 8b).
   * Deterministic; docs/agar.md quotes the printed lines.
   */
  @Test
  void populateAgainstTheOptimumInThePapersSetting() {
    int[] capacities = {45, 90, 180, 450};
    double[] skews = {0.8, 0.9, 1.0, 1.1, 1.4};
    for (int capacity : capacities) {
      paperCase(1.1, capacity);
    }
    for (double skew : skews) {
      paperCase(skew, 90);
    }
  }

  private static void paperCase(double skew, int capacity) {
    Map<String, Double> popularity = new TreeMap<>();
    for (int rank = 1; rank <= 300; rank++) {
      // Expected requests of 1000 per period, as in one of the paper's runs.
      popularity.put(String.format(Locale.ROOT, "o%03d", rank), 1000 / Math.pow(rank, skew));
    }
    double total = 0;
    for (double p : popularity.values()) {
      total += p;
    }
    for (Map.Entry<String, Double> entry : popularity.entrySet()) {
      entry.setValue(entry.getValue() * 1000 / total);
    }
    List<CachingOption> options = CachingOptions.forAll(popularity, TABLE_I);
    CacheConfiguration heuristic = new Populate().solve(options, capacity);
    CacheConfiguration exact = new ExactKnapsack().solve(options, capacity);
    assertTrue(heuristic.weight() <= capacity);
    assertTrue(heuristic.value() <= exact.value() + EPS);
    System.out.printf(Locale.ROOT, "POPULATE paper setting skew %.1f capacity %d chunks: %.4f of optimum,"
        + " objects by chunks cached %s (optimum %s)%n", skew, capacity, heuristic.value() / exact.value(),
        histogramOf(heuristic), histogramOf(exact));
  }

  private static Map<Integer, Integer> histogramOf(CacheConfiguration config) {
    Map<Integer, Integer> histogram = new TreeMap<>();
    for (CachingOption option : config.options().values()) {
      histogram.merge(option.weight(), 1, Integer::sum);
    }
    return histogram;
  }

  /** Objects of random popularity over one of three layouts, with random region latencies. */
  private static List<CachingOption> randomOptions(Random random, int objects) {
    int[][] schemes = {{9, 3, 6}, {4, 2, 3}, {6, 3, 4}};
    int[] scheme = schemes[random.nextInt(schemes.length)];
    List<Region> regions = new ArrayList<>();
    for (int r = 0; r < scheme[2]; r++) {
      regions.add(new Region("r" + r, Duration.ofMillis(10 + random.nextInt(5000))));
    }
    ChunkLayout layout = new ChunkLayout(scheme[0], scheme[1], regions, Duration.ZERO);
    Map<String, Double> popularity = new TreeMap<>();
    for (int i = 0; i < objects; i++) {
      popularity.put("o" + i, (double) random.nextInt(100));
    }
    return CachingOptions.forAll(popularity, layout);
  }

  private static double bruteForce(List<CachingOption> options, int capacity) {
    Map<String, List<CachingOption>> byKey = new TreeMap<>();
    for (CachingOption option : options) {
      byKey.computeIfAbsent(option.key(), unused -> new ArrayList<>()).add(option);
    }
    return bruteForce(new ArrayList<>(byKey.values()), 0, capacity);
  }

  private static double bruteForce(List<List<CachingOption>> groups, int group, int room) {
    if (group == groups.size()) {
      return 0;
    }
    double best = bruteForce(groups, group + 1, room);
    for (CachingOption option : groups.get(group)) {
      if (option.weight() <= room) {
        best = Math.max(best, option.value() + bruteForce(groups, group + 1, room - option.weight()));
      }
    }
    return best;
  }

  private static void expect(int capacity, double value, Map<String, Integer> weights) {
    for (KnapsackSolver solver : solvers()) {
      CacheConfiguration config = solver.solve(ABC, capacity);
      assertEquals(value, config.value(), EPS, solver + " at capacity " + capacity + ": " + config);
      assertEquals(weights, weights(config), solver + " at capacity " + capacity);
      assertTrue(config.weight() <= capacity);
    }
  }

  private static List<KnapsackSolver> solvers() {
    return List.of(new Populate(), new Populate().withOrder(Populate.OptionOrder.BY_KEY),
        new ExactKnapsack());
  }

  private static Map<String, Integer> weights(CacheConfiguration config) {
    Map<String, Integer> weights = new TreeMap<>();
    config.options().forEach((key, option) -> weights.put(key, option.weight()));
    return weights;
  }
}
