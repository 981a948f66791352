package io.eccache.cli;

import alluxio.metrics.MetricsSystem;
import com.codahale.metrics.Counter;
import com.codahale.metrics.Metric;
import com.codahale.metrics.Timer;
import io.eccache.client.EcCacheClient;
import io.eccache.client.ReadStatistics;
import io.eccache.common.EcCacheMetrics;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code --metrics}: this process's own eccache client metrics (the {@code EcCache*} counters and
 * timers in Alluxio's metrics system, docs/metrics.md) and the client's read statistics, after
 * the command. A short-lived command is the only place to see them: Alluxio's client metrics
 * heartbeat forwards only Alluxio's own cluster-aggregated counters to the master.
 */
final class ClientMetricsReport {
  /** The client's metric names (EcCacheMetrics), without the master's. */
  private static final Set<String> NAMES = Set.of(EcCacheMetrics.GET_LATENCY,
      EcCacheMetrics.PUT_LATENCY, EcCacheMetrics.SPLITS_READ, EcCacheMetrics.READS_STOPPED_EARLY,
      EcCacheMetrics.READS_DISCARDED,
      EcCacheMetrics.READS_FAILED, EcCacheMetrics.BYTES_READ, EcCacheMetrics.BYTES_WRITTEN,
      EcCacheMetrics.SPLITS_REPLACED, EcCacheMetrics.DECODE_TIME, EcCacheMetrics.ENCODE_TIME,
      EcCacheMetrics.UNDER_STORE_FALLBACKS, EcCacheMetrics.MAINTENANCE_TASKS,
      EcCacheMetrics.UPDATES_IN_PLACE);

  private ClientMetricsReport() {}

  /** The metrics as name to value (timers: count and mean milliseconds). */
  static Map<String, Object> of(EcCacheClient cache) {
    Map<String, Object> m = new TreeMap<>();
    for (Map.Entry<String, Metric> e : MetricsSystem.METRIC_REGISTRY.getMetrics().entrySet()) {
      // Alluxio names them Client.NAME (plus tags after a dot in some versions).
      String[] parts = e.getKey().split("\\.");
      if (parts.length < 2 || !parts[0].equals("Client") || !NAMES.contains(parts[1])) {
        continue;
      }
      String name = parts[1];
      if (e.getValue() instanceof Counter) {
        m.put(name, ((Counter) e.getValue()).getCount());
      } else if (e.getValue() instanceof Timer) {
        Timer t = (Timer) e.getValue();
        m.put(name + ".count", t.getCount());
        m.put(name + ".meanMs", t.getSnapshot().getMean() / 1e6);
      }
    }
    ReadStatistics reads = cache.readStatistics();
    Map<String, Object> result = new LinkedHashMap<>(m);
    result.put("decodes", reads.decodes());
    result.put("underStoreFallbacks", reads.fallbacks());
    result.put("bytesByWorker", reads.bytesByWorker());
    return result;
  }

  /** The metrics, one per line, on stderr (stdout may hold the object). */
  static void print(PrintWriter err, EcCacheClient cache) {
    err.println("client metrics:");
    of(cache).forEach((name, value) -> err.printf("  %-40s %s%n", name,
        value instanceof Double ? String.format("%.3f", (Double) value) : value));
    err.flush();
  }
}
