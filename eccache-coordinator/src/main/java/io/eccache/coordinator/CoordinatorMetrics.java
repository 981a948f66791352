package io.eccache.coordinator;

import alluxio.metrics.MetricsSystem;
import io.eccache.common.EcCacheMetrics;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.proto.SchemeStats;
import io.eccache.common.proto.StatsResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * The coordinator's counters (soft state, lost with a restart), the last re-tuning pass's memory per
 * scheme, their gauges in Alluxio's metrics system, and the {@code Stats} answer built from them.
 */
final class CoordinatorMetrics {
  final AtomicLong allocations = new AtomicLong();
  final AtomicLong commits = new AtomicLong();
  final AtomicLong lookups = new AtomicLong();
  /** GETs clients served from cached layouts and reported (ReportReads); not in {@link #lookups}. */
  final AtomicLong readsReported = new AtomicLong();
  final AtomicLong workersLost = new AtomicLong();
  final AtomicLong splitsAdded = new AtomicLong();
  final AtomicLong splitsDropped = new AtomicLong();
  final AtomicLong splitsRepaired = new AtomicLong();
  final AtomicLong repartitions = new AtomicLong();
  final AtomicLong maintenanceBytes = new AtomicLong();
  final AtomicLong tasksFailed = new AtomicLong();
  final AtomicLong retunePasses = new AtomicLong();
  /** Memory per scheme as of the last re-tuning pass. */
  private volatile Map<RedundancyScheme.Kind, SchemeStats> schemeStats = Map.of();

  void setSchemeStats(Map<RedundancyScheme.Kind, SchemeStats> stats) {
    schemeStats = Map.copyOf(stats);
  }

  /**
   * Publishes the counters and the last pass's memory per scheme as gauges in Alluxio's metrics
   * system, so they reach the master's sinks. Replaces those of an earlier instance in this JVM.
   *
   * @param tasksPending the maintenance tasks queued or handed out
   */
  void register(IntSupplier tasksPending) {
    Map<String, LongSupplier> gauges = new LinkedHashMap<>();
    gauges.put(EcCacheMetrics.OBJECTS,
        () -> schemeStats.values().stream().mapToLong(SchemeStats::getObjects).sum());
    gauges.put(EcCacheMetrics.LOOKUPS, lookups::get);
    gauges.put(EcCacheMetrics.READS_REPORTED, readsReported::get);
    gauges.put(EcCacheMetrics.SPLITS_ADDED, splitsAdded::get);
    gauges.put(EcCacheMetrics.SPLITS_DROPPED, splitsDropped::get);
    gauges.put(EcCacheMetrics.SPLITS_REPAIRED, splitsRepaired::get);
    gauges.put(EcCacheMetrics.REPARTITIONS, repartitions::get);
    gauges.put(EcCacheMetrics.WORKERS_LOST, workersLost::get);
    gauges.put(EcCacheMetrics.TASKS_PENDING, tasksPending::getAsInt);
    for (RedundancyScheme.Kind kind : RedundancyScheme.Kind.values()) {
      gauges.put(EcCacheMetrics.cachedBytes(kind), () -> {
        SchemeStats st = schemeStats.get(kind);
        return st == null ? 0 : st.getCachedBytes();
      });
      gauges.put(EcCacheMetrics.objectBytes(kind), () -> {
        SchemeStats st = schemeStats.get(kind);
        return st == null ? 0 : st.getObjectBytes();
      });
    }
    gauges.forEach((name, value) -> {
      String metric = MetricsSystem.getMasterMetricName(name);
      MetricsSystem.removeMetrics(metric);
      MetricsSystem.registerGaugeIfAbsent(metric, value::getAsLong);
    });
  }

  /** The {@code Stats} answer: these counters with what only the master's other parts know. */
  StatsResponse stats(int liveWorkers, int objects, int tasksPending) {
    return StatsResponse.newBuilder().setLiveWorkers(liveWorkers)
        .setObjects(objects).setAllocations(allocations.get())
        .setCommits(commits.get()).setLookups(lookups.get()).setWorkersLost(workersLost.get())
        .setSplitsAdded(splitsAdded.get()).setSplitsDropped(splitsDropped.get())
        .setSplitsRepaired(splitsRepaired.get()).setRepartitions(repartitions.get())
        .setMaintenanceBytes(maintenanceBytes.get()).setTasksPending(tasksPending)
        .setTasksFailed(tasksFailed.get()).setRetunePasses(retunePasses.get())
        .setReadsReported(readsReported.get())
        .addAllSchemes(schemeStats.values()).build();
  }
}
