package io.eccache.benchmarks.sim;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.eccache.benchmarks.ComparedScheme;
import io.eccache.benchmarks.cluster.BenchSettings;
import io.eccache.benchmarks.cluster.Scenario;
import io.eccache.benchmarks.report.CsvWriter;
import io.eccache.benchmarks.report.LatencySummary;
import io.eccache.benchmarks.report.MarkdownTable;
import io.eccache.benchmarks.report.Plots;
import io.eccache.benchmarks.report.RunStamp;
import io.eccache.benchmarks.report.Spread;
import io.eccache.policy.ZipfSampler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * Checks the simulator against the cluster benchmark, like with like: simulates the benchmark's quick
 * {@code skew} run (its workers, link cap, objects, clients, the very request sequence its seed draws)
 * in the mode the measured run used (each scheme alone, or interleaved), with the allocation the
 * measured run held (its {@code units.csv}, if it wrote one) or else the one the coordinator plans from
 * the counts of the benchmark's learning pass, over many random placements; and shows, per metric, the
 * simulated median and range, the measured value and their ratio (the residual).
 *
 * <p>The measured {@code raw.csv} is read by column name: {@code scheme} and the metric columns
 * ({@code mean_ms}, {@code median_ms}, {@code p99_ms}, {@code p999_ms}, {@code lambda_pct},
 * {@code useful_bytes}, {@code served_bytes}); an optional {@code mode} column ({@code alone} or
 * {@code interleaved}; runs without one predate issue 14 and were interleaved) selects the rows;
 * several rows per scheme (repeats) are summarised by their median, and an optional {@code seed} column
 * names each repeat's workload seed, whose request sequence the placements replay in turn. The optional {@code units.csv} beside
 * it has columns {@code scheme,object,units}: per scheme label, the object's index in the benchmark's
 * workload (the Zipf rank its sampler draws) and the units (parities, copies, partitions) it held during
 * the measured phase.
 */
public final class BenchmarkValidation {
  private static final List<ComparedScheme> SCHEMES = List.of(ComparedScheme.EC, ComparedScheme.SR, ComparedScheme.SP);
  /** The mode of a measured run whose raw.csv has no mode column: the driver before issue 14. */
  static final SimMode LEGACY_MODE = SimMode.INTERLEAVED;

  private final int workers;
  private final double workerMbit;
  private final int placements;
  private final BenchSettings bench;
  private final SimMode requestedMode;
  private final LateBinding lateBinding;

  /**
   * @param workers the benchmark's workers ({@code eccache bench --workers})
   * @param workerMbit the benchmark's per-worker link cap ({@code --worker-mbit})
   * @param placements random placements (seeds) to simulate, at least 1: placement decides λ on so few
   *     objects, and the measured run is one draw of it
   * @param tiny a smaller workload, for tests
   * @param mode the mode to simulate, or null for the measured run's own (like with like)
   * @param lateBinding the late-binding model to simulate
   */
  public BenchmarkValidation(int workers, double workerMbit, int placements, boolean tiny, SimMode mode,
      LateBinding lateBinding) {
    if (placements < 1) {
      throw new IllegalArgumentException("placements must be >= 1 but was " + placements);
    }
    this.workers = workers;
    this.workerMbit = workerMbit;
    this.placements = placements;
    this.bench = Scenario.all("quick").get(0).runs.values().iterator().next().copy();
    if (tiny) {
      bench.requests = 40;
      bench.learning = 40;
    }
    this.requestedMode = mode;
    this.lateBinding = java.util.Objects.requireNonNull(lateBinding, "lateBinding");
  }

  /**
   * The benchmark's workload as {@code ClusterBenchmark.run} draws it from its seed: the object bytes
   * first (one {@code nextInt} per 4 bytes), then the learning sequence, then the measured one.
   *
   * @param workloadSeed the benchmark's seed the workload is drawn from (one measured repeat's)
   * @param seed the placement seed
   * @param pinned per scheme, units by object rank to pin; empty to plan from the learned counts
   * @return the configuration for one placement seed, replaying the measured sequence with the learned
   *     counts as popularity
   */
  SimulationConfig config(long workloadSeed, long seed, Map<ComparedScheme, int[]> pinned) {
    Random random = new Random(workloadSeed);
    long intsPerObject = (bench.objectBytes + 3) / 4;
    for (long i = 0; i < bench.objects * intsPerObject; i++) {
      random.nextInt();
    }
    ZipfSampler zipf = new ZipfSampler(bench.objects, bench.zipf);
    double[] learned = new double[bench.objects];
    for (int i = 0; i < bench.learning; i++) {
      learned[zipf.next(random)]++;
    }
    int[] sequence = new int[bench.requests];
    for (int i = 0; i < sequence.length; i++) {
      sequence[i] = zipf.next(random);
    }
    SimulationConfig.Builder b = SimulationConfig.builder().name("validate").servers(workers)
        .serverBandwidthBytesPerSec(workerMbit * 1e6 / 8).clients(bench.clients)
        .objectSizeBytes(bench.objectBytes).zipfExponent(bench.zipf).k(bench.k).baseParities(bench.r)
        .delta(bench.delta).replay(learned, sequence).seed(seed).lateBinding(lateBinding);
    pinned.forEach(b::pinnedUnits);
    return b.build();
  }

