package io.eccache.policy;

import java.util.Arrays;
import java.util.Random;

/**
 * Draws ranks 0..n-1 with P(rank i) proportional to 1 / (i + 1)^s: the Zipf popularity the paper's
 * workloads use (s = 0.9 by default). Rank 0 is the most popular.
 */
public final class ZipfSampler {
  private final double[] cumulative;

  /** Ranks 0..n-1 with skew {@code s}. */
  public ZipfSampler(int n, double s) {
    if (n < 1 || s < 0) {
      throw new IllegalArgumentException("Zipf needs n >= 1 and s >= 0, not n=" + n + ", s=" + s);
    }
    cumulative = new double[n];
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += 1 / Math.pow(i + 1, s);
      cumulative[i] = sum;
    }
    for (int i = 0; i < n; i++) {
      cumulative[i] /= sum;
    }
  }

  /** The probability of rank {@code i}. */
  public double probability(int i) {
    return i == 0 ? cumulative[0] : cumulative[i] - cumulative[i - 1];
  }

  /** A rank drawn with {@code random}. */
  public int next(Random random) {
    int i = Arrays.binarySearch(cumulative, random.nextDouble());
    int rank = i >= 0 ? i : -i - 1;
    return Math.min(rank, cumulative.length - 1);
  }
}
