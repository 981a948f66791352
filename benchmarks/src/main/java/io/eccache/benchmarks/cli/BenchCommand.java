package io.eccache.benchmarks.cli;

import alluxio.client.file.FileSystemContext;
import io.eccache.benchmarks.cluster.BenchCluster;
import io.eccache.benchmarks.cluster.BenchReport;
import io.eccache.benchmarks.cluster.BenchSettings;
import io.eccache.benchmarks.cluster.ClusterBenchmark;
import io.eccache.benchmarks.cluster.Scenario;
import io.eccache.cli.ClusterOptions;
import io.eccache.cli.ExitCodes;
import io.eccache.common.MasterKeys;
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
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code eccache bench}: the paper's evaluation side by side on one in-process cluster, each worker
 * on its own loopback address with its own tc-capped link (when root), EC-Cache, selective
 * replication and SP-Cache at the same memory, one scenario per figure.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Reproduce the EC-Cache paper's figures on an in-process cluster with shaped "
        + "per-worker links (or, unshaped, on a running one: --master); results, summaries and "
        + "plots under --out.")
final class BenchCommand implements Callable<Integer> {
  /** Workers of the default run; {@code eccache sim --preset validate} simulates the same. */
  static final int DEFAULT_WORKERS = 12;
  /** Per-worker link cap of the default run, Mbit/s. */
  static final int DEFAULT_WORKER_MBIT = 200;

  @Option(names = "--profile", description = "quick (~15 min on 2 cores) or full (default "
      + "${DEFAULT-VALUE}).")
  String profile = "quick";

  @Option(names = "--scenario", description = "Scenarios to run (default: all): "
      + "skew, background, failure, size, k, delta, writes, spcache.")
  List<String> scenarios = new ArrayList<>();

  @Option(names = "--workers", description = "Alluxio workers (default ${DEFAULT-VALUE}).")
  int workers = DEFAULT_WORKERS;

  @Option(names = "--worker-mbit", description = "Cap on each worker's link in Mbit/s "
      + "(default ${DEFAULT-VALUE}); needs root, else the run is unshaped and says so.")
  int workerMbit = DEFAULT_WORKER_MBIT;

  @Option(names = "--out", description = "Results directory (default ${DEFAULT-VALUE}).")
  Path out = Paths.get("benchmarks", "results");

  @Option(names = "--client-jvms", description = "Run each closed-loop measured phase's readers "
      + "in this many JVMs of their own, as the paper's separate client machines (default "
      + "${DEFAULT-VALUE}: threads in this JVM).")
  int clientJvms = 0;

  @Mixin ClusterOptions cluster;

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
        for (BenchSettings run : s.runs.values()) {
          run.clientProcesses = run.arrivalsPerSecond > 0 ? 0 : clientJvms;
        }
      }
    }
    if (chosen.isEmpty()) {
      throw new IllegalArgumentException("no scenario named " + scenarios
          + ": choose from skew, background, failure, size, k, delta, writes, spcache");
    }
    if (cluster.master != null) {
      return runRemote(chosen);
    }
    long largest = 0;
    for (Scenario s : chosen) {
      for (BenchSettings b : s.runs.values()) {
        largest = Math.max(largest, b.objects * b.objectBytes * b.schemes.size());
      }
    }
    long perWorker = Math.max(256L << 20, 3 * largest / workers);
    progress.printf("eccache bench (%s): starting %d workers...%n", profile, workers);
    try (EmbeddedCluster embedded = EmbeddedCluster.builder().workers(workers)
        .workerMemoryBytes(perWorker).workerTimeout("5s")
        .property(MasterKeys.NAMESPACE_SCHEMES, "sr=replica,sp=partition")
        // Periods long enough that popularity outlives the settling between learning and
        // measuring (it decays 5x per idle period), short enough to learn in one pass.
        .property(MasterKeys.POPULARITY_PERIOD, "5s").property(MasterKeys.RETUNE_INTERVAL, "1s")
        .property(MasterKeys.PARTITION_SERVER_BANDWIDTH, (workerMbit / 8) + "MB")
        .start();
        LoopbackShaper shaper = shape(embedded)) {
      if (shaper == null) {
        progress.println("eccache bench: tc cannot shape loopback here (needs root and HTB):"
            + " running UNSHAPED, CPU-bound; results are labelled so");
      }
      runAll(chosen, new ClusterBenchmark(BenchCluster.of(embedded), shaper,
          line -> progress.print("\r" + line + "        "), tiny ? 2 : 6), workers,
          shaper == null ? "unshaped" : workerMbit + " Mbit/s per worker");
    }
    return ExitCodes.OK;
  }

  /**
   * Against a running cluster: no shaping and no worker it could stop or send from, so the
   * failure and background scenarios are left out, saying so.
   */
  private int runRemote(List<Scenario> chosen) throws Exception {
    List<Scenario> possible = new ArrayList<>();
    for (Scenario s : chosen) {
      boolean needsWorkers = s.runs.values().stream()
          .anyMatch(b -> b.deadWorkers > 0 || b.backgroundFraction > 0);
      if (needsWorkers) {
        progress.printf("eccache bench: skipping %s: it stops workers or sends from their "
            + "addresses, which only the in-process cluster allows%n", s.name);
      } else {
        possible.add(s);
      }
    }
    try (FileSystemContext context = FileSystemContext.create(cluster.configuration())) {
      BenchCluster remote = BenchCluster.remote(context);
      progress.printf("eccache bench (%s): %d workers at %s, unshaped%n", profile,
          remote.workerCount(), cluster.master);
      runAll(possible, new ClusterBenchmark(remote, null,
          line -> progress.print("\r" + line + "        "), tiny ? 2 : 6), remote.workerCount(),
          "running cluster at " + cluster.master + ", unshaped");
    }
    return ExitCodes.OK;
  }

  private void runAll(List<Scenario> chosen, ClusterBenchmark bench, int workerCount,
      String conditions) throws Exception {
    for (Scenario scenario : chosen) {
      progress.printf("%n== %s (%s)%n", scenario.name, scenario.figure);
      Map<String, ClusterBenchmark.Outcome> outcomes = new LinkedHashMap<>();
      for (Map.Entry<String, BenchSettings> run : scenario.runs.entrySet()) {
        progress.printf("%n-- %s: %s%n", run.getKey(), run.getValue());
        outcomes.put(run.getKey(), bench.run(run.getValue()));
      }
      Path dir = out.resolve(scenario.name);
      String summary = BenchReport.write(dir, scenario, outcomes, workerCount, conditions);
      progress.println();
      System.out.println(summary);
    }
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
