package io.eccache.benchmarks.cli;

import io.eccache.benchmarks.report.RunStamp;
import io.eccache.benchmarks.sim.BenchmarkValidation;
import io.eccache.benchmarks.sim.LateBinding;
import io.eccache.benchmarks.sim.PopularityInput;
import io.eccache.benchmarks.sim.SimKnobs;
import io.eccache.benchmarks.sim.SimMode;
import io.eccache.benchmarks.sim.SimPreset;
import io.eccache.benchmarks.sim.SimPresets;
import io.eccache.benchmarks.sim.SimReport;
import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code eccache sim}: the discrete-event simulator over the coordinator's own placement and planner, at
 * the paper's scale and beyond, and its validation against the measured cluster benchmark. Every summary
 * is stamped with the commit, the command line and the settings.
 */
@Command(name = "sim", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Simulate EC-Cache, selective replication and SP-Cache at the paper's scale and beyond"
        + " (processor-sharing links, the coordinator's own planner); results, summaries and plots"
        + " under --out. Workload options replace the presets' values in every run.")
final class SimCommand implements Callable<Integer> {
  @Option(names = "--preset", split = ",", description = "Studies to run (default: all): paper, scale,"
      + " background, stragglers, failure, spcache, validate, all.")
  List<String> presets = new ArrayList<>(List.of("all"));

  @Option(names = "--out", description = "Results directory (default ${DEFAULT-VALUE}).")
  Path out = Paths.get("benchmarks", "results", "sim");

  @Option(names = "--mode", description = "alone (default: each scheme with its own clients on its own"
      + " cluster) or interleaved (every request reads every scheme in turn over one cluster, as the"
      + " cluster benchmark's interleaved mode). validate defaults to the measured run's mode.")
  String mode;

  @Option(names = "--profile", description = "quick (3 seeds per result) or full (5) (default"
      + " ${DEFAULT-VALUE}).")
  String profile = "quick";

  @Option(names = "--repeats", description = "Seeds per result, overriding the profile's; each cell is"
      + " the median with the min-max.")
  Integer repeats;

  @Mixin WorkloadOptions workload;

  @Option(names = "--popularity", description = "What the allocation is planned from: learned (default:"
      + " counts of a learning pass, as the cluster benchmark) or zipf (the exact probabilities).")
  String popularity;

  @Option(names = "--late-binding", description = "What EC's Δ extra splits do once the k-th arrives:"
      + " whole (default: sent to the end, the paper's Δ/k and what the client's links carry, as"
      + " Alluxio's block stream sends ahead of a reader that stops), slice (stop at the end of the"
      + " current --slice-kib slice) or instant (cancelled at once; ideal).")
  String lateBinding;

  @Option(names = "--slice-kib", description = "Slice of --late-binding slice, KiB (the client's: 1024).")
  Integer sliceKib;

  @Option(names = "--measured", description = "The cluster benchmark's skew results that validate"
      + " compares with (default ${DEFAULT-VALUE}); a units.csv beside it pins the allocation.")
  Path measured = Paths.get("benchmarks", "results", "skew", "raw.csv");

  @Option(names = "--placements", description = "Random placements validate simulates"
      + " (default ${DEFAULT-VALUE}).")
  int placements = 50;

  /** For the smoke test: a few hundred requests on small clusters. */
  @Option(names = "--tiny", hidden = true)
  boolean tiny;

  @Spec
  CommandSpec spec;

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
    int seeds = repeats();
    SimKnobs knobs = knobs();
    SimMode chosenMode = mode == null ? null : parse(SimMode.class, "--mode", mode);
    SimMode presetMode = chosenMode == null ? SimMode.ALONE : chosenMode;
    LateBinding binding = lateBinding == null ? LateBinding.WHOLE
        : parse(LateBinding.class, "--late-binding", lateBinding);
    // Fails on bad knobs before anything runs.
    for (String name : chosen) {
      if (!name.equals("validate")) {
        SimPresets.named(name, tiny).runs().values().forEach(run -> knobs.apply(run.config()));
      }
    }
    for (String name : chosen) {
      long started = System.nanoTime();
      progress.printf("== sim %s%n", name);
      String summary;
      if (name.equals("validate")) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("mode", chosenMode == null ? "the measured run's" : chosenMode.label());
        settings.put("placements", String.valueOf(tiny ? Math.min(placements, 3) : placements));
        int workers = WorkloadOptions.or(workload.workers, BenchCommand.DEFAULT_WORKERS);
        double workerMbit = WorkloadOptions.or(workload.workerMbit,
            (double) BenchCommand.DEFAULT_WORKER_MBIT);
        settings.put("workers", String.valueOf(workers));
        settings.put("worker-mbit", String.valueOf(workerMbit));
        settings.put("late-binding", binding.name().toLowerCase(Locale.ROOT));
        summary = new BenchmarkValidation(workers, workerMbit,
            tiny ? Math.min(placements, 3) : placements, tiny, chosenMode, binding)
            .write(out.resolve(name), measured, stamp(), settings, progress::println);
      } else {
        SimPreset preset = SimPresets.named(name, tiny);
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("mode", presetMode.label());
        settings.put("profile", profile);
        settings.put("repeats", String.valueOf(seeds));
        settings.putAll(knobs.given());
        summary = SimReport.write(out.resolve(name), preset, presetMode,
            preset.simulate(presetMode, seeds, knobs::apply, progress::println), stamp(), settings);
      }
      progress.printf("== sim %s done in %.0f s%n", name, (System.nanoTime() - started) / 1e9);
      System.out.println(summary);
    }
    return 0;
  }

  private int repeats() {
    if (repeats != null) {
      if (repeats < 1) {
        throw new IllegalArgumentException("--repeats must be >= 1 but was " + repeats);
      }
      return repeats;
    }
    switch (profile) {
      case "quick":
        return 3;
      case "full":
        return 5;
      default:
        throw new IllegalArgumentException("--profile must be quick or full but was '" + profile + "'");
    }
  }

  private SimKnobs knobs() {
    workload.check();
    SimKnobs knobs = new SimKnobs();
    knobs.zipf = workload.zipf;
    knobs.objectMib = workload.objectMib;
    knobs.objects = workload.objects;
    knobs.requests = workload.requests;
    knobs.clients = workload.clients;
    knobs.seed = workload.seed;
    knobs.workers = workload.workers;
    knobs.workerMbit = workload.workerMbit;
    knobs.k = workload.k;
    knobs.r = workload.r;
    knobs.delta = workload.delta;
    knobs.budget = workload.budget;
    knobs.popularity = popularity == null ? null : parse(PopularityInput.class, "--popularity", popularity);
    knobs.learning = workload.learning;
    knobs.lateBinding = lateBinding == null ? null : parse(LateBinding.class, "--late-binding", lateBinding);
    knobs.sliceKib = sliceKib;
    return knobs;
  }

  /** An enum option's value in any case, or a typed error naming the accepted values. */
  private static <E extends Enum<E>> E parse(Class<E> type, String option, String value) {
    for (E e : type.getEnumConstants()) {
      if (e.name().equalsIgnoreCase(value.trim())) {
        return e;
      }
    }
    throw new IllegalArgumentException(option + " must be one of "
        + java.util.Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT) + " but was '" + value
        + "'");
  }

  private RunStamp stamp() {
    return RunStamp.capture(Paths.get("").toAbsolutePath(), TypedCommand.of(spec, "sim"));
  }
}