  /**
   * Simulates every placement and writes {@code raw.csv}, {@code summary.md} and a latency CDF into
   * {@code dir}.
   *
   * @param dir output directory, created if missing
   * @param measuredCsv the benchmark's {@code skew/raw.csv}; if missing, the summary says so and shows
   *     the simulation alone
   * @param stamp commit and command line for the summary
   * @param settings the settings the command was given, for the summary
   * @param progress receives progress lines
   * @return the summary's Markdown
   * @throws IOException if a file cannot be read or written
   * @throws IllegalArgumentException if the measured files are malformed
   */
  public String write(Path dir, Path measuredCsv, RunStamp stamp, Map<String, String> settings,
      Consumer<String> progress) throws IOException {
    Files.createDirectories(dir);
    boolean found = Files.exists(measuredCsv);
    List<Map<String, String>> rows = found ? readCsv(measuredCsv) : List.of();
    SimMode measuredMode = measuredMode(rows);
    SimMode mode = requestedMode != null ? requestedMode : measuredMode;
    SimMode other = mode == SimMode.ALONE ? SimMode.INTERLEAVED : SimMode.ALONE;
    Map<String, List<Map<String, String>>> measured = byScheme(rows, measuredMode);
    Path unitsCsv = measuredCsv.resolveSibling("units.csv");
    Map<Long, Map<ComparedScheme, int[]>> pinned = found && Files.exists(unitsCsv)
        ? readUnits(unitsCsv, bench.objects) : Map.of();
    long[] workloads = workloadSeeds(measured, bench.seed);

    List<Map<ComparedScheme, SimulationResult>> main = new ArrayList<>();
    List<Map<ComparedScheme, SimulationResult>> contrast = new ArrayList<>();
    try (CsvWriter raw = new CsvWriter(dir.resolve("raw.csv"), "seed", "mode", "scheme", "requests",
        "memory", "mean_ms", "median_ms", "p99_ms", "p999_ms", "lambda_pct", "eta_pct", "decodes",
        "extra_bytes", "served_bytes")) {
      for (long seed = 1; seed <= placements; seed++) {
        // Placements take turns over the measured repeats' workloads, so each is replayed alike.
        long workload = workloads[(int) ((seed - 1) % workloads.length)];
        SimulationConfig config = config(workload, seed, unitsOf(pinned, workload));
        Map<ComparedScheme, SimulationResult> same = Simulator.simulate(config, SCHEMES, mode);
        Map<ComparedScheme, SimulationResult> different = Simulator.simulate(config, SCHEMES, other);
        main.add(same);
        contrast.add(different);
        writeRows(raw, seed, mode, same);
        writeRows(raw, seed, other, different);
        progress.accept(String.format(Locale.ROOT, "sim validate: placement %d/%d", seed, placements));
      }
    }
    Map<String, Histogram> cdfs = new LinkedHashMap<>();
    main.get(0).forEach((scheme, r) -> cdfs.put(scheme.displayName(), r.latencyMicros()));
    Plots.latencyCdf(dir.resolve("latency-cdf.png"), "validate: simulated benchmark skew run ("
        + mode.label() + ", placement 1), read latency CDF", cdfs);

    MarkdownTable table = new MarkdownTable("metric", "measured", "sim median", "sim min-max",
        "sim / measured", "measured at sim percentile", "sim " + other.label() + " (median)");
    for (Metric metric : metrics()) {
      double[] values = values(main, metric.value);
      Spread sim = Spread.of(values);
      Double real = metric.measured.apply(measured);
      table.row(metric.name, real, sim.median(), String.format(Locale.ROOT, "%.2f-%.2f", sim.min(),
          sim.max()), real == null || real == 0 ? null
              : String.format(Locale.ROOT, "%.2f", sim.median() / real),
          real == null ? null : String.format(Locale.ROOT, "%.0f",
              100.0 * Arrays.stream(values).filter(v -> v <= real).count() / values.length),
          Spread.of(values(contrast, metric.value)).median());
    }
    SimulationConfig config = config(workloads[0], 1, unitsOf(pinned, workloads[0]));
    String likeWithLike = !found ? "" : mode == measuredMode ? "Simulated in the measured run's mode (**"
        + mode.label() + "**)." : "**Not like with like:** the measured run is " + measuredMode.label()
        + ", the simulation " + mode.label() + " (`--mode`).";
    String summary = "# validate: the simulator against the measured cluster benchmark (skew, quick)\n\n"
        + SimReport.stampLines(stamp, settings) + "\n"
        + "Measured: `" + measuredCsv + "` ("
        + (found ? "`bin/eccache-bench bench --scenario skew`, " + measuredMode.label() + " mode"
            + (rows.isEmpty() || rows.get(0).containsKey("mode") ? "" : " (no mode column: run before"
                + " issue 14, interleaved)") : "NOT FOUND: simulation only")
        + "). " + likeWithLike + "\n\n"
        + "Simulated: " + SimReport.describe(config) + "; the benchmark's own request sequence"
        + (workloads.length == 1 ? " (seed " + workloads[0] + ")" : "s of its " + workloads.length
            + " repeats (seeds " + Arrays.toString(workloads) + "), placements taking turns") + "; "
        + SimReport.modeNote(mode) + " " + SimReport.lateBindingNote(config) + " "
        + (pinned.isEmpty() ? "Allocation: planned by the coordinator's planner from the object counts of the"
            + " benchmark's " + bench.learning + "-request learning pass (no `units.csv` beside the"
            + " measured run, so not its actual units)."
            : "Allocation: pinned to the units per object the measured run held (`" + unitsCsv + "`"
                + (pinned.containsKey(EVERY_REPEAT) ? "" : ", each repeat's own") + ").")
        + " " + placements + " random placements (the measured run is one placement, and with "
        + bench.objects + " objects on " + workers + " workers placement decides much of λ).\n\n"
        + table + "\n"
        + "Residuals: \"sim / measured\" is the simulated median over the measured value (1.00: they"
        + " agree); \"measured at sim percentile\" is the share of simulated placements at or below the"
        + " measured value (between 10 and 90, placement alone explains the difference). The last column"
        + " simulates the other mode over the same placements: the gap is what the mode does to the"
        + " comparison. The simulator has no per-read costs (the coordinator lookup, opening a stream per"
        + " split, client CPU) and lets every transfer use its full share of a link at once, where a TCP"
        + " stream through a tc-shaped link takes time to reach it: measured latencies above simulated ones"
        + " by a similar number of milliseconds per read are that.\n";
    Files.write(dir.resolve("summary.md"), summary.getBytes(StandardCharsets.UTF_8));
    return summary;
  }

