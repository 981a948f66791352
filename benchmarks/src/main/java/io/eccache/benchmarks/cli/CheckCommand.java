package io.eccache.benchmarks.cli;

import alluxio.conf.Configuration;
import io.eccache.benchmarks.safety.ConsistencyChecker;
import io.eccache.cli.ClusterOptions;
import io.eccache.cli.ExitCodes;
import io.eccache.client.EcCacheClient;
import io.eccache.common.MasterKeys;
import io.eccache.testkit.EmbeddedCluster;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code eccache check}: the concurrency checker for minutes, on an in-process cluster (or a
 * running one with {@code --master}): threads PUT, GET, stream, evict and delete a few keys and every
 * read is checked to be one whole, current-enough version of its key; exits 1 on any violation or
 * hang.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
    description = "Run the concurrency checker: concurrent PUT/GET/stream/delete of a few keys, "
        + "every read checked for mixed, foreign, stale or torn bytes, and for hangs.")
final class CheckCommand implements Callable<Integer> {
  private static final String DEFAULT_CELL_SIZE = "256KB";

  @Mixin ClusterOptions cluster;
  @Spec CommandSpec spec;

  @Option(names = "--threads", defaultValue = "8", description = "Client threads (default 8).")
  int threads;

  @Option(names = "--seconds", defaultValue = "600", description = "How long (default 600).")
  long seconds;

  @Option(names = "--keys", defaultValue = "8", description = "Keys shared by the threads.")
  int keys;

  @Option(names = "--workers", defaultValue = "8",
      description = "Workers of the in-process cluster (default 8; ignored with --master).")
  int workers;

  @Option(names = "--max-object", defaultValue = "2000000", description = "Largest object, bytes.")
  int maxObject;

  @Option(names = "--seed", defaultValue = "1", description = "Random seed.")
  long seed;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    ConsistencyChecker.Settings settings = new ConsistencyChecker.Settings();
    settings.threads = threads;
    settings.durationMs = seconds * 1000;
    settings.keys = keys;
    settings.maxObjectBytes = maxObject;
    settings.seed = seed;
    ConsistencyChecker.Report report;
    if (cluster.master != null) {
      try (EcCacheClient cache = cluster.connect()) {
        report = new ConsistencyChecker(cache, settings).run(line -> progress(out, line));
      }
    } else {
      Map<String, String> user = cluster.overrides(); // -D and --conf
      // Small cells by default, so objects of a few hundred KB span stripes; -D may set another.
      String cellSize = user.getOrDefault(MasterKeys.CELL_SIZE.getName(), DEFAULT_CELL_SIZE);
      out.printf("eccache check: starting %d workers in-process%n", workers);
      out.flush();
      try (EmbeddedCluster embedded = EmbeddedCluster.builder().workers(workers)
          .workerMemoryBytes(Math.max(256L << 20, 8L * keys * maxObject))
          .userProperties(user).property(MasterKeys.CELL_SIZE, cellSize).start();
          EcCacheClient cache = EcCacheClient.create(embedded.fileSystemContext())) {
        // As the started master reads it (in-process, Alluxio's configuration is this JVM's).
        out.printf("eccache check: cell size %s (%s)%n",
            Configuration.global().getString(MasterKeys.CELL_SIZE), MasterKeys.CELL_SIZE);
        report = new ConsistencyChecker(cache, settings).run(line -> progress(out, line));
      }
    }
    out.println("eccache check: " + report);
    report.errors.stream().limit(20).forEach(e -> out.println("  error: " + e));
    report.violations.forEach(v -> out.println("  VIOLATION: " + v));
    report.hangs.forEach(h -> out.println("  HANG: " + h));
    return report.ok() ? ExitCodes.OK : 1;
  }

  private static void progress(PrintWriter out, String line) {
    out.println("  " + line);
    out.flush();
  }
}
