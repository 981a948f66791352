package io.eccache.benchmarks.cli;

import io.eccache.benchmarks.sim.BenchmarkValidation;
import io.eccache.benchmarks.sim.SimPreset;
import io.eccache.benchmarks.sim.SimPresets;
import io.eccache.benchmarks.sim.SimReport;
import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code eccache sim}: the discrete-event simulator over the coordinator's own placement and allocation
 * code, at the paper's scale and beyond, and its validation against the measured cluster benchmark.
 */
@Command(name = "sim", mixinStandardHelpOptions = true,
    description = "Simulate EC-Cache, selective replication and SP-Cache at the paper's scale and beyond"
        + " (processor-sharing links, the coordinator's own allocators); results, summaries and plots"
        + " under --out.")
final class SimCommand implements Callable<Integer> {
  @Option(names = "--preset", split = ",", description = "Studies to run (default: all): paper, scale,"
      + " background, stragglers, failure, spcache, validate, all.")
  List<String> presets = new ArrayList<>(List.of("all"));

  @Option(names = "--out", description = "Results directory (default ${DEFAULT-VALUE}).")
  Path out = Paths.get("benchmarks", "results", "sim");

  @Option(names = "--measured", description = "The cluster benchmark's skew results that validate"
      + " compares with (default ${DEFAULT-VALUE}).")
  Path measured = Paths.get("benchmarks", "results", "skew", "raw.csv");

  @Option(names = "--placements", description = "Random placements validate simulates"
      + " (default ${DEFAULT-VALUE}).")
  int placements = 50;

  /** For the smoke test: a few hundred requests on small clusters. */
  @Option(names = "--tiny", hidden = true)
  boolean tiny;

  private final PrintStream progress = System.err;

  @Override
  public Integer call() throws Exception {
    List<String> chosen = presets.contains("all") ? SimPresets.NAMES : presets;
    for (String name : chosen) {
      if (!SimPresets.NAMES.contains(name)) {
        throw new IllegalArgumentException("no preset named '" + name + "': choose from "
            + SimPresets.NAMES + " or all");
      }
    }
    for (String name : chosen) {
      long started = System.nanoTime();
      progress.printf("== sim %s%n", name);
      String summary;
      if (name.equals("validate")) {
        summary = new BenchmarkValidation(BenchCommand.DEFAULT_WORKERS, BenchCommand.DEFAULT_WORKER_MBIT,
            tiny ? Math.min(placements, 3) : placements, tiny).write(out.resolve(name), measured,
            progress::println);
      } else {
        SimPreset preset = SimPresets.named(name, tiny);
        summary = SimReport.write(out.resolve(name), preset, preset.simulate(progress::println));
      }
      progress.printf("== sim %s done in %.0f s%n", name, (System.nanoTime() - started) / 1e9);
      System.out.println(summary);
    }
    return 0;
  }
}