  private static void writeRows(CsvWriter raw, long seed, SimMode mode,
      Map<ComparedScheme, SimulationResult> runs) throws IOException {
    for (SimulationResult r : runs.values()) {
      LatencySummary l = r.latency();
      raw.row(seed, mode.label(), r.scheme(), r.completedRequests(), r.memoryFactor(), l.meanMillis(),
          l.medianMillis(), l.p99Millis(), l.p999Millis(), r.lambdaPercent(), r.etaPercent(),
          r.decodeCount(), r.extraBytes(), r.servedBytes());
    }
  }

  /** A compared number: how to get it from one simulated run and from the measured rows. */
  private static final class Metric {
    final String name;
    final ToDoubleFunction<Map<ComparedScheme, SimulationResult>> value;
    final Function<Map<String, List<Map<String, String>>>, Double> measured;

    Metric(String name, ToDoubleFunction<Map<ComparedScheme, SimulationResult>> value,
        Function<Map<String, List<Map<String, String>>>, Double> measured) {
      this.name = name;
      this.value = value;
      this.measured = measured;
    }
  }

  private static List<Metric> metrics() {
    List<Metric> metrics = new ArrayList<>();
    for (ComparedScheme scheme : SCHEMES) {
      String id = scheme.label();
      metrics.add(new Metric("λ " + scheme + " %", r -> r.get(scheme).lambdaPercent(),
          m -> median(m, id, "lambda_pct")));
    }
    String[] stats = {"mean", "median", "p99", "p99.9"};
    String[] columns = {"mean_ms", "median_ms", "p99_ms", "p999_ms"};
    for (int i = 0; i < stats.length; i++) {
      int stat = i;
      metrics.add(new Metric("SR/EC " + stats[i], r -> SimReport.ratio(r, stat),
          m -> pairedRatio(m, columns[stat])));
    }
    for (ComparedScheme scheme : SCHEMES) {
      String id = scheme.label();
      for (int i = 0; i < stats.length; i++) {
        int stat = i;
        metrics.add(new Metric(scheme + " " + stats[i] + " ms", r -> latency(r.get(scheme).latency(), stat),
            m -> median(m, id, columns[stat])));
      }
    }
    metrics.add(new Metric("EC extra bytes %", r -> r.get(ComparedScheme.EC).extraPercent(),
        m -> extraPercent(m, ComparedScheme.EC.label())));
    return metrics;
  }

