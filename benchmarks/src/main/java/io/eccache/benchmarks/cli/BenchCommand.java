package io.eccache.benchmarks.cli;

import alluxio.client.file.FileSystemContext;
import io.eccache.benchmarks.cluster.BenchCluster;
import io.eccache.benchmarks.cluster.BenchReport;
import io.eccache.benchmarks.cluster.BenchSettings;
import io.eccache.benchmarks.cluster.ClusterBenchmark;
import io.eccache.benchmarks.cluster.PinnedRetuning;
import io.eccache.benchmarks.cluster.Repeats;
import io.eccache.benchmarks.report.RunStamp;
import io.eccache.benchmarks.cluster.Scenario;
import io.eccache.cli.ClusterOptions;
import io.eccache.cli.ExitCodes;
import io.eccache.common.ClientKeys;
import io.eccache.common.MasterKeys;
import io.eccache.common.ReadChoice;
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
  /** Memory budget of the tuned schemes beyond one copy: the paper's 15%. */
  static final double DEFAULT_BUDGET = 0.15;

  @Option(names = "--profile", description = "quick (~15 min on 2 cores) or full (default "
      + "${DEFAULT-VALUE}).")
  String profile = "quick";

  @Option(names = "--scenario", description = "Scenarios to run (default: all): "
      + "skew, background, failure, size, k, delta, stragglers, slow-server, writes, spcache.")
  List<String> scenarios = new ArrayList<>();

  @Option(names = "--out", description = "Results directory (default ${DEFAULT-VALUE}).")
  Path out = Paths.get("benchmarks", "results");

  @Option(names = "--client-jvms", description = "Run each closed-loop measured phase's readers "
      + "in this many JVMs of their own, as the paper's separate client machines (default "
      + "${DEFAULT-VALUE}: threads in this JVM).")
  int clientJvms = 0;

  @Option(names = "--mode", description = "How the measured phase reads the schemes: alone (each "
      + "scheme on its own, one after the other; default) or interleaved (every request from "
      + "every scheme in one loop, the old method; favours EC-Cache, labelled so).")
  String mode = "alone";

  @Option(names = "--allocation", description = "What pinned redundancy is allocated from: "
      + "learned (the learning pass's reads; default) or expected (the workload's Zipf "
      + "probabilities, the paper's method).")
  String allocation = "learned";

  @Option(names = "--repeats", description = "Runs per result, each with its own seed (data, "
      + "placement, sequence); tables show the median [min–max] (default: 3 quick, 5 full, 1 "
      + "tiny).")
  Integer repeats;

  @Option(names = "--read-choice", description = "Which k + delta splits EC-Cache's GETs read:"
      + " ${COMPLETION-CANDIDATES} (alluxio.user.eccache.read.choice; default ${DEFAULT-VALUE},"
      + " the client's default: the paper's RANDOM while the CPU has room).")
  ReadChoice readChoice = ReadChoice.ADAPTIVE;

  @Mixin WorkloadOptions workload;

  @Mixin ClusterOptions cluster;

  @picocli.CommandLine.Spec
  picocli.CommandLine.Model.CommandSpec spec;

  /** For the smoke test: shrink every run to this many objects and requests. */
  @Option(names = "--tiny", hidden = true)
  boolean tiny;

  private final PrintStream progress = System.err;

  @Override
  public Integer call() throws Exception {
    BenchSettings.MeasureMode measureMode = parse(BenchSettings.MeasureMode.class, mode, "--mode");
    BenchSettings.AllocationSource source =
        parse(BenchSettings.AllocationSource.class, allocation, "--allocation");
    workload.check();
    if (repeats != null && repeats < 1) {
      throw new IllegalArgumentException("--repeats must be at least 1, got " + repeats);
    }
    List<Scenario> chosen = new ArrayList<>();
    for (Scenario s : Scenario.all(profile)) {
      if (scenarios.isEmpty() || scenarios.contains(s.name)) {
        chosen.add(tiny ? shrink(s) : s);
        for (BenchSettings run : s.runs.values()) {
          run.clientProcesses = run.arrivalsPerSecond > 0 ? 0 : clientJvms;
          run.mode = measureMode;
          run.allocation = source;
          override(run);
        }
        String knobs = workload.describeWorkload();
        if (!knobs.isEmpty() && s.sweep.isEmpty()) {
          // A one-run scenario's label names its workload ("zipf 0.9"): name what ran instead.
          Map<String, BenchSettings> relabelled = new LinkedHashMap<>();
          s.runs.forEach((label, run) -> relabelled.put(run.workloadLabel(), run));
          s.runs.clear();
          s.runs.putAll(relabelled);
        }
      }
    }
    if (chosen.isEmpty()) {
      throw new IllegalArgumentException("no scenario named " + scenarios
          + ": choose from skew, background, failure, size, k, delta, stragglers, slow-server,"
          + " writes,"
          + " spcache");
    }
    if (cluster.master != null) {
      return runRemote(chosen);
    }
    // A crash inside a phase is a worker process killed while one closed loop in this JVM reads.
    chosen.removeIf(s -> {
      boolean kills = s.runs.values().stream().anyMatch(b -> b.killedWorkers > 0);
      boolean refused = kills && (measureMode != BenchSettings.MeasureMode.ALONE || clientJvms > 0);
      if (refused) {
        progress.printf("eccache bench: skipping %s: its crash comes inside each scheme's own"
            + " phase, so it needs --mode alone and no --client-processes%n", s.name);
      }
      return refused;
    });
    // Scenarios that kill or freeze workers run on workers that are processes of their own, the
    // others on workers in this JVM (as every published run before): one cluster for each kind.
    List<Scenario> killing = new ArrayList<>();
    List<Scenario> inJvm = new ArrayList<>();
    for (Scenario s : chosen) {
      (s.runs.values().stream().anyMatch(BenchSettings::needsWorkerProcesses) ? killing : inJvm)
          .add(s);
    }
    if (!inJvm.isEmpty()) {
      runInProcess(inJvm, false);
    }
    if (!killing.isEmpty()) {
      runInProcess(killing, true);
    }
    return ExitCodes.OK;
  }

  /**
   * Runs {@code chosen} on a cluster this command starts: master in this JVM, workers in it too or
   * (for scenarios that SIGKILL them) processes of their own.
   */
  private void runInProcess(List<Scenario> chosen, boolean workerProcesses) throws Exception {
    long largest = 0;
    for (Scenario s : chosen) {
      for (BenchSettings b : s.runs.values()) {
        largest = Math.max(largest, b.objects * b.objectBytes * b.schemes.size());
      }
    }
    int workers = workers();
    double workerMbit = workerMbit();
    long perWorker = Math.max(256L << 20, 3 * largest / workers);
    progress.printf("eccache bench (%s): starting %d workers%s...%n", profile, workers,
        workerProcesses ? " as processes of their own" : "");
    try (EmbeddedCluster embedded = EmbeddedCluster.builder().workers(workers)
        .workerProcesses(workerProcesses)
        .workerMemoryBytes(perWorker).workerTimeout("5s")
        .property(MasterKeys.NAMESPACE_SCHEMES, "sr=replica,sp=partition")
        // No re-tuning heartbeat: PinnedRetuning runs the passes, folding exactly the learning
        // pass's counts (one popularity period, moved on the coordinator's clock; weight 1, so a
        // fold keeps that period alone: the failure scenario pins again from the same pass after
        // each phase's kill) and none during the measured phase, so the redundancy measured is
        // the redundancy allocated.
        .property(MasterKeys.POPULARITY_PERIOD, PinnedRetuning.PERIOD.toMillis() + "ms")
        .property(MasterKeys.POPULARITY_WEIGHT, 1.0)
        .property(MasterKeys.RETUNE_INTERVAL, "0")
        .property(MasterKeys.PARTITION_SERVER_BANDWIDTH, (long) (workerMbit / 8) + "MB")
        .property(MasterKeys.MEMORY_OVERHEAD, WorkloadOptions.or(workload.budget, DEFAULT_BUDGET))
        .property(MasterKeys.DEFAULT_K, WorkloadOptions.or(workload.k, 10))
        .property(MasterKeys.DEFAULT_R, WorkloadOptions.or(workload.r, 1))
        .property(ClientKeys.IO_THREADS, ioThreads(chosen))
        .property(ClientKeys.READ_CHOICE, readChoice)
        .userProperties(cluster.overrides()) // -D and --conf
        .start();
        LoopbackShaper shaper = shape(embedded)) {
      if (shaper == null) {
        progress.println("eccache bench: tc cannot shape loopback here (needs root and HTB):"
            + " running UNSHAPED, CPU-bound; results are labelled so");
        chosen.removeIf(s -> {
          boolean slowed = s.runs.values().stream().anyMatch(b -> b.stragglers > 0);
          if (slowed) {
            progress.printf("eccache bench: skipping %s: its straggler is a worker whose link tc"
                + " caps, and tc cannot shape here%n", s.name);
          }
          return slowed;
        });
      }
      String links = shaper == null ? "unshaped"
          : String.format(java.util.Locale.ROOT, "%.0f Mbit/s per worker", workerMbit);
      runAll(chosen, new ClusterBenchmark(BenchCluster.of(embedded), shaper,
          line -> progress.print("\r" + line + "        "), tiny ? 2 : 6,
          new PinnedRetuning(embedded.coordinator())), workers,
          workerProcesses ? links + ", workers as processes of their own" : links);
    }
  }

  /**
   * Split I/O threads per client: at least clients x (k + Δ) of the widest run, so no GET waits
   * for a thread and late binding races all the splits it asks for.
   */
  private int ioThreads(List<Scenario> chosen) {
    int most = 32;
    for (Scenario s : chosen) {
      for (BenchSettings b : s.runs.values()) {
        int kEff = b.tuned ? WorkloadOptions.or(workload.k, 10) : b.k;
        most = Math.max(most, b.clients * (kEff + b.delta));
      }
    }
    return most;
  }

  private int workers() {
    return WorkloadOptions.or(workload.workers, DEFAULT_WORKERS);
  }

  private double workerMbit() {
    return WorkloadOptions.or(workload.workerMbit, (double) DEFAULT_WORKER_MBIT);
  }

  /** The workload knobs given on the command line, over the scenario's settings. */
  private void override(BenchSettings run) {
    WorkloadOptions w = workload;
    run.zipf = WorkloadOptions.or(w.zipf, run.zipf);
    run.objectBytes = w.objectMib == null ? run.objectBytes : Math.round(w.objectMib * (1 << 20));
    run.objects = WorkloadOptions.or(w.objects, run.objects);
    run.requests = WorkloadOptions.or(w.requests, run.requests);
    run.learning = WorkloadOptions.or(w.learning, run.learning);
    run.clients = WorkloadOptions.or(w.clients, run.clients);
    run.seed = WorkloadOptions.or(w.seed, run.seed);
    run.k = WorkloadOptions.or(w.k, run.k);
    run.r = WorkloadOptions.or(w.r, run.r);
    run.delta = WorkloadOptions.or(w.delta, run.delta);
  }

  private static <E extends Enum<E>> E parse(Class<E> type, String text, String option) {
    for (E e : type.getEnumConstants()) {
      if (e.name().equalsIgnoreCase(text.trim())) {
        return e;
      }
    }
    throw new IllegalArgumentException(option + " must be one of "
        + java.util.Arrays.toString(type.getEnumConstants()).toLowerCase(java.util.Locale.ROOT)
        + ", got '" + text + "'");
  }

  /**
   * Against a running cluster: no shaping and no worker it could stop or send from, so the
   * failure and background scenarios are left out, saying so.
   */
  private int runRemote(List<Scenario> chosen) throws Exception {
    List<Scenario> possible = new ArrayList<>();
    for (Scenario s : chosen) {
      boolean needsWorkers = s.runs.values().stream()
          .anyMatch(b -> b.deadWorkers > 0 || b.needsWorkerProcesses() || b.backgroundFraction > 0
              || b.stragglers > 0);
      if (needsWorkers) {
        progress.printf("eccache bench: skipping %s: it stops workers or sends from their "
            + "addresses, which only the in-process cluster allows%n", s.name);
      } else {
        possible.add(s);
      }
    }
    // The clients' split I/O pool sized as on the in-process cluster, unless set larger.
    alluxio.conf.InstancedConfiguration conf =
        new alluxio.conf.InstancedConfiguration(cluster.configuration().copyProperties());
    conf.set(ClientKeys.IO_THREADS, Math.max(conf.getInt(ClientKeys.IO_THREADS),
        ioThreads(possible)));
    conf.set(ClientKeys.READ_CHOICE, readChoice);
    try (FileSystemContext context = FileSystemContext.create(conf)) {
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
    RunStamp stamp = RunStamp.capture(Paths.get("."), TypedCommand.of(spec, "bench"));
    int times = repeats != null ? repeats : tiny ? 1 : "full".equals(profile) ? 5 : 3;
    for (Scenario scenario : chosen) {
      progress.printf("%n== %s (%s)%n", scenario.name, scenario.figure);
      Map<String, List<ClusterBenchmark.Outcome>> outcomes = new LinkedHashMap<>();
      for (Map.Entry<String, BenchSettings> run : scenario.runs.entrySet()) {
        List<Long> seeds = new ArrayList<>();
        List<ClusterBenchmark.Outcome> reps = Repeats.run(run.getKey(), run.getValue(), times,
            bench::run, seeds, progress);
        outcomes.put(scenario.sweep.isEmpty() ? run.getKey() + ", seeds " + Repeats.seedList(seeds)
            : run.getKey(), reps);
      }
      Path dir = out.resolve(scenario.name);
      String summary = BenchReport.write(dir, scenario, outcomes, workerCount, conditions, stamp);
      progress.println();
      System.out.println(summary);
    }
  }

  private LoopbackShaper shape(EmbeddedCluster cluster) throws Exception {
    return LoopbackShaper.isAvailable() ? shapeWorkers(cluster, workerMbit()) : null;
  }

  /** Every worker's link capped at {@code mbit}, each in its own class (the demo's too). */
  static LoopbackShaper shapeWorkers(EmbeddedCluster cluster, double mbit) throws Exception {
    Map<String, Integer> caps = new LinkedHashMap<>();
    for (int i = 0; i < cluster.workerCount(); i++) {
      caps.put(cluster.workerHost(i), (int) Math.round(mbit * 1000));
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
