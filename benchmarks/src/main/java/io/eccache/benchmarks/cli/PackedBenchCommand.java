package io.eccache.benchmarks.cli;

import io.eccache.benchmarks.packed.PackedUpdateBench;
import io.eccache.benchmarks.packed.PackedUpdateReport;
import io.eccache.benchmarks.report.RunStamp;
import io.eccache.cli.ExitCodes;
import java.io.PrintWriter;
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
 * {@code eccache-bench packed-bench}: LogECMem's comparisons on eccache's own packed store (tier 2
 * of its evaluation; tier 1, the paper's testbed, is {@code logecmem}).
 */
@Command(name = "packed-bench", mixinStandardHelpOptions = true,
    description = "LogECMem's comparisons on eccache's packed store: hybrid (LogECMem), in-place"
        + " (IPMem), full-stripe (FSMem) and replicas, each on an in-process cluster of its own;"
        + " update throughput from 1 to 16 threads, the phases of an update, master CPU and"
        + " journal entries per update, memory. Writes raw.csv, summary.md and plots to --out.")
final class PackedBenchCommand implements Callable<Integer> {
  @Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--profile", defaultValue = "quick",
      description = "quick (600 values, 200 updates per step, about 15 minutes) or full (10,000"
          + " values, 2,000 updates per step); default quick.")
  String profile;

  @Option(names = "--code", defaultValue = "6-3", description = "RS(k, r) as K-R (default 6-3;"
      + " k + r workers, r - 1 of them hold the log parities).")
  String code;

  @Option(names = "--threads", split = ",", description = "Client thread counts (default"
      + " 1,4,16).")
  List<Integer> threads = new ArrayList<>();

  @Option(names = "--mode", description = "hybrid, inplace, fullstripe or replicas"
      + " (repeatable; default all).")
  List<String> modes = new ArrayList<>();

  @Option(names = "--values", description = "Values loaded (overrides the profile).")
  Integer values;

  @Option(names = "--updates", description = "Updates per step (overrides the profile).")
  Integer updates;

  @Option(names = "--repeats", defaultValue = "3", description = "Runs of each mode (default 3).")
  int repeats;

  @Option(names = "--workers-as", defaultValue = "in-process",
      description = "in-process (default) or processes (each worker a JVM of its own).")
  String workersAs;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of values and keys.")
  long seed;

  @Option(names = "--out", defaultValue = "benchmarks/results/logecmem/tier2",
      description = "Where the results go (default benchmarks/results/logecmem/tier2).")
  Path out;

  @Override
  public Integer call() throws Exception {
    PackedUpdateBench.Settings s = settings();
    PrintWriter progress = spec.commandLine().getOut();
    RunStamp stamp = RunStamp.capture(Paths.get("."), TypedCommand.of(spec, "packed-bench"));
    List<PackedUpdateBench.Run> runs = new PackedUpdateBench(s).run(line -> {
      progress.println("  " + line);
      progress.flush();
    });
    String summary = PackedUpdateReport.write(out, runs, s, stamp);
    Files.writeString(out.resolve("summary.md"), summary);
    progress.print(summary);
    progress.flush();
    return runs.stream().allMatch(r -> r.wrong == 0) ? ExitCodes.OK : 1;
  }

  /** The profile's settings with the overrides, checked before any server starts. */
  PackedUpdateBench.Settings settings() {
    PackedUpdateBench.Settings s = new PackedUpdateBench.Settings();
    switch (profile) {
      case "quick":
        break;
      case "full":
        s.values = 10_000;
        s.updatesPerStep = 2_000;
        break;
      default:
        throw bad("no profile '" + profile + "': give quick or full");
    }
    String[] kr = code.split("-");
    try {
      s.k = Integer.parseInt(kr[0]);
      s.r = Integer.parseInt(kr[1]);
    } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
      throw bad("--code " + code + ": give K-R, e.g. 6-3");
    }
    if (kr.length != 2 || s.k < 2 || s.r < 2 || s.k + s.r > 16) {
      throw bad("--code " + code + ": need k >= 2, r >= 2 and k + r <= 16 workers");
    }
    if (!threads.isEmpty()) {
      if (threads.stream().anyMatch(t -> t < 1 || t > 64)) {
        throw bad("--threads " + threads + ": each from 1 to 64");
      }
      s.threads = threads;
    }
    if (!modes.isEmpty()) {
      List<PackedUpdateBench.Mode> parsed = new ArrayList<>();
      for (String m : modes) {
        try {
          parsed.add(PackedUpdateBench.Mode.valueOf(m.trim().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
          throw bad("--mode " + m + ": give hybrid, inplace, fullstripe or replicas");
        }
      }
      s.modes = parsed;
    }
    if (values != null) {
      s.values = values;
    }
    if (updates != null) {
      s.updatesPerStep = updates;
    }
    if (s.values < s.k * 2 || s.updatesPerStep < 1 || repeats < 1) {
      throw bad("need --values >= 2k, --updates >= 1 and --repeats >= 1");
    }
    s.repeats = repeats;
    s.seed = seed;
    if (!workersAs.equals("in-process") && !workersAs.equals("processes")) {
      throw bad("--workers-as " + workersAs + ": give in-process or processes");
    }
    s.workerProcesses = workersAs.equals("processes");
    return s;
  }

  private CommandLine.ParameterException bad(String message) {
    return new CommandLine.ParameterException(spec.commandLine(), message);
  }
}