  private static double latency(LatencySummary l, int stat) {
    return new double[] {l.meanMillis(), l.medianMillis(), l.p99Millis(), l.p999Millis()}[stat];
  }

  /** The median over a scheme's measured rows (repeats) of one column; null if absent. */
  static Double median(Map<String, List<Map<String, String>>> measured, String scheme, String column) {
    double[] v = column(measured, scheme, column);
    return v == null ? null : Spread.of(v).median();
  }

  /** SR/EC of a column, per repeat (rows paired in order), then the median; null if absent. */
  static Double pairedRatio(Map<String, List<Map<String, String>>> measured, String column) {
    double[] sr = column(measured, ComparedScheme.SR.label(), column);
    double[] ec = column(measured, ComparedScheme.EC.label(), column);
    if (sr == null || ec == null) {
      return null;
    }
    if (sr.length != ec.length) {
      return Spread.of(sr).median() / Spread.of(ec).median();
    }
    double[] ratios = new double[sr.length];
    for (int i = 0; i < ratios.length; i++) {
      ratios[i] = sr[i] / ec[i];
    }
    return Spread.of(ratios).median();
  }

  /** Bytes served beyond those asked for, in percent of those asked for (the simulator's extra bytes). */
  private static Double extraPercent(Map<String, List<Map<String, String>>> measured, String scheme) {
    double[] served = column(measured, scheme, "served_bytes");
    double[] useful = column(measured, scheme, "useful_bytes");
    if (served == null || useful == null || served.length != useful.length) {
      return null;
    }
    double[] pct = new double[served.length];
    for (int i = 0; i < pct.length; i++) {
      pct[i] = useful[i] > 0 ? 100 * (served[i] - useful[i]) / useful[i] : Double.NaN;
    }
    double[] known = Arrays.stream(pct).filter(Double::isFinite).toArray();
    return known.length == 0 ? null : Spread.of(known).median();
  }

  private static double[] column(Map<String, List<Map<String, String>>> measured, String scheme,
      String column) {
    List<Map<String, String>> rows = measured.get(scheme);
    if (rows == null || rows.isEmpty() || rows.stream().anyMatch(r -> r.get(column) == null
        || r.get(column).isEmpty())) {
      return null;
    }
    double[] values;
    try {
      values = rows.stream().mapToDouble(r -> Double.parseDouble(r.get(column))).toArray();
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("measured column " + column + " of " + scheme
          + " is not a number: " + e.getMessage(), e);
    }
    // A measured value that is not finite (e.g. NaN for no reads) is not a value to compare with.
    return Arrays.stream(values).allMatch(Double::isFinite) ? values : null;
  }

  private static double[] values(List<Map<ComparedScheme, SimulationResult>> runs,
      ToDoubleFunction<Map<ComparedScheme, SimulationResult>> value) {
    return runs.stream().mapToDouble(value).toArray();
  }

  /**
   * @return the seeds of the measured repeats (its {@code seed} column, in order of appearance), or the
   *     given default when it has none
   */
  static long[] workloadSeeds(Map<String, List<Map<String, String>>> measured, long fallback) {
    long[] seeds = measured.values().stream().flatMap(List::stream).map(r -> r.get("seed"))
        .filter(v -> v != null && !v.isEmpty()).mapToLong(v -> {
          try {
            return Long.parseLong(v.trim());
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("measured seed '" + v + "' is not an integer", e);
          }
        }).distinct().toArray();
    return seeds.length == 0 ? new long[] {fallback} : seeds;
  }

