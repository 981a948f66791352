package io.eccache.benchmarks.cli;

import alluxio.conf.PropertyKey;
import alluxio.grpc.GrpcUtils;
import alluxio.grpc.WorkerNetAddress;
import alluxio.util.FormatUtils;
import io.eccache.benchmarks.datapath.DatapathBenchmark;
import io.eccache.benchmarks.datapath.DatapathReport;
import io.eccache.benchmarks.datapath.DatapathSettings;
import io.eccache.benchmarks.datapath.RoundResult;
import io.eccache.benchmarks.report.RunStamp;
import io.eccache.cli.ExitCodes;
import io.eccache.common.ClientKeys;
import io.eccache.common.MasterKeys;
import io.eccache.common.ReadChoice;
import io.eccache.testkit.EmbeddedCluster;
import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code eccache-bench datapath}: eccache's GET and PUT against the same bytes as k plain Alluxio
 * files pinned to k workers ("p10") and as one plain file, on one in-process cluster, for several
 * object sizes and client thread counts; ratios paired per round, beside issue 15's targets.
 */
@Command(name = "datapath", mixinStandardHelpOptions = true,
    description = "Measure eccache's GET and PUT against ten plain Alluxio files pinned to ten"
        + " workers (p10) and one plain file, on one in-process cluster of 12 workers (unshaped"
        + " loopback, short-circuit off): MiB/s, process CPU per MiB (the workers included, as"
        + " they run in this process), p50/p99, and eccache's ratios to p10 paired per round."
        + " Defaults: RS(10,1), delta 1, sizes 64KiB,1MiB,8MiB,40MB,64MiB,256MiB, threads 1,16,"
        + " 5 rounds.")
final class DatapathCommand implements Callable<Integer> {
  @Option(names = "--sizes", split = ",", description = "Object sizes: bytes or with a unit; KiB,"
      + " MiB, GiB are powers of two, KB, MB, GB of ten (the paper's 40MB is 40,000,000 bytes).")
  List<String> sizes;

  @Option(names = "--threads", split = ",", description = "Client thread counts, each measured"
      + " on its own.")
  List<Integer> threads;

  @Option(names = "--rounds", description = "Measured rounds per size and thread count; every"
      + " variant runs once per round, in a shuffled order (default 5).")
  Integer rounds;

  @Option(names = "--ops", description = "Operations per thread per variant and round (default:"
      + " enough to move 512 MiB, 4 to 64 operations in all, at least 2 per thread).")
  Integer ops;

  @Option(names = "--data-mib", description = "Cap on objects x size stored per variant and on"
      + " threads x size in flight, in MiB (default 1024: the data and the results live in the"
      + " launcher's 4 GiB heap).")
  Long dataMib;

  @Option(names = "--out", description = "Results directory: raw.csv, summary.md, summary.json,"
      + " throughput.png (default ${DEFAULT-VALUE}).")
  Path out = Paths.get("benchmarks", "results", "datapath");

  @Option(names = "--tiny", hidden = true, description = "For tests: sizes 64KiB,1MiB, threads"
      + " 1,2, one round, two objects, two operations per thread.")
  boolean tiny;

  @Option(names = "--read-choice", description = "Which k + delta splits eccache's GETs read:"
      + " ${COMPLETION-CANDIDATES} (alluxio.user.eccache.read.choice; default ${DEFAULT-VALUE}).")
  ReadChoice readChoice = ReadChoice.RANDOM;

  @Option(names = "--journal-flush-batch", description = "The master's"
      + " alluxio.master.journal.flush.batch.time, e.g. 5ms (docs/design.md recommends it for"
      + " PUT latency); default: Alluxio's own (100ms).")
  String journalFlushBatch;

  @Option(names = "--layout-cache-ttl", description = "The client's"
      + " alluxio.user.eccache.layout.cache.ttl (default ${DEFAULT-VALUE}); the retired grace is"
      + " twice it, at least 2s, so deleted PUT objects hold worker memory that long: give a long"
      + " TTL (e.g. 60s, GETs served from cached layouts, as p10's and plain's from statuses"
      + " fetched once) with small objects only.")
  String layoutCacheTtl = "1s";

  @Option(names = "--warmup", description = "Unmeasured warm-up of every variant per size and"
      + " thread count, before the rounds (default 3s; at least one step): time for the JIT to"
      + " compile each variant's code.")
  String warmup;

  @Mixin WorkloadOptions workload;

  @Spec CommandSpec spec;

  private final PrintStream progress = System.err;

