package io.eccache.benchmarks.cli;

import alluxio.cli.fs.FileSystemShell;
import alluxio.conf.Configuration;
import alluxio.conf.PropertyKey;
import io.eccache.benchmarks.packed.PackedLoad;
import io.eccache.benchmarks.packed.PackedLoadReport;
import io.eccache.benchmarks.report.RunStamp;
import io.eccache.cli.EcCacheCli;
import io.eccache.cli.ExitCodes;
import io.eccache.client.EcCacheClient;
import io.eccache.common.MasterKeys;
import io.eccache.common.WorkerKeys;
import io.eccache.testkit.EmbeddedCluster;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code eccache-bench packed-check}: LogECMem's acceptance run ({@link PackedLoad}) on an
 * in-process cluster whose workers run log nodes: a packed namespace takes many small values and a
 * mixed load through the API, the CLI and {@code alluxio fs}; then every value and every stripe's
 * parities are checked. Exits 1 on any wrong value or disagreeing parity.
 */
@Command(name = "packed-check", mixinStandardHelpOptions = true,
    description = "LogECMem's acceptance run: N small values in a packed namespace, a 50:50"
        + " read/update+delete load through the API, the CLI and alluxio fs, then every value"
        + " read back and every stripe's parities (log nodes' after flush and PLM merge) checked.")
final class PackedCheckCommand implements Callable<Integer> {
  @Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--values", defaultValue = "100000", description = "Values PUT (default 100000).")
  int values;

  @Option(names = "--ops", defaultValue = "100000",
      description = "Ops of the mixed phase (default 100000): half reads, then updates of the same"
          + " size (in place), of another size, and deletes.")
  long ops;

  @Option(names = "--threads", defaultValue = "4", description = "Client threads (default 4).")
  int threads;

  @Option(names = "--workers", defaultValue = "8",
      description = "Workers, each running a log node (default 8).")
  int workers;

  @Option(names = "--code", defaultValue = "6-3",
      description = "RS(k, r) of the stripes (default 6-3): k data units and P1 on workers, r - 1"
          + " parity rows on log nodes.")
  String code;

  @Option(names = "--unit", defaultValue = "4KB", description = "Unit size (default 4KB).")
  String unit;

  @Option(names = "--min-bytes", defaultValue = "1024", description = "Smallest value (1024).")
  int minBytes;

  @Option(names = "--max-bytes", defaultValue = "4096", description = "Largest value (4096).")
  int maxBytes;

  @Option(names = "--via-commands-every", defaultValue = "500",
      description = "One op in this many goes through the eccache CLI, and one through alluxio fs"
          + " (default 500).")
  int viaCommandsEvery;

  @Option(names = "--merge-size", defaultValue = "256KB",
      description = "PLM's merge size on the log nodes (default 256KB: most flushes merge).")
  String mergeSize;

  @Option(names = "--seed", defaultValue = "1", description = "Random seed.")
  long seed;

  @Option(names = "--out", defaultValue = "benchmarks/results/packed-check",
      description = "Where summary.md goes (default benchmarks/results/packed-check).")
  Path out;

  @Override
  public Integer call() throws Exception {
    PrintWriter progress = spec.commandLine().getOut();
    if (values < 1 || ops < 0 || threads < 1 || minBytes < 1 || maxBytes < minBytes
        || viaCommandsEvery < 2 || !code.matches("[0-9]+-[0-9]+")) {
      throw new CommandLine.ParameterException(spec.commandLine(), "need --values >= 1,"
          + " --ops >= 0, --threads >= 1, 1 <= --min-bytes <= --max-bytes,"
          + " --via-commands-every >= 2 and --code K-R");
    }
    PackedLoad.Settings s = new PackedLoad.Settings();
    s.values = values;
    s.ops = ops;
    s.threads = threads;
    s.minBytes = minBytes;
    s.maxBytes = maxBytes;
    s.viaCommandsEvery = viaCommandsEvery;
    s.seed = seed;
    String namespaces = s.namespace + "=packed-" + code + ":hybrid:" + unit;
    RunStamp stamp = RunStamp.capture(Paths.get("."), TypedCommand.of(spec, "packed-check"));
    Path scratch = Files.createTempDirectory("eccache-packed-check");
    progress.printf("packed-check: %d workers with log nodes, %s, %d values of %d-%d bytes%n",
        workers, namespaces, values, minBytes, maxBytes);
    progress.flush();
    PackedLoad.Report report;
    long memory = Math.max(256L << 20, 6L * values * maxBytes / workers);
    try (EmbeddedCluster cluster = EmbeddedCluster.builder().workers(workers)
        .workerMemoryBytes(memory)
        .property(MasterKeys.PACKED_NAMESPACES, namespaces)
        // Replaced units are removed 10 s after their update, not 60: memory stays near the data.
        .property(MasterKeys.RETIRED_GRACE, "10s")
        .property(WorkerKeys.LOG_NODE_ENABLED, true)
        .property(WorkerKeys.LOG_NODE_MERGE_SIZE, mergeSize).start();
        EcCacheClient cache = EcCacheClient.create(cluster.fileSystemContext());
        FileSystemShell shell = new FileSystemShell(Configuration.global())) {
      String master = Configuration.getString(PropertyKey.MASTER_HOSTNAME) + ":"
          + Configuration.getInt(PropertyKey.MASTER_RPC_PORT);
      PackedLoad.Commands commands = new PackedLoad.Commands() {
        @Override
        public int cli(String... args) {
          List<String> line = new ArrayList<>(List.of(args[0], "--master", master));
          line.addAll(List.of(args).subList(1, args.length));
          StringWriter output = new StringWriter();
          // As the eccache command runs it: its exit codes and one-line error messages.
          return new CommandLine(new EcCacheCli()).setExecutionExceptionHandler(new ExitCodes())
              .setOut(new PrintWriter(output)).setErr(new PrintWriter(output))
              .execute(line.toArray(new String[0]));
        }

        @Override
        public int fs(String... args) {
          // Alluxio's shell prints to System.out: one command at a time, its output set aside.
          synchronized (shell) {
            PrintStream stdout = System.out;
            PrintStream stderr = System.err;
            ByteArrayOutputStream output = new ByteArrayOutputStream();
            try {
              System.setOut(new PrintStream(output, true, StandardCharsets.UTF_8));
              System.setErr(new PrintStream(output, true, StandardCharsets.UTF_8));
              return shell.run(args);
            } finally {
              System.setOut(stdout);
              System.setErr(stderr);
            }
          }
        }
      };
      report = new PackedLoad(cache, commands, s, scratch).run(line -> {
        progress.println("  " + line);
        progress.flush();
      });
    } finally {
      try (var files = Files.walk(scratch)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    String summary = PackedLoadReport.markdown(report, s, namespaces, workers,
        Integer.parseInt(code.substring(code.indexOf('-') + 1)), stamp);
    Files.createDirectories(out);
    Files.writeString(out.resolve("summary.md"), summary);
    progress.print(summary);
    progress.printf(Locale.ROOT, "packed-check: %s%n", report.ok() ? "OK" : "FAILED");
    progress.flush();
    return report.ok() ? ExitCodes.OK : 1;
  }
}
