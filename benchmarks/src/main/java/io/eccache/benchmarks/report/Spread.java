package io.eccache.benchmarks.report;

import java.util.Arrays;
import java.util.Locale;

/**
 * One number measured over repeats (seeds, placements): its median, shown with the smallest and largest.
 * Immutable.
 */
public final class Spread {
  private final double median;
  private final double min;
  private final double max;
  private final int count;

  private Spread(double median, double min, double max, int count) {
    this.median = median;
    this.min = min;
    this.max = max;
    this.count = count;
  }

  /**
   * @param values one per repeat, not empty; NaN values are left out (a repeat that has no such number)
   * @return their median (the mean of the middle two for an even count), minimum and maximum; all NaN
   *     when every value is NaN
   * @throws IllegalArgumentException if there are no values
   */
  public static Spread of(double... values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("a spread needs at least one value");
    }
    double[] sorted = Arrays.stream(values).filter(v -> !Double.isNaN(v)).sorted().toArray();
    int n = sorted.length;
    if (n == 0) {
      return new Spread(Double.NaN, Double.NaN, Double.NaN, 0);
    }
    double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    return new Spread(median, sorted[0], sorted[n - 1], n);
  }

  /** @return the median */
  public double median() {
    return median;
  }

  /** @return the smallest value */
  public double min() {
    return min;
  }

  /** @return the largest value */
  public double max() {
    return max;
  }

  /** @return how many values it was taken over */
  public int count() {
    return count;
  }

  /**
   * @param decimals digits after the point
   * @return e.g. {@code 2.46 (2.10–3.05)}; just the value for a single repeat, "" when there is none
   */
  public String format(int decimals) {
    if (count == 0) {
      return "";
    }
    String f = "%." + decimals + "f";
    String m = String.format(Locale.ROOT, f, median);
    return count == 1 ? m : m + String.format(Locale.ROOT, " (" + f + "–" + f + ")", min, max);
  }

  @Override
  public String toString() {
    return format(2);
  }
}
