package io.eccache.benchmarks.sim.agar;

import java.util.Arrays;
import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * One policy's measured reads in one simulated run: exact latency statistics (nearest-rank percentiles over
 * the recorded microseconds, so a fixed latency reads back exactly), hit counts and the run's simulated
 * length. Immutable.
 */
public final class AgarRunResult {
  private final AgarSimConfig config;
  private final CachePolicySpec policy;
  private final long[] sortedMicros;
  private final long hits;
  private final long fullHits;
  private final long cachedChunkReads;
  private final double simulatedSeconds;
  private final int ticks;

  AgarRunResult(AgarSimConfig config, CachePolicySpec policy, long[] latenciesMicros, long hits,
      long fullHits, long cachedChunkReads, double simulatedSeconds, int ticks) {
    this.config = Objects.requireNonNull(config, "config");
    this.policy = Objects.requireNonNull(policy, "policy");
    if (latenciesMicros.length == 0) {
      throw new IllegalArgumentException("a run must measure at least one read");
    }
    this.sortedMicros = latenciesMicros.clone();
    Arrays.sort(this.sortedMicros);
    this.hits = hits;
    this.fullHits = fullHits;
    this.cachedChunkReads = cachedChunkReads;
    this.simulatedSeconds = simulatedSeconds;
    this.ticks = ticks;
  }

  /** @return the run's settings */
  public AgarSimConfig config() {
    return config;
  }

  /** @return the policy simulated */
  public CachePolicySpec policy() {
    return policy;
  }

  /** @return reads measured */
  public int requests() {
    return sortedMicros.length;
  }

  /** @return the mean read latency, ms */
  public double meanMillis() {
    double sum = 0;
    for (long v : sortedMicros) {
      sum += v;
    }
    return sum / sortedMicros.length / 1000.0;
  }

  /** @return the median read latency (nearest rank), ms */
  public double medianMillis() {
    return percentileMillis(50);
  }

  /** @return the 99th percentile read latency (nearest rank), ms */
  public double p99Millis() {
    return percentileMillis(99);
  }

  /**
   * @param percent in (0, 100]
   * @return the nearest-rank percentile, ms
   */
  public double percentileMillis(double percent) {
    if (!(percent > 0 && percent <= 100)) {
      throw new IllegalArgumentException("percent must be in (0, 100] but was " + percent);
    }
    int rank = (int) Math.ceil(percent / 100.0 * sortedMicros.length);
    return sortedMicros[Math.max(rank, 1) - 1] / 1000.0;
  }

  /** @return the largest read latency, ms */
  public double maxMillis() {
    return sortedMicros[sortedMicros.length - 1] / 1000.0;
  }

  /** @return reads with at least one chunk from the cache (the paper's partial plus total hits), % */
  public double hitPercent() {
    return 100.0 * hits / sortedMicros.length;
  }

  /** @return reads with all k chunks from the cache (the paper's total hits), % */
  public double fullHitPercent() {
    return 100.0 * fullHits / sortedMicros.length;
  }

  /** @return chunks read from the cache, in % of the k chunks every read needs */
  public double chunkHitPercent() {
    return 100.0 * cachedChunkReads / ((double) sortedMicros.length * config.layout().k());
  }

  /** @return simulated seconds from the first read to the last measured one's completion */
  public double simulatedSeconds() {
    return simulatedSeconds;
  }

  /** @return periods closed (reconfigurations) during the run */
  public int ticks() {
    return ticks;
  }

  /** @return the measured latencies in a histogram (microseconds), for a CDF plot */
  public Histogram histogramMicros() {
    Histogram h = new Histogram(3);
    for (long v : sortedMicros) {
      h.recordValue(v);
    }
    return h;
  }
}
