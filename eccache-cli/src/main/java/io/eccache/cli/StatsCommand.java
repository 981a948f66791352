package io.eccache.cli;

import alluxio.ClientContext;
import alluxio.client.metrics.RetryHandlingMetricsMasterClient;
import alluxio.conf.AlluxioConfiguration;
import alluxio.grpc.MetricValue;
import alluxio.master.MasterClientContext;
import io.eccache.client.CacheStats;
import io.eccache.client.EcCacheClient;
import io.eccache.client.SchemeUsage;
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
final class StatsCommand implements Callable<Integer>, ClusterCommand {
  @Mixin ClusterOptions cluster;
  @Mixin OutputOptions output;
  @Spec CommandSpec spec;

  @Override
  public ClusterOptions cluster() {
    return cluster;
  }

  @Override
  public Integer call() throws Exception {
    AlluxioConfiguration conf = cluster.configuration();
    CacheStats stats;
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
    out.printf("coordinator: %d live workers, %d objects%n", stats.liveWorkers(), stats.objects());
    out.printf("lookups %d, reads from cached layouts %d, commits %d, workers lost %d%n",
        stats.lookups(), stats.readsReported(), stats.commits(), stats.workersLost());
    out.printf("re-tuning: %d passes, splits added %d, dropped %d, repaired %d, repartitions %d,"
        + " %s moved, tasks pending %d, failed %d%n", stats.retunePasses(),
        stats.splitsAdded(), stats.splitsDropped(), stats.splitsRepaired(),
        stats.repartitions(), ByteSizes.format(stats.maintenanceBytes()),
        stats.tasksPending(), stats.tasksFailed());
    if (!stats.schemes().isEmpty()) {
      out.println();
      out.println("| scheme | objects | object bytes | cached bytes | memory | budget |");
      out.println("|---|---|---|---|---|---|");
      for (SchemeUsage s : stats.schemes()) {
        out.printf("| %s | %d | %s | %s | %.2fx | %s |%n", s.kind(), s.objects(),
            ByteSizes.format(s.objectBytes()),
            ByteSizes.format(s.cachedBytes()),
            s.memoryOverhead(),
            ByteSizes.format(s.budgetBytes()));
      }
    }
    if (!stats.packed().isEmpty()) {
      out.println();
      out.println("| packed namespace | values | value bytes | stripes | stripe bytes | memory"
          + " | waiting | waiting bytes |");
      out.println("|---|---|---|---|---|---|---|---|");
      for (CacheStats.PackedUsage p : stats.packed()) {
        out.printf("| %s | %d | %s | %d | %s | %.2fx | %d | %s |%n", p.namespace, p.values,
            ByteSizes.format(p.valueBytes), p.stripes, ByteSizes.format(p.stripeBytes),
            p.memory(), p.waitingValues, ByteSizes.format(p.waitingBytes));
      }
      out.printf("log nodes: %s%n", stats.logNodes().isEmpty() ? "none"
          : String.join(", ", stats.logNodes()));
    }
    if (!metrics.isEmpty()) {
      out.println();
      out.println("master metrics:");
      metrics.forEach((name, value) -> out.printf("  %-45s %,.0f%n", name, value));
    }
    return ExitCodes.OK;
  }

  private static Map<String, Object> toMap(CacheStats s, Map<String, Double> metrics) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("liveWorkers", s.liveWorkers());
    m.put("objects", s.objects());
    m.put("allocations", s.allocations());
    m.put("commits", s.commits());
    m.put("lookups", s.lookups());
    m.put("readsReported", s.readsReported());
    m.put("workersLost", s.workersLost());
    m.put("splitsAdded", s.splitsAdded());
    m.put("splitsDropped", s.splitsDropped());
    m.put("splitsRepaired", s.splitsRepaired());
    m.put("repartitions", s.repartitions());
    m.put("maintenanceBytes", s.maintenanceBytes());
    m.put("tasksPending", s.tasksPending());
    m.put("tasksFailed", s.tasksFailed());
    m.put("retunePasses", s.retunePasses());
    List<Map<String, Object>> schemes = new ArrayList<>();
    for (SchemeUsage st : s.schemes()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("scheme", st.kind().label());
      row.put("objects", st.objects());
      row.put("objectBytes", st.objectBytes());
      row.put("cachedBytes", st.cachedBytes());
      row.put("budgetBytes", st.budgetBytes());
      schemes.add(row);
    }
    m.put("schemes", schemes);
    List<Map<String, Object>> packed = new ArrayList<>();
    for (CacheStats.PackedUsage p : s.packed()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("namespace", p.namespace);
      row.put("values", p.values);
      row.put("valueBytes", p.valueBytes);
      row.put("stripes", p.stripes);
      row.put("stripeBytes", p.stripeBytes);
      row.put("waitingValues", p.waitingValues);
      row.put("waitingBytes", p.waitingBytes);
      packed.add(row);
    }
    m.put("packed", packed);
    m.put("logNodes", s.logNodes());
    m.put("metrics", metrics);
    return m;
  }
}
