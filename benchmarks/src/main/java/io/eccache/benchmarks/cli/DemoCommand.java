package io.eccache.benchmarks.cli;

import alluxio.client.file.FileSystemContext;
import io.eccache.benchmarks.ComparedScheme;
import io.eccache.benchmarks.cluster.BenchCluster;
import io.eccache.benchmarks.cluster.BenchReport;
import io.eccache.benchmarks.cluster.BenchSettings;
import io.eccache.benchmarks.cluster.ClusterBenchmark;
import io.eccache.benchmarks.cluster.PinnedRetuning;
import io.eccache.benchmarks.cluster.Scenario;
import io.eccache.benchmarks.report.LoadImbalance;
import io.eccache.benchmarks.report.RunStamp;
import io.eccache.cli.ClusterOptions;
import io.eccache.cli.ExitCodes;
import io.eccache.common.MasterKeys;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.LoopbackShaper;
import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Stores one set of objects four ways: EC-Cache (k data + r parity splits, extra parities for
 * popular objects), selective replication and SP-Cache's selective partition at the same memory
 * budget, and a single whole copy on one random worker. A first Zipf pass lets the coordinator learn
 * popularity; the redundancy it allocates from that pass is pinned, and each scheme then reads the
 * same request sequence on its own (the cluster benchmark's method). The demo prints latency
 * percentiles, memory and the load imbalance λ side by side, and with {@code --out} writes the
 * benchmark's stamped report. It is the cluster benchmark ({@link ClusterBenchmark}) on an
 * in-process cluster by default, or on a running one with {@code --master} (whose own re-tuning
 * then runs during the phase: not pinned, said in the output). As root it shapes the links as the
 * benchmark does and makes one worker a straggler, which is what EC-Cache is for: its late binding
 * reads around the straggler, a replica on it cannot; without root it says what it cannot show.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Run EC-Cache against selective replication, SP-Cache and a single copy on an "
        + "in-process cluster (or a running one: --master). Defaults: 15 workers, RS(10,1), "
        + "delta 1, 40 objects of 8 MiB, Zipf 0.9, 400 requests and 400 learning GETs per scheme, "
        + "4 clients, seed 1, budget 0.15; each scheme measured alone.")
final class DemoCommand implements Callable<Integer> {
  @Mixin WorkloadOptions workload;

  @Option(names = "--repeats", description = "Runs, each with its own seed (seed + i: data, "
      + "placement, sequence); with --out the report shows their median [min–max] (default "
      + "${DEFAULT-VALUE}).")
  int repeats = 1;

  @Option(names = "--out", description = "Also write the benchmark's report here (raw.csv, "
      + "summary.md and summary.json stamped with commit and command, plots).")
  Path out;

  @Option(names = "--stragglers", description = "Workers whose links are capped at a tenth of the"
      + " others' for the measured phase, when tc can shape loopback (as root; default"
      + " ${DEFAULT-VALUE}, 0: none).")
  int stragglers = 1;

  @Mixin ClusterOptions cluster;

  @Spec CommandSpec spec;

  private final PrintStream progress = System.err;

  @Override
  public Integer call() throws Exception {
    workload.check();
    if (repeats < 1) {
      throw new IllegalArgumentException("--repeats must be at least 1, got " + repeats);
    }
    int workers = WorkloadOptions.or(workload.workers, 15);
    int k = WorkloadOptions.or(workload.k, 10);
    int r = WorkloadOptions.or(workload.r, 1);
    double budget = WorkloadOptions.or(workload.budget, BenchCommand.DEFAULT_BUDGET);
    BenchSettings settings = new BenchSettings();
    settings.objects = WorkloadOptions.or(workload.objects, 40);
    settings.objectBytes = Math.round(WorkloadOptions.or(workload.objectMib, 8.0) * (1 << 20));
    settings.zipf = WorkloadOptions.or(workload.zipf, 0.9);
    settings.clients = WorkloadOptions.or(workload.clients, 4);
    settings.requests = WorkloadOptions.or(workload.requests, 400);
    settings.learning = WorkloadOptions.or(workload.learning, settings.requests);
    settings.delta = WorkloadOptions.or(workload.delta, 1);
    settings.seed = WorkloadOptions.or(workload.seed, 1L);
    settings.schemes = List.of(ComparedScheme.EC, ComparedScheme.SR, ComparedScheme.SP,
        ComparedScheme.SINGLE);
    if (cluster.master != null) {
      try (FileSystemContext context = FileSystemContext.create(cluster.configuration())) {
        BenchCluster remote = BenchCluster.remote(context);
        progress.printf("eccache demo: %d workers at %s%n", remote.workerCount(), cluster.master);
        report(settings, new ClusterBenchmark(remote, null,
            line -> progress.print("\r" + line + "        "), 2), remote.workerCount(), "",
            "running cluster at " + cluster.master + ", unshaped; its own re-tuning runs during"
            + " the phase (not pinned)");
      }
      return ExitCodes.OK;
    }
    if (k + r > workers) {
      throw new IllegalArgumentException("k + r = " + (k + r) + " needs at least that many workers;"
          + " use --workers " + (k + r) + " or a smaller k or r");
    }
    if (stragglers < 0 || stragglers >= workers) {
      throw new IllegalArgumentException("--stragglers must be between 0 and the workers less"
          + " one, got " + stragglers);
    }
    long perWorker = Math.max(256L << 20, 4L * settings.objects * settings.objectBytes / workers);
    double workerMbit = WorkloadOptions.or(workload.workerMbit,
        (double) BenchCommand.DEFAULT_WORKER_MBIT);
    boolean shaped = LoopbackShaper.isAvailable();
    if (!shaped) {
      progress.println("eccache demo: tc cannot shape loopback here (needs root and sch_htb):"
          + " running on unshaped loopback, where two cores, not the links, are the bottleneck,"
          + " and no worker straggles; the table shows memory and load imbalance, not EC-Cache's"
          + " tail under a straggler. To see that: sudo bin/eccache-bench demo");
    }
    settings.stragglers = shaped ? stragglers : 0;
    progress.printf("eccache demo: starting %d workers (k=%d, r=%d, delta=%d)...%n", workers, k, r,
        settings.delta);
    try (EmbeddedCluster embedded = EmbeddedCluster.builder().workers(workers)
        .workerMemoryBytes(perWorker)
        .property(MasterKeys.PARTITION_SERVER_BANDWIDTH, (long) (workerMbit / 8) + "MB")
        .property(MasterKeys.DEFAULT_K, k).property(MasterKeys.DEFAULT_R, r)
        .property(MasterKeys.MEMORY_OVERHEAD, budget)
        .property(MasterKeys.NAMESPACE_SCHEMES, "sr=replica,sp=partition")
        // As in the benchmark: no re-tuning heartbeat; PinnedRetuning allocates from the learning
        // pass and nothing changes while the schemes are measured.
        .property(MasterKeys.POPULARITY_PERIOD, PinnedRetuning.PERIOD.toMillis() + "ms")
        .property(MasterKeys.RETUNE_INTERVAL, "0")
        .userProperties(cluster.overrides()) // -D and --conf
        .start();
        LoopbackShaper shaper = shaped ? BenchCommand.shapeWorkers(embedded, workerMbit) : null) {
      String links = shaped ? String.format(Locale.ROOT, "links capped at %.0f Mbit/s per worker"
          + "%s", workerMbit, stragglers == 0 ? "" : ", " + stragglers + " straggler(s) at a"
          + " tenth of that") : "unshaped loopback";
      report(settings, new ClusterBenchmark(BenchCluster.of(embedded), shaper,
          line -> progress.print("\r" + line + "        "), 2,
          new PinnedRetuning(embedded.coordinator())), workers, " RS(" + k + "," + r + "+),",
          "in-process, " + links + ", memory budget " + Math.round(budget * 100) + "%");
    }
    return ExitCodes.OK;
  }

