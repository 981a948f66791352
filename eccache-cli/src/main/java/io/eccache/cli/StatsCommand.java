package io.eccache.cli;

import alluxio.ClientContext;
import alluxio.client.metrics.RetryHandlingMetricsMasterClient;
import alluxio.conf.AlluxioConfiguration;
import alluxio.grpc.MetricValue;
import alluxio.master.MasterClientContext;
import io.eccache.client.EcCacheClient;
import io.eccache.common.SchemeProtos;
import io.eccache.common.proto.SchemeStats;
import io.eccache.common.proto.StatsResponse;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code eccache stats}: the coordinator's counters, memory per scheme against its budget, and the
 * eccache metrics the master's metrics system holds (what Alluxio's sinks export).
 */
@Command(name = "stats", mixinStandardHelpOptions = true,
    description = "Show the coordinator's counters, memory per scheme and the master's eccache "
        + "metrics.")
final class StatsCommand implements Callable<Integer> {
  @Mixin ClusterOptions cluster;
  @Mixin OutputOptions output;
  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    AlluxioConfiguration conf = cluster.configuration();
    StatsResponse stats;
    try (EcCacheClient cache = EcCacheClient.create(conf)) {
      stats = cache.stats();
    }
    Map<String, Double> metrics = new TreeMap<>();
    try (RetryHandlingMetricsMasterClient master = new RetryHandlingMetricsMasterClient(
        MasterClientContext.newBuilder(ClientContext.create(conf)).build())) {
      for (Map.Entry<String, MetricValue> m : master.getMetrics().entrySet()) {
        if (m.getKey().contains("EcCache") && m.getValue().hasDoubleValue()) {
          metrics.put(m.getKey(), m.getValue().getDoubleValue());
        }
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    if (output.json) {
      Json.print(out, toMap(stats, metrics));
      return ExitCodes.OK;
    }
    out.printf("coordinator at %s: %d live workers, %d objects%n", ClusterOptions.masterOf(conf),
        stats.getLiveWorkers(), stats.getObjects());
    out.printf("lookups %d, commits %d, workers lost %d%n", stats.getLookups(),
        stats.getCommits(), stats.getWorkersLost());
    out.printf("re-tuning: %d passes, splits added %d, dropped %d, repaired %d, repartitions %d,"
        + " %s moved, tasks pending %d, failed %d%n", stats.getRetunePasses(),
        stats.getSplitsAdded(), stats.getSplitsDropped(), stats.getSplitsRepaired(),
        stats.getRepartitions(), ByteSizes.format(stats.getMaintenanceBytes()),
        stats.getTasksPending(), stats.getTasksFailed());
    if (stats.getSchemesCount() > 0) {
      out.println();
      out.println("| scheme | objects | object bytes | cached bytes | memory | budget |");
      out.println("|---|---|---|---|---|---|");
      for (SchemeStats s : stats.getSchemesList()) {
        out.printf("| %s | %d | %s | %s | %.2fx | %s |%n", SchemeProtos.fromProto(s.getKind()), s.getObjects(),
            ByteSizes.format(s.getObjectBytes()),
            ByteSizes.format(s.getCachedBytes()),
            s.getObjectBytes() == 0 ? 0 : (double) s.getCachedBytes() / s.getObjectBytes(),
            ByteSizes.format(s.getBudgetBytes()));
      }
    }
    if (!metrics.isEmpty()) {
      out.println();
      out.println("master metrics:");
      metrics.forEach((name, value) -> out.printf("  %-45s %,.0f%n", name, value));
    }
    return ExitCodes.OK;
  }

  private static Map<String, Object> toMap(StatsResponse s, Map<String, Double> metrics) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("liveWorkers", s.getLiveWorkers());
    m.put("objects", s.getObjects());
    m.put("allocations", s.getAllocations());
    m.put("commits", s.getCommits());
    m.put("lookups", s.getLookups());
    m.put("workersLost", s.getWorkersLost());
    m.put("splitsAdded", s.getSplitsAdded());
    m.put("splitsDropped", s.getSplitsDropped());
    m.put("splitsRepaired", s.getSplitsRepaired());
    m.put("repartitions", s.getRepartitions());
    m.put("maintenanceBytes", s.getMaintenanceBytes());
    m.put("tasksPending", s.getTasksPending());
    m.put("tasksFailed", s.getTasksFailed());
    m.put("retunePasses", s.getRetunePasses());
    List<Map<String, Object>> schemes = new ArrayList<>();
    for (SchemeStats st : s.getSchemesList()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("scheme", SchemeProtos.fromProto(st.getKind()).label());
      row.put("objects", st.getObjects());
      row.put("objectBytes", st.getObjectBytes());
      row.put("cachedBytes", st.getCachedBytes());
      row.put("budgetBytes", st.getBudgetBytes());
      schemes.add(row);
    }
    m.put("schemes", schemes);
    m.put("metrics", metrics);
    return m;
  }
}
