package io.eccache.benchmarks.report;

import java.util.Map;
import java.util.Objects;

/**
 * Load-imbalance metrics over the bytes each worker served.
 *
 * <p>Workers are identified by name; a worker absent from the map served nothing, which is why the
 * worker count is passed separately (an idle server still lowers the ideal average).
 */
public final class LoadImbalance {

  private LoadImbalance() {}

  /**
   * The EC-Cache paper's percent imbalance (OSDI'16, eq. 1):
   * {@code λ = (L_max − L_avg*) / L_avg* × 100} with {@code L_avg* = usefulBytes / workers}.
   *
   * <p>{@code L_avg*} is the oracle's load: only the object bytes clients asked for, spread evenly,
   * so the bandwidth overhead of extra or cancelled reads shows up in {@code L_max} but not in the
   * baseline. Passing the served total as {@code usefulBytes} gives {@link #etaPercent} instead.
   *
   * @param bytesByWorker bytes read from each worker that served anything
   * @param workers number of servers, including idle ones; at least {@code bytesByWorker.size()}
   *     and at least 1
   * @param usefulBytes object bytes actually requested, without overhead; must be positive
   * @return λ in percent; {@code -100} if no worker served anything
   * @throws IllegalArgumentException if {@code workers} or {@code usefulBytes} is out of range or
   *     a worker's byte count is null or negative
   */
  public static double lambdaPercent(Map<String, Long> bytesByWorker, int workers,
      long usefulBytes) {
    long max = max(bytesByWorker, workers);
    if (usefulBytes <= 0) {
      throw new IllegalArgumentException("usefulBytes must be > 0, got " + usefulBytes);
    }
    double avgStar = (double) usefulBytes / workers;
    return (max - avgStar) / avgStar * 100;
  }

  /**
   * SP-Cache's imbalance {@code η = (L_max − L_avg) / L_avg × 100} with
   * {@code L_avg = total served bytes / workers}, i.e. measured against what was actually served,
   * overhead included.
   *
   * @param bytesByWorker bytes read from each worker that served anything
   * @param workers number of servers, including idle ones; at least {@code bytesByWorker.size()}
   *     and at least 1
   * @return η in percent; 0 if nothing was served (no load, so no imbalance)
   * @throws IllegalArgumentException if {@code workers} is out of range or a worker's byte count is
   *     null or negative
   */
  public static double etaPercent(Map<String, Long> bytesByWorker, int workers) {
    long max = max(bytesByWorker, workers);
    long total = 0;
    for (long b : bytesByWorker.values()) {
      total = Math.addExact(total, b);
    }
    if (total == 0) {
      return 0;
    }
    double avg = (double) total / workers;
    return (max - avg) / avg * 100;
  }

  /**
   * Extra bytes served beyond what clients asked for, {@code (served − useful) / useful × 100}:
   * the cost of EC-Cache's additional reads (paper §7.2).
   *
   * @param servedBytes bytes all workers served; not negative
   * @param usefulBytes object bytes actually requested; must be positive
   * @return overhead in percent; negative if less was served than requested (e.g. failed reads)
   * @throws IllegalArgumentException if {@code servedBytes} is negative or {@code usefulBytes} is
   *     not positive
   */
  public static double bandwidthOverheadPercent(long servedBytes, long usefulBytes) {
    if (servedBytes < 0) {
      throw new IllegalArgumentException("servedBytes must be >= 0, got " + servedBytes);
    }
    if (usefulBytes <= 0) {
      throw new IllegalArgumentException("usefulBytes must be > 0, got " + usefulBytes);
    }
    return (double) (servedBytes - usefulBytes) / usefulBytes * 100;
  }

  /** Validates the map and worker count shared by both metrics and returns {@code L_max}. */
  private static long max(Map<String, Long> bytesByWorker, int workers) {
    Objects.requireNonNull(bytesByWorker, "bytesByWorker");
    if (workers < 1 || workers < bytesByWorker.size()) {
      throw new IllegalArgumentException("workers must be >= 1 and >= the " + bytesByWorker.size()
          + " workers in bytesByWorker, got " + workers);
    }
    long max = 0;
    for (Map.Entry<String, Long> e : bytesByWorker.entrySet()) {
      Long b = e.getValue();
      if (b == null || b < 0) {
        throw new IllegalArgumentException(
            "bytes served by worker " + e.getKey() + " must be >= 0, got " + b);
      }
      max = Math.max(max, b);
    }
    return max;
  }
}
