package io.eccache.benchmarks.report;

import java.util.Locale;
import java.util.Objects;
import org.HdrHistogram.AbstractHistogram;

/**
 * Read-latency statistics the paper reports (Fig. 8), taken once from an HdrHistogram recorded in
 * microseconds and kept in milliseconds.
 *
 * <p>Values carry HdrHistogram's precision (a histogram with 3 significant digits is within 0.1%).
 * The summary copies the numbers, so later recording into the histogram does not change it.
 */
public final class LatencySummary {

  private static final double MICROS_PER_MILLI = 1000.0;

  private final long count;
  private final double mean;
  private final double median;
  private final double p99;
  private final double p999;
  private final double max;

  private LatencySummary(long count, double mean, double median, double p99, double p999,
      double max) {
    this.count = count;
    this.mean = mean;
    this.median = median;
    this.p99 = p99;
    this.p999 = p999;
    this.max = max;
  }

  /**
   * Summarises a histogram of latencies in microseconds.
   *
   * @param latenciesMicros recorded latencies, in microseconds; must not be empty
   * @return the summary, in milliseconds
   * @throws IllegalArgumentException if the histogram is empty (HdrHistogram would report zeros,
   *     which would pass for real latencies and make ratios infinite)
   */
  public static LatencySummary of(AbstractHistogram latenciesMicros) {
    Objects.requireNonNull(latenciesMicros, "latenciesMicros");
    long n = latenciesMicros.getTotalCount();
    if (n == 0) {
      throw new IllegalArgumentException("histogram is empty, count " + n);
    }
    return new LatencySummary(n,
        latenciesMicros.getMean() / MICROS_PER_MILLI,
        latenciesMicros.getValueAtPercentile(50) / MICROS_PER_MILLI,
        latenciesMicros.getValueAtPercentile(99) / MICROS_PER_MILLI,
        latenciesMicros.getValueAtPercentile(99.9) / MICROS_PER_MILLI,
        latenciesMicros.getMaxValue() / MICROS_PER_MILLI);
  }

  /** @return number of recorded latencies */
  public long count() {
    return count;
  }

  /** @return mean latency in milliseconds */
  public double meanMillis() {
    return mean;
  }

  /** @return median (50th percentile) latency in milliseconds */
  public double medianMillis() {
    return median;
  }

  /** @return 99th percentile latency in milliseconds */
  public double p99Millis() {
    return p99;
  }

  /** @return 99.9th percentile latency in milliseconds */
  public double p999Millis() {
    return p999;
  }

  /** @return largest recorded latency in milliseconds */
  public double maxMillis() {
    return max;
  }

  /**
   * Latency improvement of {@code other} over this summary, as the paper defines it: this / other
   * per statistic. So {@code sr.ratioTo(ec)} is "SR/EC", and a value above 1 means {@code other}
   * is faster.
   *
   * @param other the summary to divide by
   * @return this / other for mean, median, p99 and p99.9; infinite or NaN where other's value is 0
   */
  public Ratios ratioTo(LatencySummary other) {
    Objects.requireNonNull(other, "other");
    return new Ratios(mean / other.mean, median / other.median, p99 / other.p99,
        p999 / other.p999);
  }

  /** @return e.g. {@code "n=1000, mean 500.50 ms, median 500.22 ms, ..."} */
  @Override
  public String toString() {
    return String.format(Locale.ROOT,
        "n=%d, mean %.2f ms, median %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms",
        count, mean, median, p99, p999, max);
  }

  /**
   * Per-statistic ratios {@code baseline / other} from {@link LatencySummary#ratioTo}; above 1
   * means {@code other} is faster.
   */
  public static final class Ratios {
    private final double mean;
    private final double median;
    private final double p99;
    private final double p999;

    private Ratios(double mean, double median, double p99, double p999) {
      this.mean = mean;
      this.median = median;
      this.p99 = p99;
      this.p999 = p999;
    }

    /** @return ratio of the means */
    public double mean() {
      return mean;
    }

    /** @return ratio of the medians */
    public double median() {
      return median;
    }

    /** @return ratio of the 99th percentiles */
    public double p99() {
      return p99;
    }

    /** @return ratio of the 99.9th percentiles */
    public double p999() {
      return p999;
    }

    /** @return e.g. {@code "mean 2.52x, median 2.64x, p99 1.76x, p99.9 1.79x"} */
    @Override
    public String toString() {
      return String.format(Locale.ROOT, "mean %.2fx, median %.2fx, p99 %.2fx, p99.9 %.2fx",
          mean, median, p99, p999);
    }
  }
}
