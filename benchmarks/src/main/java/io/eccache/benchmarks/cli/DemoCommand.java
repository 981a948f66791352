package io.eccache.benchmarks.cli;

import alluxio.client.file.FileSystemContext;
import io.eccache.benchmarks.ComparedScheme;
import io.eccache.benchmarks.cluster.BenchCluster;
import io.eccache.benchmarks.cluster.BenchSettings;
import io.eccache.benchmarks.cluster.ClusterBenchmark;
import io.eccache.benchmarks.report.LoadImbalance;
import io.eccache.cli.ClusterOptions;
import io.eccache.cli.ExitCodes;
import io.eccache.common.MasterKeys;
import io.eccache.testkit.EmbeddedCluster;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Stores one set of objects four ways: EC-Cache (k data + r parity splits, extra parities for
 * popular objects), selective replication and SP-Cache's selective partition at the same memory
 * budget, and a single whole copy on one random worker. A first Zipf pass lets the coordinator learn
 * popularity and re-tune (a maintainer in this process moves the bytes); the measured pass reads
 * every request's object from every scheme, and the demo prints latency percentiles, memory and the
 * load imbalance λ side by side. It is one run of the cluster benchmark ({@link ClusterBenchmark}),
 * on an in-process cluster by default or on a running one with {@code --master}.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Run EC-Cache against selective replication, SP-Cache and a single copy on an "
        + "in-process cluster (or a running one: --master).")
final class DemoCommand implements Callable<Integer> {
  @Option(names = "--workers", description = "Alluxio workers of the in-process cluster (default "
      + "${DEFAULT-VALUE}).")
  int workers = 15;

  @Option(names = "-k", description = "Data splits per object (default ${DEFAULT-VALUE}; a "
      + "running cluster uses its own alluxio.master.eccache.default.k).")
  int k = 10;

  @Option(names = "-r", description = "Parity splits per object (default ${DEFAULT-VALUE}; a "
      + "running cluster uses its own alluxio.master.eccache.default.r).")
  int r = 1;

  @Option(names = "--delta", description = "Extra splits read per GET (default ${DEFAULT-VALUE}).")
  int delta = 1;

  @Option(names = "--objects", description = "Objects stored (default ${DEFAULT-VALUE}).")
  int objects = 40;

  @Option(names = "--object-mb", description = "Object size in MiB (default ${DEFAULT-VALUE}).")
  int objectMiB = 8;

  @Option(names = "--reads", description = "GETs per scheme (default ${DEFAULT-VALUE}).")
  int reads = 400;

  @Option(names = "--threads", description = "Concurrent readers (default ${DEFAULT-VALUE}).")
  int threads = 4;

  @Option(names = "--zipf", description = "Zipf skew of object popularity (default ${DEFAULT-VALUE}).")
  double zipf = 0.9;

  @Option(names = "--seed", description = "Random seed (default ${DEFAULT-VALUE}).")
  long seed = 1;

  @Option(names = "--overhead", description = "Memory overhead budget of EC-Cache and selective "
      + "replication (default ${DEFAULT-VALUE}, the paper's 15%%; in-process cluster only).")
  double overhead = 0.15;

  @Mixin ClusterOptions cluster;

  private final PrintStream progress = System.err;

  @Override
  public Integer call() throws Exception {
    BenchSettings settings = new BenchSettings();
    settings.objects = objects;
    settings.objectBytes = (long) objectMiB << 20;
    settings.zipf = zipf;
    settings.clients = threads;
    settings.requests = reads;
    settings.learning = reads;
    settings.delta = delta;
    settings.seed = seed;
    settings.schemes = List.of(ComparedScheme.EC, ComparedScheme.SR, ComparedScheme.SP,
        ComparedScheme.SINGLE);
    if (cluster.master != null) {
      try (FileSystemContext context = FileSystemContext.create(cluster.configuration())) {
        BenchCluster remote = BenchCluster.remote(context);
        progress.printf("eccache demo: %d workers at %s%n", remote.workerCount(), cluster.master);
        print(run(remote, settings), remote.workerCount(), "running cluster at "
            + cluster.master);
      }
      return ExitCodes.OK;
    }
    if (k + r > workers) {
      throw new IllegalArgumentException("k + r = " + (k + r) + " needs at least that many workers;"
          + " use --workers " + (k + r) + " or a smaller k or r");
    }
    long perWorker = Math.max(256L << 20, 4L * objects * settings.objectBytes / workers);
    progress.printf("eccache demo: starting %d workers (k=%d, r=%d, delta=%d)...%n", workers, k, r,
        delta);
    try (EmbeddedCluster embedded = EmbeddedCluster.builder().workers(workers)
        .workerMemoryBytes(perWorker)
        .property(MasterKeys.DEFAULT_K, k).property(MasterKeys.DEFAULT_R, r)
        .property(MasterKeys.MEMORY_OVERHEAD, overhead)
        .property(MasterKeys.NAMESPACE_SCHEMES, "sr=replica,sp=partition")
        // As in the benchmark: popularity outlives the settling, re-tuning follows quickly.
        .property(MasterKeys.POPULARITY_PERIOD, "5s").property(MasterKeys.RETUNE_INTERVAL, "1s")
        .start()) {
      print(run(BenchCluster.of(embedded), settings), workers,
          "in-process, unshaped loopback, memory budget " + Math.round(overhead * 100) + "%");
    }
    return ExitCodes.OK;
  }

  private ClusterBenchmark.Outcome run(BenchCluster on, BenchSettings settings) throws Exception {
    ClusterBenchmark bench = new ClusterBenchmark(on, null,
        line -> progress.print("\r" + line + "        "), 2);
    ClusterBenchmark.Outcome outcome = bench.run(settings);
    progress.println();
    return outcome;
  }

  private void print(ClusterBenchmark.Outcome outcome, int workerCount, String where) {
    PrintStream out = System.out;
    out.printf(Locale.ROOT, "%n%d objects of %d MiB, %d GETs per scheme (interleaved), Zipf(%.2f),"
        + " %d readers, %d workers (%s)%n%n", objects, objectMiB, reads, zipf, threads,
        workerCount, where);
    out.println("| scheme | memory | mean ms | median ms | p99 ms | p99.9 ms | λ (load imbalance) | "
        + "MB read | reads decoded |");
    out.println("|---|---|---|---|---|---|---|---|---|");
    String code = cluster.master != null ? "" : " RS(" + k + "," + r + "+),"; // remote: its own
    Map<ComparedScheme, String> names = Map.of(ComparedScheme.EC, ComparedScheme.EC.displayName()
        + code + " delta " + delta, ComparedScheme.SR, ComparedScheme.SR.displayName(),
        ComparedScheme.SP, "SP-Cache partition", ComparedScheme.SINGLE,
        ComparedScheme.SINGLE.displayName());
    for (ClusterBenchmark.SchemeResult s : outcome.schemes.values()) {
      Histogram h = s.latencyMicros;
      long served = s.bytesByWorker.values().stream().mapToLong(Long::longValue).sum();
      out.printf(Locale.ROOT, "| %s | %.2fx | %.1f | %.1f | %.1f | %.1f | %.1f%% | %.0f | %d |%n",
          names.get(s.scheme), s.memory, h.getMean() / 1000, h.getValueAtPercentile(50) / 1000.0,
          h.getValueAtPercentile(99) / 1000.0, h.getValueAtPercentile(99.9) / 1000.0,
          LoadImbalance.lambdaPercent(s.bytesByWorker, workerCount, s.usefulBytes), served / 1e6,
          s.decodes);
    }
  }
}
