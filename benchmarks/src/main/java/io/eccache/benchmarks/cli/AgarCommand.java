package io.eccache.benchmarks.cli;

import io.eccache.benchmarks.agar.AgarClusterBenchmark;
import io.eccache.benchmarks.agar.AgarClusterReport;
import io.eccache.benchmarks.agar.AgarClusterSettings;
import io.eccache.benchmarks.report.RunStamp;
import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code eccache-bench agar}: Agar against LFU-c, LRU-c and no cache on a real cluster over
 * loopback S3 regions (docs/agar.md); the simulator at the paper's scale is {@code agar-sim}.
 */
@Command(name = "agar", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Agar (ICDCS'17, Fig. 8a and 8b) on an in-process cluster over six loopback S3"
        + " regions with Table I's latencies, scaled: regional objects RS(9,3), the coordinator's"
        + " regional cache running Agar, LFU-c, LRU-c or nothing, each alone, at the paper's"
        + " default setting (10 MB, Zipf 1.1, several seeds) and along both sweeps; raw.csv,"
        + " summary.md and plots under --out. The quick profile takes under 15 minutes here.")
final class AgarCommand implements Callable<Integer> {
  @Option(names = "--profile", description = "quick (default: 100 objects, the default setting"
      + " with Agar, LFU-3 and LRU-3 x 3 seeds, no cache and whole objects (LFU-9, LRU-9) once;"
      + " 3 cache sizes and 2 skews with"
      + " Agar, LFU-3 and LRU-3) or full"
      + " (300 objects, 2 clients, all 12 policies, 5 seeds, both sweeps: hours).")
  String profile = "quick";

  @Option(names = "--out", description = "Results directory (default ${DEFAULT-VALUE}).")
  Path out = Paths.get("benchmarks", "results", "agar");

  @Option(names = "--seed", description = "First seed (default ${DEFAULT-VALUE}).")
  long seed = 1;

  @Option(names = "--sweeps", split = ",", description = "Only these of the profile's points:"
      + " default, cache, skew (default: all).")
  List<String> sweeps;

  @Option(names = "--period", description = "The cache's period, instead of the profile's (3s:"
      + " Agar's 30 s scaled like the latencies), e.g. 9s; a longer one gives each period more"
      + " reads.")
  String period;

  @Option(names = "--tiny", hidden = true, description = "For tests: six small objects, two"
      + " policies, one seed, a run of seconds.")
  boolean tiny;

  @Spec
  CommandSpec spec;

  private final PrintStream progress = System.err;

  @Override
  public Integer call() throws Exception {
    AgarClusterSettings s = AgarClusterSettings.profile(tiny ? "tiny" : profile);
    s.seed = seed;
    if (period != null) {
      long ms;
      try {
        ms = alluxio.util.FormatUtils.parseTimeSize(period);
      } catch (IllegalArgumentException e) {
        ms = -1;
      }
      if (ms <= 0) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--period " + period
            + " is not a positive duration: give e.g. 9s or 1500ms");
      }
      s.period = java.time.Duration.ofMillis(ms);
    }
    if (sweeps != null) {
      for (String sweep : sweeps) {
        if (!List.of("default", "cache", "skew").contains(sweep)) {
          throw new CommandLine.ParameterException(spec.commandLine(), "--sweeps takes default,"
              + " cache or skew, not '" + sweep + "'");
        }
      }
      s.points.removeIf(p -> !sweeps.contains(p.sweep));
    }
    RunStamp stamp = RunStamp.capture(Paths.get("").toAbsolutePath(),
        TypedCommand.of(spec, "agar"));
    long began = System.nanoTime();
    progress.printf(Locale.ROOT, "eccache-bench agar: profile %s, %d runs%n", s.profile,
        s.runs());
    List<AgarClusterBenchmark.RunResult> runs =
        new AgarClusterBenchmark(s, line -> progress.println("agar: " + line)).run();
    String summary = AgarClusterReport.write(out, s, runs, stamp);
    progress.printf(Locale.ROOT, "eccache-bench agar: done in %.1f min: %s%n",
        (System.nanoTime() - began) / 60e9, out.resolve("summary.md"));
    System.out.println(summary);
    return 0;
  }
}
