package io.eccache.cli;

import io.eccache.benchmarks.cluster.BenchReport;
import io.eccache.benchmarks.cluster.BenchSettings;
import io.eccache.benchmarks.cluster.ClusterBenchmark;
import io.eccache.benchmarks.cluster.Scenario;
import io.eccache.common.EcCacheKeys;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.LoopbackShaper;
import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code eccache bench}: the paper's evaluation side by side on one in-process cluster, each worker
 * on its own loopback address with its own tc-capped link (when root), EC-Cache, selective
 * replication and SP-Cache at the same memory, one scenario per figure.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Reproduce the EC-Cache paper's figures on an in-process cluster with shaped "
        + "per-worker links; results, summaries and plots under --out.")
final class BenchCommand implements Callable<Integer> {
  /** Workers of the default run; {@code eccache sim --preset validate} simulates the same. */
  static final int DEFAULT_WORKERS = 12;
  /** Per-worker link cap of the default run, Mbit/s. */
  static final int DEFAULT_WORKER_MBIT = 200;

  @Option(names = "--profile", description = "quick (~15 min on 2 cores) or full (default "
      + "${DEFAULT-VALUE}).")
  String profile = "quick";

  @Option(names = "--scenario", description = "Scenarios to run (default: all): "
      + "skew, background, failure, size, k, delta, writes.")
  List<String> scenarios = new ArrayList<>();

  @Option(names = "--workers", description = "Alluxio workers (default ${DEFAULT-VALUE}).")
  int workers = DEFAULT_WORKERS;

  @Option(names = "--worker-mbit", description = "Cap on each worker's link in Mbit/s "
      + "(default ${DEFAULT-VALUE}); needs root, else the run is unshaped and says so.")
  int workerMbit = DEFAULT_WORKER_MBIT;

  @Option(names = "--out", description = "Results directory (default ${DEFAULT-VALUE}).")
  Path out = Paths.get("benchmarks", "results");

  /** For the smoke test: shrink every run to this many objects and requests. */
  @Option(names = "--tiny", hidden = true)
  boolean tiny;

  private final PrintStream progress = System.err;

  @Override
  public Integer call() throws Exception {
    List<Scenario> chosen = new ArrayList<>();
    for (Scenario s : Scenario.all(profile)) {
      if (scenarios.isEmpty() || scenarios.contains(s.name)) {
        chosen.add(tiny ? shrink(s) : s);
      }
    }
    if (chosen.isEmpty()) {
      throw new IllegalArgumentException("no scenario named " + scenarios
          + ": choose from skew, background, failure, size, k, delta, writes");
    }
    long largest = 0;
    for (Scenario s : chosen) {
      for (BenchSettings b : s.runs.values()) {
        largest = Math.max(largest, b.objects * b.objectBytes * b.schemes.size());
      }
    }
    long perWorker = Math.max(256L << 20, 3 * largest / workers);
    progress.printf("eccache bench (%s): starting %d workers...%n", profile, workers);
    try (EmbeddedCluster cluster = EmbeddedCluster.builder().workers(workers)
        .workerMemoryBytes(perWorker).workerTimeout("5s")
        .property(EcCacheKeys.NAMESPACE_SCHEMES, "sr=replica,sp=partition")
        // Periods long enough that popularity outlives the settling between learning and
        // measuring (it decays 5x per idle period), short enough to learn in one pass.
        .property(EcCacheKeys.POPULARITY_PERIOD, "5s").property(EcCacheKeys.RETUNE_INTERVAL, "1s")
        .property(EcCacheKeys.PARTITION_SERVER_BANDWIDTH, (workerMbit / 8) + "MB")
        .start();
        LoopbackShaper shaper = shape(cluster)) {
      if (shaper == null) {
        progress.println("eccache bench: tc cannot shape loopback here (needs root and HTB):"
            + " running UNSHAPED, CPU-bound; results are labelled so");
      }
      ClusterBenchmark bench = new ClusterBenchmark(cluster, shaper,
          line -> progress.print("\r" + line + "        "), tiny ? 2 : 6);
      for (Scenario scenario : chosen) {
        progress.printf("%n== %s (%s)%n", scenario.name, scenario.figure);
        Map<String, ClusterBenchmark.Outcome> outcomes = new LinkedHashMap<>();
        for (Map.Entry<String, BenchSettings> run : scenario.runs.entrySet()) {
          progress.printf("%n-- %s: %s%n", run.getKey(), run.getValue());
          outcomes.put(run.getKey(), bench.run(run.getValue()));
        }
        Path dir = out.resolve(scenario.name);
        String summary = BenchReport.write(dir, scenario, outcomes, workers,
            shaper == null ? "unshaped" : workerMbit + " Mbit/s per worker");
        progress.println();
        System.out.println(summary);
      }
    }
    return 0;
  }

  private LoopbackShaper shape(EmbeddedCluster cluster) throws Exception {
    if (!LoopbackShaper.isAvailable()) {
      return null;
    }
    Map<String, Integer> caps = new LinkedHashMap<>();
    for (int i = 0; i < cluster.workerCount(); i++) {
      caps.put(cluster.workerHost(i), workerMbit * 1000);
    }
    return LoopbackShaper.limitEach(caps);
  }

  private static Scenario shrink(Scenario s) {
    for (BenchSettings b : s.runs.values()) {
      b.objects = 4;
      b.objectBytes = Math.min(b.objectBytes, 2L << 20);
      b.requests = 12;
      b.learning = 8;
      b.clients = 2;
    }
    return s;
  }
}