  @Override
  public Integer call() throws Exception {
    DatapathSettings s = settings();
    progress.printf("eccache-bench datapath: starting %d workers (RS(%d,%d), delta %d)...%n",
        s.workers, s.k, s.r, s.delta);
    long ttlMs = FormatUtils.parseTimeSize(layoutCacheTtl);
    String grace = Math.max(2000, 2 * ttlMs) + "ms";
    RunStamp stamp = RunStamp.capture(Paths.get("."), TypedCommand.of(spec, "datapath"));
    List<RoundResult> results;
    int ioThreads;
    String summary;
    EmbeddedCluster.Builder builder = EmbeddedCluster.builder().workers(s.workers)
        .workerMemoryBytes(s.workerMemoryBytes)
        .property(MasterKeys.DEFAULT_K, s.k).property(MasterKeys.DEFAULT_R, s.r)
        // Nothing re-tunes, repairs or adds parities while the data path is measured.
        .property(MasterKeys.RETUNE_INTERVAL, "0")
        .property(MasterKeys.POPULARITY_PERIOD, "1h")
        // Deleted PUT objects stay readable this long: short, so they free worker memory soon.
        .property(MasterKeys.RETIRED_GRACE, grace)
        // The client's layout cache must expire before a replaced version does.
        .property(ClientKeys.LAYOUT_CACHE_TTL, layoutCacheTtl)
        // Reads go over the network from the worker, never to its files directly (also the
        // cluster's own default; said here because the comparison depends on it).
        .property(PropertyKey.USER_SHORT_CIRCUIT_ENABLED, false)
        .property(ClientKeys.READ_CHOICE, readChoice);
    if (journalFlushBatch != null) {
      builder.property(PropertyKey.MASTER_JOURNAL_FLUSH_BATCH_TIME_MS, journalFlushBatch);
    }
    try (EmbeddedCluster cluster = builder.start()) {
      List<WorkerNetAddress> workers = new ArrayList<>();
      for (int i = 0; i < cluster.workerCount(); i++) {
        workers.add(GrpcUtils.toProto(cluster.workerAddress(i)));
      }
      DatapathBenchmark bench = new DatapathBenchmark(cluster.fileSystemContext(),
          cluster.fileSystem(), workers, line -> progress.println("datapath: " + line));
      results = bench.run(s);
      ioThreads = bench.ioThreads();
      // Written before the cluster closes: closing many workers' streams can take minutes.
      summary = DatapathReport.write(out, results, s, "in-process, " + s.workers
          + " workers on 127.0.0.2-" + (s.workers + 1) + ", unshaped loopback, short-circuit off,"
          + " read choice " + readChoice + ", layout cache TTL " + layoutCacheTtl
          + " (retired grace " + grace + "), journal"
          + " flush batch " + (journalFlushBatch == null ? "Alluxio's default" : journalFlushBatch),
          ioThreads,
          stamp);
    }
    System.out.println(summary);
    progress.printf("eccache-bench datapath: report written to %s%n", out.resolve("summary.md"));
    return ExitCodes.OK;
  }

  /** The settings the options describe, checked before anything starts. */
  DatapathSettings settings() {
    workload.check();
    Map<String, Object> given = workload.given();
    for (String knob : List.of("--zipf", "--object-mib", "--requests", "--learning", "--clients",
        "--worker-mbit", "--budget")) {
      if (given.containsKey(knob)) {
        throw new IllegalArgumentException(knob + " does not apply to datapath (no popularity,"
            + " no shaping, no budget): use --sizes, --threads, --rounds and --ops");
      }
    }
    try {
      if (FormatUtils.parseTimeSize(layoutCacheTtl) < 0) {
        throw new IllegalArgumentException("negative");
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--layout-cache-ttl " + layoutCacheTtl + " is not a"
          + " duration: give e.g. 1s, 500ms or 60s");
    }
    DatapathSettings s = new DatapathSettings();
    if (tiny) {
      s.sizes = new ArrayList<>(List.of(64L << 10, DatapathSettings.MIB));
      s.threads = new ArrayList<>(List.of(1, 2));
      s.rounds = 1;
      s.fixedObjects = 2;
      s.fixedOps = 2;
      s.warmupMs = 0;
      s.workerMemoryBytes = 256L << 20;
    }
    if (warmup != null) {
      try {
        s.warmupMs = FormatUtils.parseTimeSize(warmup);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--warmup " + warmup + " is not a duration: give e.g."
            + " 3s, 500ms or 0");
      }
    }
    if (sizes != null) {
      s.sizes = new ArrayList<>();
      for (String size : sizes) {
        s.sizes.add(DatapathSettings.parseSize(size));
      }
    }
    if (threads != null) {
      s.threads = new ArrayList<>(threads);
    }
    s.rounds = WorkloadOptions.or(rounds, s.rounds);
    s.fixedOps = WorkloadOptions.or(ops, s.fixedOps);
    s.fixedObjects = WorkloadOptions.or(workload.objects, s.fixedObjects);
    if (dataMib != null) {
      if (dataMib < 1) {
        throw new IllegalArgumentException("--data-mib must be at least 1, got " + dataMib);
      }
      s.dataCapBytes = dataMib * DatapathSettings.MIB;
    }
    s.workers = WorkloadOptions.or(workload.workers, s.workers);
    s.k = WorkloadOptions.or(workload.k, s.k);
    s.r = WorkloadOptions.or(workload.r, s.r);
    s.delta = WorkloadOptions.or(workload.delta, s.delta);
    s.seed = WorkloadOptions.or(workload.seed, s.seed);
    s.check();
    return s;
  }
}
