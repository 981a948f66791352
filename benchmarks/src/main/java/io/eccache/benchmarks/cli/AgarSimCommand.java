package io.eccache.benchmarks.cli;

import io.eccache.benchmarks.report.RunStamp;
import io.eccache.benchmarks.sim.agar.AgarRunResult;
import io.eccache.benchmarks.sim.agar.AgarSimConfig;
import io.eccache.benchmarks.sim.agar.AgarSimReport;
import io.eccache.benchmarks.sim.agar.AgarSweep;
import io.eccache.benchmarks.sim.agar.CachePolicySpec;
import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code eccache-bench agar-sim}: Agar's evaluation (ICDCS'17, Fig. 6, 7, 8a and 8b) in simulated time at
 * the paper's scale: Agar, LFU-c, LRU-c and the backend over Table I's regions, swept over the cache size
 * and the Zipf skew, several seeds per point; CSV, summary and plots under {@code --out}.
 */
@Command(name = "agar-sim", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Simulate Agar against LFU-c, LRU-c (c = 1, 3, 5, 7, 9) and no cache at the paper's scale"
        + " (300 objects of 1 MB, RS(9,3) over Table I's regions, clients in Frankfurt): the cache-size"
        + " sweep (Fig. 8a) and the skew sweep (Fig. 8b); raw.csv, summary.md and plots under --out.")
final class AgarSimCommand implements Callable<Integer> {
  @Option(names = "--sweep", split = ",", description = "Sweeps to run (default: both): cache (5-100 MB at"
      + " Zipf 1.1), skew (Zipf 0.8-1.4 at 10 MB).")
  List<String> sweeps = new ArrayList<>(AgarSweep.NAMES);

  @Option(names = "--out", description = "Results directory (default ${DEFAULT-VALUE}).")
  Path out = Paths.get("benchmarks", "results", "agar-sim");

  @Option(names = "--repeats", description = "Seeds per point (default ${DEFAULT-VALUE}, the paper's runs);"
      + " each cell is the median with the min-max.")
  int repeats = 5;

  @Option(names = "--seed", description = "First seed (default ${DEFAULT-VALUE}).")
  long seed = 1;

  @Option(names = "--requests", description = "Measured reads per run, all clients together (default"
      + " ${DEFAULT-VALUE}, the paper's).")
  int requests = 1000;

  @Option(names = "--clients", description = "Closed-loop clients (default ${DEFAULT-VALUE}, the paper's).")
  int clients = 2;

  @Option(names = "--objects", description = "Objects of 1 MB (default ${DEFAULT-VALUE}, the paper's).")
  int objects = AgarSimConfig.PAPER_OBJECTS;

  @Option(names = "--warmup-periods", description = "Periods before measuring (default ${DEFAULT-VALUE}).")
  int warmupPeriods = 3;

  @Option(names = "--period-s", description = "Reconfiguration period, simulated seconds (default"
      + " ${DEFAULT-VALUE}, the paper's).")
  long periodSeconds = 30;

  @Option(names = "--cache-ms", description = "One chunk read from the cache, ms, > 0 (default"
      + " ${DEFAULT-VALUE}).")
  double cacheMs = 1;

  @Option(names = "--latency-scale", description = "Factor on Table I's latencies (default"
      + " ${DEFAULT-VALUE}).")
  double latencyScale = 1.0;

  @Option(names = "--jitter", description = "Sigma of a mean-1 lognormal factor on each chunk read (default"
      + " ${DEFAULT-VALUE}: Table I's fixed latencies).")
  double jitter = 0;

  @Option(names = "--fill", description = "How configured chunks get into the cache: reader (default, the"
      + " paper's: a reader writes them after its read) or tick (Agar's and LFU's all at once at each"
      + " reconfiguration, an idealised prefetch).")
  String fill = "reader";

  @Spec
  CommandSpec spec;

  private final PrintStream progress = System.err;

  @Override
  public Integer call() throws Exception {
    List<AgarSweep> chosen = new ArrayList<>();
    for (String name : sweeps) {
      chosen.add(AgarSweep.named(name.trim()));
    }
    if (repeats < 1) {
      throw new IllegalArgumentException("--repeats must be >= 1 but was " + repeats);
    }
    if (!(cacheMs > 0) || Double.isInfinite(cacheMs)) {
      throw new IllegalArgumentException("--cache-ms must be finite and > 0 but was " + cacheMs);
    }
    if (!fill.equals("reader") && !fill.equals("tick")) {
      throw new IllegalArgumentException("--fill must be reader or tick but was '" + fill + "'");
    }
    // Every setting is checked here, before anything runs.
    AgarSimConfig base = AgarSimConfig.paper()
        .withLayout(AgarSimConfig.tableOne(latencyScale, Duration.ofNanos(Math.round(cacheMs * 1e6))))
        .withSeed(seed).withMeasuredRequests(requests).withClients(clients).withObjects(objects)
        .withWarmupPeriods(warmupPeriods).withPeriod(Duration.ofSeconds(periodSeconds))
        .withJitterSigma(jitter).withFillAtTick(fill.equals("tick"));
    List<CachePolicySpec> policies = CachePolicySpec.paperSet();
    Map<AgarSweep, Map<Double, List<Map<String, AgarRunResult>>>> results = new LinkedHashMap<>();
    long started = System.nanoTime();
    for (AgarSweep sweep : chosen) {
      progress.printf("== agar-sim %s (%s): %d points x %d policies x %d seeds%n", sweep.name(),
          sweep.figure(), sweep.values().size(), policies.size(), repeats);
      results.put(sweep, sweep.run(base, policies, repeats, progress::println));
    }
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("sweeps", String.join(",", sweeps));
    settings.put("repeats", String.valueOf(repeats));
    settings.put("seed", String.valueOf(seed));
    settings.put("requests", String.valueOf(requests));
    settings.put("clients", String.valueOf(clients));
    settings.put("objects", String.valueOf(objects));
    settings.put("warm-up periods", String.valueOf(warmupPeriods));
    settings.put("period", periodSeconds + " s");
    settings.put("cache read", cacheMs + " ms");
    settings.put("latency scale", String.valueOf(latencyScale));
    settings.put("jitter", String.valueOf(jitter));
    settings.put("fill", fill);
    String summary = AgarSimReport.write(out, base, results,
        RunStamp.capture(Paths.get("").toAbsolutePath(), TypedCommand.of(spec, "agar-sim")), settings);
    progress.printf(Locale.ROOT, "== agar-sim done in %.1f s: %s%n", (System.nanoTime() - started) / 1e9,
        out.resolve("summary.md"));
    System.out.println(summary);
    return 0;
  }
}
