package io.eccache.benchmarks.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencySummaryTest {

  /** 1, 2, ..., 1000 ms recorded in microseconds, with 3 significant digits. */
  private static Histogram oneToThousandMillis(int factor) {
    Histogram h = new Histogram(3);
    for (int ms = 1; ms <= 1000; ms++) {
      h.recordValue(ms * 1000L * factor);
    }
    return h;
  }

  /** HdrHistogram with 3 significant digits is within 1/1024 of the true value. */
  private static void assertClose(double expected, double actual) {
    assertEquals(expected, actual, expected / 1024, () -> "expected ~" + expected);
  }

  @Test
  void percentilesOfOneToThousand() {
    LatencySummary s = LatencySummary.of(oneToThousandMillis(1));
    assertEquals(1000, s.count());
    // mean = (1 + 1000) / 2 = 500.5 ms
    assertClose(500.5, s.meanMillis());
    // median: the 500th of 1000 values = 500 ms; p99: the 990th = 990 ms; p99.9: the 999th.
    assertClose(500, s.medianMillis());
    assertClose(990, s.p99Millis());
    assertClose(999, s.p999Millis());
    assertClose(1000, s.maxMillis());
  }

  @Test
  void ratioIsBaselineOverImproved() {
    // "SR" twice as slow as "EC" at every point -> SR/EC = 2 for every statistic.
    LatencySummary sr = LatencySummary.of(oneToThousandMillis(2));
    LatencySummary ec = LatencySummary.of(oneToThousandMillis(1));
    LatencySummary.Ratios r = sr.ratioTo(ec);
    assertEquals(2.0, r.mean(), 0.005);
    assertEquals(2.0, r.median(), 0.005);
    assertEquals(2.0, r.p99(), 0.005);
    assertEquals(2.0, r.p999(), 0.005);
    assertEquals("mean 2.00x, median 2.00x, p99 2.00x, p99.9 2.00x", r.toString());
    assertEquals(0.5, ec.ratioTo(sr).median(), 0.002);
  }

  @Test
  void exactValuesBelowTheSubBucketRange() {
    // Values up to 2047 us are exact with 3 digits: 100 us x 99 and 2000 us x 1.
    Histogram h = new Histogram(3);
    h.recordValueWithCount(100, 99);
    h.recordValue(2000);
    LatencySummary s = LatencySummary.of(h);
    // mean = (99 * 100 + 2000) / 100 = 119 us
    assertEquals(0.119, s.meanMillis(), 1e-12);
    assertEquals(0.1, s.medianMillis(), 1e-12);
    // p99 is the 99th value (still 100 us); p99.9 rounds to the 100th, 2000 us.
    assertEquals(0.1, s.p99Millis(), 1e-12);
    assertEquals(2.0, s.p999Millis(), 1e-12);
    assertEquals(2.0, s.maxMillis(), 1e-12);
    assertEquals("n=100, mean 0.12 ms, median 0.10 ms, p99 0.10 ms, p99.9 2.00 ms, max 2.00 ms",
        s.toString());
  }

  @Test
  void summaryDoesNotFollowLaterRecording() {
    Histogram h = oneToThousandMillis(1);
    LatencySummary s = LatencySummary.of(h);
    h.recordValue(10_000_000);
    assertEquals(1000, s.count());
    assertClose(1000, s.maxMillis());
  }

  @Test
  void emptyHistogramIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> LatencySummary.of(new Histogram(3)));
  }
}
