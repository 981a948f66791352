package io.eccache.benchmarks.report;

import java.util.Arrays;
import java.util.Locale;

/**
 * The median of repeated measurements of one quantity with their range, as results tables show it:
 * {@code 2.46 [2.10–3.02]}. The median of an even count is the mean of the middle two.
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
   * @param values one per repetition; at least one, all finite
   * @throws IllegalArgumentException if there is none or one is not finite
   */
  public static Spread of(double... values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("no values to take the median of");
    }
    double[] v = values.clone();
    for (double x : v) {
      if (!Double.isFinite(x)) {
        throw new IllegalArgumentException("not finite: " + Arrays.toString(values));
      }
    }
    Arrays.sort(v);
    int n = v.length;
    double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    return new Spread(median, v[0], v[n - 1], n);
  }

  /** The median. */
  public double median() {
    return median;
  }

  /** The smallest value. */
  public double min() {
    return min;
  }

  /** The largest value. */
  public double max() {
    return max;
  }

  /** How many values it summarises. */
  public int count() {
    return count;
  }

  /** The median alone when there is one value, else "median [min–max]", with {@code format}. */
  public String format(String format) {
    String m = String.format(Locale.ROOT, format, median);
    if (count == 1) {
      return m;
    }
    return m + " [" + String.format(Locale.ROOT, format, min) + "–"
        + String.format(Locale.ROOT, format, max) + "]";
  }

  /** {median, min, max} in that order, for a summary.json. */
  public java.util.Map<String, Object> toMap() {
    java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
    m.put("median", median());
    m.put("min", min());
    m.put("max", max());
    return m;
  }

  @Override
  public String toString() {
    return format("%.2f");
  }
}