  /** @return the measured run's mode: its {@code mode} column, else {@link #LEGACY_MODE} */
  static SimMode measuredMode(List<Map<String, String>> rows) {
    for (Map<String, String> row : rows) {
      String mode = row.get("mode");
      if (mode != null && !mode.isEmpty()) {
        for (SimMode m : SimMode.values()) {
          if (m.label().equals(mode.trim().toLowerCase(Locale.ROOT))) {
            return m;
          }
        }
        throw new IllegalArgumentException("measured mode '" + mode + "' is neither alone nor interleaved");
      }
    }
    return LEGACY_MODE;
  }

  /** The measured rows of the given mode (all rows when there is no mode column), by scheme label. */
  static Map<String, List<Map<String, String>>> byScheme(List<Map<String, String>> rows, SimMode mode) {
    Map<String, List<Map<String, String>>> byScheme = new LinkedHashMap<>();
    for (Map<String, String> row : rows) {
      String m = row.get("mode");
      if (m == null || m.isEmpty() || m.trim().equalsIgnoreCase(mode.label())) {
        byScheme.computeIfAbsent(row.get("scheme"), s -> new ArrayList<>()).add(row);
      }
    }
    return byScheme;
  }

  /** The key of {@link #readUnits}'s map for a {@code units.csv} without a seed column. */
  static final long EVERY_REPEAT = Long.MIN_VALUE;

  /** The units to pin for the repeat drawn from {@code workloadSeed}; empty when none are known. */
  private static Map<ComparedScheme, int[]> unitsOf(Map<Long, Map<ComparedScheme, int[]>> pinned,
      long workloadSeed) {
    Map<ComparedScheme, int[]> own = pinned.get(workloadSeed);
    return own != null ? own : pinned.getOrDefault(EVERY_REPEAT, Map.of());
  }

  /**
   * Reads {@code units.csv}: per repeat's seed (its {@code seed} column; {@link #EVERY_REPEAT} when
   * it has none), per scheme label, per object index, the units it held.
   *
   * @throws IllegalArgumentException if a row is malformed or a scheme misses an object
   */
  static Map<Long, Map<ComparedScheme, int[]>> readUnits(Path csv, int objects)
      throws IOException {
    Map<Long, Map<ComparedScheme, int[]>> units = new java.util.TreeMap<>();
    for (Map<String, String> row : readCsv(csv)) {
      ComparedScheme scheme = null;
      for (ComparedScheme s : SCHEMES) {
        if (s.label().equals(row.get("scheme"))) {
          scheme = s;
        }
      }
      if (scheme == null) {
        continue; // a scheme the simulator does not compare here
      }
      long seed;
      int object;
      int value;
      try {
        seed = row.containsKey("seed") ? Long.parseLong(row.get("seed")) : EVERY_REPEAT;
        object = Integer.parseInt(row.get("object"));
        value = Integer.parseInt(row.get("units"));
      } catch (NumberFormatException | NullPointerException e) {
        throw new IllegalArgumentException(csv + ": row " + row + " needs integer seed (if any),"
            + " object and units", e);
      }
      if (object < 0 || object >= objects) {
        throw new IllegalArgumentException(csv + ": object " + object + " is not in [0, " + objects + ")");
      }
      units.computeIfAbsent(seed, s -> new EnumMap<>(ComparedScheme.class))
          .computeIfAbsent(scheme, s -> {
            int[] a = new int[objects];
            Arrays.fill(a, -1);
            return a;
          })[object] = value;
    }
    units.forEach((seed, bySchemes) -> bySchemes.forEach((scheme, a) -> {
      for (int i = 0; i < a.length; i++) {
        if (a[i] < 0) {
          throw new IllegalArgumentException(csv + ": " + scheme.label() + " has no units for object "
              + i + (seed == EVERY_REPEAT ? "" : " in the repeat of seed " + seed));
        }
      }
    }));
    return units;
  }

  /** A CSV with a header line (RFC 4180: quoted fields may hold commas), as rows by column. */
  static List<Map<String, String>> readCsv(Path csv) throws IOException {
    if (Files.size(csv) == 0) {
      throw new IllegalArgumentException(csv + " is empty: expected a header line");
    }
    CsvMapper mapper = new CsvMapper();
    try (MappingIterator<Map<String, String>> it = mapper.readerForMapOf(String.class)
        .with(CsvSchema.emptySchema().withHeader()).readValues(csv.toFile())) {
      List<Map<String, String>> rows = new ArrayList<>();
      while (it.hasNext()) {
        Map<String, String> row = new LinkedHashMap<>();
        it.next().forEach((k, v) -> row.put(k.trim(), v == null ? "" : v.trim()));
        rows.add(row);
      }
      return rows;
    }
  }
}
