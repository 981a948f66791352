package io.eccache.benchmarks.sim;

import io.eccache.benchmarks.ComparedScheme;
import io.eccache.benchmarks.report.LatencySummary;
import io.eccache.benchmarks.report.LoadImbalance;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * What one {@link Simulator#run} measured over its measured (post-warm-up) requests. Immutable: accessors
 * return copies of mutable parts.
 */
public final class SimulationResult {
  private final SimulationConfig config;
  private final ComparedScheme scheme;
  private final Histogram latencyMicros;
  private final long[] bytesPerServer;
  private final long usefulBytes;
  private final long storedBytes;
  private final long objectBytes;
  private final long decodeCount;
  private final long fallbackCount;
  private final long extraBytes;
  private final long savedBytes;
  private final long completedRequests;
  private final double measuredSeconds;
  private final double spRequestRatePerSec;
  private final int[] unitsByRank;
  private final long wallNanos;

  SimulationResult(SimulationConfig config, ComparedScheme scheme, Histogram latencyMicros, long[] bytesPerServer,
      long usefulBytes, long storedBytes, long objectBytes, long decodeCount,
      long fallbackCount, long extraBytes, long savedBytes, long completedRequests,
      double measuredSeconds, double spRequestRatePerSec,
      int[] unitsByRank, long wallNanos) {
    this.config = Objects.requireNonNull(config, "config");
    this.scheme = Objects.requireNonNull(scheme, "scheme");
    this.latencyMicros = latencyMicros.copy();
    this.bytesPerServer = bytesPerServer.clone();
    this.usefulBytes = usefulBytes;
    this.storedBytes = storedBytes;
    this.objectBytes = objectBytes;
    this.decodeCount = decodeCount;
    this.fallbackCount = fallbackCount;
    this.extraBytes = extraBytes;
    this.savedBytes = savedBytes;
    this.completedRequests = completedRequests;
    this.measuredSeconds = measuredSeconds;
    this.spRequestRatePerSec = spRequestRatePerSec;
    this.unitsByRank = unitsByRank.clone();
    this.wallNanos = wallNanos;
  }

  /** @return the configuration that was run */
  public SimulationConfig config() {
    return config;
  }

  /** @return the scheme that was run */
  public ComparedScheme scheme() {
    return scheme;
  }

  /**
   * @return a copy of the read latencies in microseconds, fallbacks included at their penalty latency
   */
  public Histogram latencyMicros() {
    return latencyMicros.copy();
  }

  /** @return mean, median, p99 and p99.9 of the read latencies */
  public LatencySummary latency() {
    return LatencySummary.of(latencyMicros);
  }

  /**
   * @return bytes each server sent for measured requests, cancelled transfers included up to their
   *     cancellation; a copy
   */
  public long[] bytesPerServer() {
    return bytesPerServer.clone();
  }

  /** @return bytes each server sent, keyed {@code server-<index>} (idle servers included) */
  public Map<String, Long> bytesByServer() {
    Map<String, Long> map = new LinkedHashMap<>();
    for (int s = 0; s < bytesPerServer.length; s++) {
      map.put("server-" + s, bytesPerServer[s]);
    }
    return map;
  }

  /** @return the EC-Cache paper's λ over {@link #bytesPerServer()}, in percent ({@link LoadImbalance}) */
  public double lambdaPercent() {
    return LoadImbalance.lambdaPercent(bytesByServer(), bytesPerServer.length, Math.max(1, usefulBytes));
  }

  /** @return SP-Cache's η over {@link #bytesPerServer()}, in percent (see {@link LoadImbalance}) */
  public double etaPercent() {
    return LoadImbalance.etaPercent(bytesByServer(), bytesPerServer.length);
  }

  /** @return bytes all servers sent */
  public long servedBytes() {
    long total = 0;
    for (long b : bytesPerServer) {
      total += b;
    }
    return total;
  }

  /** @return bytes of the objects the measured requests asked for (fallbacks included) */
  public long usefulBytes() {
    return usefulBytes;
  }

  /** @return bytes stored: every split, copy or partition, live or not */
  public long storedBytes() {
    return storedBytes;
  }

  /** @return memory used relative to one copy of every object, e.g. 1.15 */
  public double memoryFactor() {
    return (double) storedBytes / objectBytes;
  }

  /** @return measured EC reads that needed decoding (a data split was not among the first k) */
  public long decodeCount() {
    return decodeCount;
  }

  /** @return measured reads served from the under store because too few pieces were live */
  public long fallbackCount() {
    return fallbackCount;
  }

  /**
   * @return bytes sent by transfers beyond those the measured reads needed (EC's Δ extra splits), as far
   *     as late binding let them go; included in {@link #bytesPerServer()}
   */
  public long extraBytes() {
    return extraBytes;
  }

  /** @return bytes of those extra transfers that late binding stopped before they were sent */
  public long savedBytes() {
    return savedBytes;
  }

  /** @return {@link #extraBytes()} in percent of the bytes the reads needed (sent minus extra) */
  public double extraPercent() {
    long needed = servedBytes() - extraBytes;
    return needed > 0 ? 100.0 * extraBytes / needed : 0;
  }

  /** @return measured requests completed (equals the configured number) */
  public long completedRequests() {
    return completedRequests;
  }

  /** @return simulated time from the first measured request's issue to the last one's completion */
  public double measuredSeconds() {
    return measuredSeconds;
  }

  /** @return measured requests per simulated second */
  public double throughputPerSec() {
    return measuredSeconds > 0 ? completedRequests / measuredSeconds : 0;
  }

  /** @return the request rate SP-Cache's allocator was given; NaN for other schemes */
  public double spRequestRatePerSec() {
    return spRequestRatePerSec;
  }

  /**
   * @return per object, hottest first, the scheme's units: parities r for EC, copies for SR, partitions
   *     for SP, 1 for SINGLE; a copy
   */
  public int[] unitsByRank() {
    return unitsByRank.clone();
  }

  /** @return wall-clock time of the run (pilot runs included), nanoseconds */
  public long wallNanos() {
    return wallNanos;
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "SimulationResult{%s %s: memory %.4f, %s, λ %.1f%%, extra bytes"
        + " %.1f%%, decodes %d, fallbacks %d, %.1f req/s, wall %.2f s}", config.name(), scheme,
        memoryFactor(), latency(), lambdaPercent(), extraPercent(), decodeCount, fallbackCount,
        throughputPerSec(), wallNanos / 1e9);
  }
}
