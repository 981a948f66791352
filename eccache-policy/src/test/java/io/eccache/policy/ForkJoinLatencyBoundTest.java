package io.eccache.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ForkJoinLatencyBoundTest {
  private static final double TOLERANCE = 1e-9;

  /** Object i on servers 0..k_i-1. */
  private static Placement firstServers(int servers, int... partitions) {
    int[][] holders = new int[partitions.length][];
    for (int i = 0; i < partitions.length; i++) {
      holders[i] = new int[partitions[i]];
      for (int j = 0; j < partitions[i]; j++) {
        holders[i][j] = j;
      }
    }
    return Placement.of(servers, holders);
  }

  @Test
  void oneObjectOnOneServerIsAnMm1Queue() {
    // S = 1 MB at B = 1 MB/s: t = 1 s; lambda = 0.5/s, so rho = 0.5.
    // Gamma2 = 2 t^2 = 2, Gamma3 = 6 t^3 = 6.
    // (9)  E[Q]   = t + Lambda Gamma2 / (2 (1 - rho)) = 1 + 0.5 * 2 / 1 = 2        (M/M/1: t / (1 - rho))
    // (10) Var[Q] = t^2 + Lambda Gamma3 / (3 (1 - rho)) + Lambda^2 Gamma2^2 / (4 (1 - rho)^2)
    //             = 1 + 0.5 * 6 / 1.5 + 0.25 * 4 / 1 = 1 + 2 + 1 = 4               (M/M/1: (t / (1 - rho))^2)
    // (8) with one server: z + (E - z)/2 + sqrt((E - z)^2 + V)/2 decreases towards E as z -> -infinity,
    //     so T = E = 2 s: the mean of the maximum of one variable is its mean.
    ForkJoinLatencyBound model = ForkJoinLatencyBound.uniform(1, 1e6);
    ForkJoinLatencyBound.Result result = model.evaluate(new long[] {1_000_000}, new double[] {0.5},
        firstServers(1, 1));
    assertEquals(0.5, result.serverArrivalRate(0), TOLERANCE);
    assertEquals(1.0, result.serverMeanService(0), TOLERANCE);
    assertEquals(0.5, result.serverUtilisation(0), TOLERANCE);
    assertEquals(2.0, result.serverGamma2(0), TOLERANCE);
    assertEquals(6.0, result.serverGamma3(0), TOLERANCE);
    assertEquals(2.0, result.partitionMean(0, 0), TOLERANCE);
    assertEquals(4.0, result.partitionVariance(0, 0), TOLERANCE);
    assertEquals(2.0, result.objectBound(0), TOLERANCE);
    assertEquals(2.0, result.systemBound(), TOLERANCE);
  }

  @Test
  void twoPartitionsOfOneObject() {
    // k = 2 on 2 servers: t = 0.5 s, each server sees every request: rho = 0.25.
    // Gamma2 = 2 * 0.25 = 0.5, Gamma3 = 6 * 0.125 = 0.75.
    // E = 0.5 + 0.5 * 0.5 / 1.5 = 2/3;  Var = 0.25 + 0.5 * 0.75 / 2.25 + 0.25 * 0.25 / 2.25 = 4/9.
    // (8) with two equal partitions: z + (E - z) + sqrt((E - z)^2 + V), least at z = E:
    //     T = E + sqrt(V) = 4/3.
    ForkJoinLatencyBound.Result result = ForkJoinLatencyBound.uniform(2, 1e6)
        .evaluate(new long[] {1_000_000}, new double[] {0.5}, firstServers(2, 2));
    for (int s = 0; s < 2; s++) {
      assertEquals(0.25, result.serverUtilisation(s), TOLERANCE);
      assertEquals(0.5, result.serverGamma2(s), TOLERANCE);
      assertEquals(0.75, result.serverGamma3(s), TOLERANCE);
      assertEquals(2.0 / 3, result.partitionMean(0, s), TOLERANCE);
      assertEquals(4.0 / 9, result.partitionVariance(0, s), TOLERANCE);
    }
    assertEquals(4.0 / 3, result.systemBound(), TOLERANCE);
  }

  @Test
  void boundOfEqualPartitionsHasItsClosedForm() {
    // For m partitions with the same E and V, setting the derivative of (8) to zero gives
    // (E - z) / sqrt((E - z)^2 + V) = -(m - 2) / m and T = E + sqrt((m - 1) V).
    for (int m = 2; m <= 30; m++) {
      double[] means = new double[m];
      double[] variances = new double[m];
      Arrays.fill(means, 0.7);
      Arrays.fill(variances, 0.09);
      double expected = 0.7 + Math.sqrt((m - 1) * 0.09);
      assertEquals(expected, ForkJoinLatencyBound.forkJoinBound(means, variances), TOLERANCE * expected,
          "m = " + m);
    }
  }

  @Test
  void boundOfTwoUnequalPartitionsHasItsClosedForm() {
    // For m = 2, (8) is (E1 + E2)/2 + 1/2 [dist((z,0), (E1, sd1)) + dist((z,0), (E2, -sd2))]: the shortest
    // path between the two points, T = (E1 + E2)/2 + 1/2 sqrt((E2 - E1)^2 + (sd1 + sd2)^2).
    // E = (1, 3), V = (1, 1): 2 + 1/2 sqrt(4 + 4) = 2 + sqrt(2).
    assertEquals(2 + Math.sqrt(2), ForkJoinLatencyBound.forkJoinBound(new double[] {1, 3},
        new double[] {1, 1}), TOLERANCE);
    // E = (2, 5), V = (4, 0.25): 3.5 + 1/2 sqrt(9 + 6.25).
    assertEquals(3.5 + 0.5 * Math.sqrt(15.25), ForkJoinLatencyBound.forkJoinBound(new double[] {2, 5},
        new double[] {4, 0.25}), TOLERANCE);
    // No variance: the maximum of constants is the largest.
    assertEquals(5, ForkJoinLatencyBound.forkJoinBound(new double[] {2, 5, 4}, new double[] {0, 0, 0}),
        TOLERANCE);
  }

  @Test
  void boundIsTheMinimumOverZ() {
    // Random heterogeneous partitions: no z on a fine grid does better than the bisection's answer.
    Random random = new Random(3);
    for (int trial = 0; trial < 20; trial++) {
      int m = 2 + random.nextInt(10);
      double[] means = new double[m];
      double[] variances = new double[m];
      for (int s = 0; s < m; s++) {
        means[s] = random.nextDouble() * 5;
        variances[s] = random.nextDouble() * 3;
      }
      double bound = ForkJoinLatencyBound.forkJoinBound(means, variances);
      for (double z = -20; z <= 20; z += 0.001) {
        double value = z;
        for (int s = 0; s < m; s++) {
          value += 0.5 * (means[s] - z) + 0.5 * Math.sqrt((means[s] - z) * (means[s] - z) + variances[s]);
        }
        assertTrue(bound <= value * (1 + TOLERANCE), "trial " + trial + " z " + z);
      }
    }
  }

  @Test
  void morePartitionsLowerTheBoundOfAHotObjectOnIdleServers() {
    // One object on otherwise idle servers: with k partitions, t = 1/k s and rho = 0.5/k, so
    // E = t / (1 - rho), V = E^2 and T(k) = E (1 + sqrt(k - 1)):
    // k = 1: 2, k = 2: 1.333, k = 3: 0.966, k = 4: 0.781, ... strictly falling up to k = 10.
    ForkJoinLatencyBound model = ForkJoinLatencyBound.uniform(10, 1e6);
    double previous = Double.POSITIVE_INFINITY;
    for (int k = 1; k <= 10; k++) {
      double bound = model.evaluate(new long[] {1_000_000}, new double[] {0.5}, firstServers(10, k))
          .systemBound();
      double t = 1.0 / k;
      double mean = t / (1 - 0.5 * t);
      assertEquals(mean * (1 + Math.sqrt(k - 1)), bound, TOLERANCE, "k = " + k);
      assertTrue(bound < previous, "k = " + k);
      previous = bound;
    }
  }

  @Test
  void saturatedServerMakesTheBoundInfinite() {
    ForkJoinLatencyBound model = ForkJoinLatencyBound.uniform(2, 1e6);
    // Object 0 alone on server 0 at rho = 1 exactly; object 1 alone on server 1 at rho = 0.5.
    Placement placement = Placement.of(2, new int[][] {{0}, {1}});
    ForkJoinLatencyBound.Result result = model.evaluate(new long[] {1_000_000, 1_000_000},
        new double[] {1.0, 0.5}, placement);
    assertEquals(1.0, result.serverUtilisation(0), TOLERANCE);
    assertEquals(Double.POSITIVE_INFINITY, result.partitionMean(0, 0));
    assertEquals(Double.POSITIVE_INFINITY, result.objectBound(0));
    assertEquals(2.0, result.objectBound(1), TOLERANCE);
    assertEquals(Double.POSITIVE_INFINITY, result.systemBound());
    // Overloaded, not just at the edge.
    assertEquals(Double.POSITIVE_INFINITY, model.evaluate(new long[] {1_000_000, 1_000_000},
        new double[] {3.0, 0.5}, placement).systemBound());
  }

  @Test
  void unreadObjectsWaitForNothingAndWeighNothing() {
    // Object 1 has rate 0 on its own server: E = t, Var = t^2 and it does not count in the system bound.
    ForkJoinLatencyBound.Result result = ForkJoinLatencyBound.uniform(2, 1e6).evaluate(
        new long[] {1_000_000, 3_000_000}, new double[] {0.5, 0}, Placement.of(2, new int[][] {{0}, {1}}));
    assertEquals(0, result.serverArrivalRate(1));
    assertEquals(0, result.serverMeanService(1));
    assertEquals(3.0, result.partitionMean(1, 0), TOLERANCE);
    assertEquals(9.0, result.partitionVariance(1, 0), TOLERANCE);
    assertEquals(2.0, result.systemBound(), TOLERANCE);
  }

  @Test
  void randomPlacementIsDistinctAndReproducible() {
    int[] partitions = {1, 5, 30, 7, 30, 2};
    Placement first = Placement.random(30, partitions, 42);
    Placement again = Placement.random(30, partitions, 42);
    Placement other = Placement.random(30, partitions, 43);
    boolean differs = false;
    for (int i = 0; i < partitions.length; i++) {
      assertEquals(partitions[i], first.partitions(i));
      assertArrayEquals(first.serversOf(i), again.serversOf(i));
      differs |= !Arrays.equals(first.serversOf(i), other.serversOf(i));
      assertEquals(partitions[i], Arrays.stream(first.serversOf(i)).distinct().count());
      assertTrue(Arrays.stream(first.serversOf(i)).allMatch(s -> s >= 0 && s < 30));
    }
    assertTrue(differs, "another seed should give another placement");
  }

  @Test
  void raisingOnePartitionCountOnlyAddsServersToThatObject() {
    Placement before = Placement.random(30, new int[] {3, 4, 5}, 8);
    Placement after = Placement.random(30, new int[] {3, 9, 5}, 8);
    assertArrayEquals(before.serversOf(0), after.serversOf(0));
    assertArrayEquals(before.serversOf(2), after.serversOf(2));
    assertArrayEquals(before.serversOf(1), Arrays.copyOf(after.serversOf(1), 4));
  }

  @Test
  void randomPlacementSpreadsUniformly() {
    // 30,000 single partitions on 30 servers: each server expects 1,000 (sd about 31).
    int[] partitions = new int[30_000];
    Arrays.fill(partitions, 1);
    Placement placement = Placement.random(30, partitions, 5);
    int[] perServer = new int[30];
    for (int i = 0; i < partitions.length; i++) {
      perServer[placement.server(i, 0)]++;
    }
    for (int count : perServer) {
      assertTrue(count > 850 && count < 1150, "count " + count);
    }
  }

  @Test
  void rejectsInconsistentInputsQuotingThem() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Placement.of(3, new int[][] {{0, 0}}))
        .getMessage().contains("twice"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Placement.of(3, new int[][] {{3}}))
        .getMessage().contains("3"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Placement.random(3, new int[] {4}, 1))
        .getMessage().contains("4"));
    assertThrows(IllegalArgumentException.class, () -> Placement.random(3, new int[] {0}, 1));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ForkJoinLatencyBound.uniform(2, -1))
        .getMessage().contains("-1"));
    ForkJoinLatencyBound model = ForkJoinLatencyBound.uniform(2, 1e6);
    assertThrows(IllegalArgumentException.class,
        () -> model.evaluate(new long[] {1}, new double[] {1, 2}, firstServers(2, 1)));
    assertThrows(IllegalArgumentException.class,
        () -> model.evaluate(new long[] {1}, new double[] {1}, firstServers(3, 1)));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> model.evaluate(new long[] {1}, new double[] {Double.NaN}, firstServers(2, 1)))
        .getMessage().contains("NaN"));
  }
}