  /** Runs the repeats, printing each one's table, and writes the report when asked to. */
  private void report(BenchSettings settings, ClusterBenchmark bench, int workerCount, String code,
      String where) throws Exception {
    List<ClusterBenchmark.Outcome> outcomes = new ArrayList<>();
    for (int i = 0; i < repeats; i++) {
      BenchSettings run = settings.copy();
      run.seed = settings.seed + i;
      ClusterBenchmark.Outcome outcome = bench.run(run);
      progress.println();
      outcomes.add(outcome);
      print(outcome, workerCount, code, where, i);
    }
    if (out != null) {
      String label = String.format(Locale.ROOT, "zipf %.2f", settings.zipf);
      Scenario demo = Scenario.single("demo", "the demo (no figure: four schemes side by side)",
          "no counterpart: the paper compares EC-Cache with selective replication on 25 servers",
          label, settings);
      BenchReport.write(out, demo, Map.of(label, outcomes), workerCount, where,
          RunStamp.capture(Paths.get("."), TypedCommand.of(spec, "demo")));
      progress.printf("eccache demo: report written to %s%n", out.resolve("summary.md"));
    }
  }

  private void print(ClusterBenchmark.Outcome outcome, int workerCount, String code, String where,
      int repeat) {
    PrintStream stdout = System.out;
    BenchSettings s = outcome.settings;
    stdout.printf(Locale.ROOT, "%n%d objects of %.1f MiB, %d GETs per scheme (%s), Zipf(%.2f),"
        + " %d clients, %d workers (%s), seed %d%s%n%n", s.objects, s.objectBytes / 1048576.0,
        s.requests, s.mode.name().toLowerCase(Locale.ROOT) + (outcome.pinned ? ", pinned" : ""),
        s.zipf, s.clients, workerCount, where, s.seed,
        repeats > 1 ? String.format(Locale.ROOT, " (repeat %d of %d)", repeat + 1, repeats) : "");
    if (!outcome.stragglers.isEmpty()) {
      stdout.printf("straggler(s) during the measured phase: %s%n%n",
          String.join(", ", outcome.stragglers.keySet()));
    }
    stdout.println("| scheme | memory | mean ms | median ms | p99 ms | p99.9 ms | λ (load imbalance) | "
        + "MB read | reads decoded |");
    stdout.println("|---|---|---|---|---|---|---|---|---|");
    Map<ComparedScheme, String> names = Map.of(ComparedScheme.EC, ComparedScheme.EC.displayName()
        + code + " delta " + s.delta, ComparedScheme.SR, ComparedScheme.SR.displayName(),
        ComparedScheme.SP, "SP-Cache partition", ComparedScheme.SINGLE,
        ComparedScheme.SINGLE.displayName());
    for (ClusterBenchmark.SchemeResult r : outcome.schemes.values()) {
      Histogram h = r.latencyMicros;
      long served = r.bytesByWorker.values().stream().mapToLong(Long::longValue).sum()
          + r.fallbackBytes;
      stdout.printf(Locale.ROOT, "| %s | %.2fx | %.1f | %.1f | %.1f | %.1f | %.1f%% | %.0f | %d |%n",
          names.get(r.scheme), r.memory, h.getMean() / 1000, h.getValueAtPercentile(50) / 1000.0,
          h.getValueAtPercentile(99) / 1000.0, h.getValueAtPercentile(99.9) / 1000.0,
          LoadImbalance.lambdaPercent(r.sentByWorker.isEmpty() ? r.bytesByWorker
              : r.sentByWorker, workerCount, r.usefulBytes), served / 1e6,
          r.decodes);
    }
  }
}
