package io.eccache.benchmarks.sim;

import io.eccache.benchmarks.ComparedScheme;
import io.eccache.benchmarks.cluster.BenchSettings;
import io.eccache.benchmarks.cluster.Scenario;
import io.eccache.benchmarks.report.CsvWriter;
import io.eccache.benchmarks.report.LatencySummary;
import io.eccache.benchmarks.report.MarkdownTable;
import io.eccache.benchmarks.report.Plots;
import io.eccache.policy.ZipfSampler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
 * Checks the simulator against the cluster benchmark: simulates the benchmark's quick {@code skew} run
 * (its workers, link cap, objects, clients, the very request sequence its seed draws, the popularity the
 * coordinator learns from its learning pass, every request reading from EC, SR and SP in turn) over many
 * random placements, and compares λ and the latency ratios with the measured {@code raw.csv}.
 */
public final class BenchmarkValidation {
  private static final List<ComparedScheme> SCHEMES = List.of(ComparedScheme.EC, ComparedScheme.SR, ComparedScheme.SP);

  private final int workers;
  private final double workerMbit;
  private final int placements;
  private final BenchSettings bench;

  /**
   * @param workers the benchmark's workers ({@code eccache bench --workers})
   * @param workerMbit the benchmark's per-worker link cap ({@code --worker-mbit})
   * @param placements random placements (seeds) to simulate, at least 1: placement decides λ on so few
   *     objects, and the measured run is one draw of it
   * @param tiny a smaller workload, for tests
   */
  public BenchmarkValidation(int workers, double workerMbit, int placements, boolean tiny) {
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
  }

  /**
   * The benchmark's workload as {@code ClusterBenchmark.run} draws it from its seed: the object bytes
   * first (one {@code nextInt} per 4 bytes), then the learning sequence, then the measured one.
   *
   * @return the configuration for one placement seed, replaying the measured sequence with the learned
   *     counts as popularity, and interleaving schemes as the benchmark does
   */
  SimulationConfig config(long seed) {
    Random random = new Random(bench.seed);
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
    return SimulationConfig.builder().name("validate").servers(workers)
        .serverBandwidthBytesPerSec(workerMbit * 1e6 / 8).clients(bench.clients)
        .objectSizeBytes(bench.objectBytes).zipfExponent(bench.zipf).delta(bench.delta)
        .replay(learned, sequence).seed(seed).build();
  }

  /**
   * Simulates every placement and writes {@code raw.csv}, {@code summary.md} and a latency CDF into
   * {@code dir}.
   *
   * @param dir output directory, created if missing
   * @param measuredCsv the benchmark's {@code skew/raw.csv}; if missing, the summary says so and shows
   *     the simulation alone
   * @param progress receives progress lines
   * @return the summary's Markdown
   * @throws IOException if a file cannot be read or written
   */
  public String write(Path dir, Path measuredCsv, Consumer<String> progress) throws IOException {
    Files.createDirectories(dir);
    List<Map<ComparedScheme, SimulationResult>> together = new ArrayList<>();
    List<Map<ComparedScheme, SimulationResult>> alone = new ArrayList<>();
    try (CsvWriter raw = new CsvWriter(dir.resolve("raw.csv"), "seed", "mode", "scheme", "requests",
        "memory", "mean_ms", "median_ms", "p99_ms", "p999_ms", "lambda_pct", "eta_pct", "decodes")) {
      for (long seed = 1; seed <= placements; seed++) {
        SimulationConfig config = config(seed);
        Map<ComparedScheme, SimulationResult> mixed = Simulator.runInterleaved(config, SCHEMES);
        Map<ComparedScheme, SimulationResult> single = new LinkedHashMap<>();
        for (ComparedScheme scheme : SCHEMES) {
          single.put(scheme, Simulator.run(config, scheme));
        }
        together.add(mixed);
        alone.add(single);
        writeRows(raw, seed, "interleaved", mixed);
        writeRows(raw, seed, "alone", single);
        progress.accept(String.format(Locale.ROOT, "sim validate: placement %d/%d", seed, placements));
      }
    }
    Map<String, Histogram> cdfs = new LinkedHashMap<>();
    together.get(0).forEach((scheme, r) -> cdfs.put(scheme.displayName(), r.latencyMicros()));
    Plots.latencyCdf(dir.resolve("latency-cdf.png"),
        "validate: simulated benchmark skew run (placement 1), read latency CDF", cdfs);
    Map<String, Map<String, String>> measured = Files.exists(measuredCsv) ? readMeasured(measuredCsv)
        : Map.of();

    MarkdownTable table = new MarkdownTable("metric", "measured", "sim (mean of placements)",
        "sim 10th-90th percentile", "sim − measured", "measured at sim percentile",
        "sim, each scheme alone");
    StringBuilder gaps = new StringBuilder();
    for (Metric metric : metrics()) {
      double[] mixed = values(together, metric.value);
      double[] single = values(alone, metric.value);
      Double real = metric.measured.apply(measured);
      double mean = Arrays.stream(mixed).average().orElse(Double.NaN);
      table.row(metric.name, real, mean, String.format(Locale.ROOT, "%.2f to %.2f", quantile(mixed, 0.1),
          quantile(mixed, 0.9)), real == null ? null : String.format(Locale.ROOT, "%+.0f%%",
              (mean - real) / real * 100), real == null ? null : String.format(Locale.ROOT, "%.0f",
              100.0 * Arrays.stream(mixed).filter(v -> v <= real).count() / mixed.length),
          Arrays.stream(single).average().orElse(Double.NaN));
      if (real != null && metric.name.endsWith(" mean ms")) {
        gaps.append(String.format(Locale.ROOT, "%s%s %.0f ms", gaps.length() == 0 ? "" : ", ",
            metric.name.substring(0, metric.name.indexOf(' ')), real - mean));
      }
    }
    SimulationConfig config = config(1);
    String summary = "# validate: the simulator against the measured cluster benchmark (skew, quick)\n\n"
        + "Command: `bin/eccache sim --preset validate`. Measured: `" + measuredCsv + "` ("
        + (measured.isEmpty() ? "NOT FOUND: simulation only" : "`bin/eccache bench --scenario skew`")
        + ").\n\n"
        + "Simulated: " + SimReport.describe(config) + "; the benchmark's own request sequence (seed "
        + bench.seed + "), the allocators given the object counts of its " + bench.learning
        + "-request learning pass, every request reading its object from EC, SR and SP one after the other"
        + " in a random order as the benchmark's clients do; " + placements + " random placements (the"
        + " measured run is one placement, and with " + bench.objects + " objects on " + workers
        + " workers placement decides much of λ).\n\n" + table + "\n"
        + "\"sim − measured\" is relative to the measured value; \"measured at sim percentile\" is the"
        + " share of simulated placements at or below the measured value (a measured λ between the 10th"
        + " and 90th is what placement alone explains). \"Each scheme alone\" simulates each scheme"
        + " without the other two sharing the links: the gap to the interleaved column is what the"
        + " benchmark's interleaving does to the comparison.\n\n"
        + (gaps.length() == 0 ? "" : "Measured reads take longer than simulated ones on average ("
            + gaps + "): the simulator has no per-read costs (the coordinator lookup, opening a stream"
            + " per split, client CPU on 2 shared cores) and lets every transfer use its full share of a"
            + " link at once, where a TCP stream through a tc-shaped loopback link takes time to reach"
            + " it.\n");
    Files.write(dir.resolve("summary.md"), summary.getBytes(StandardCharsets.UTF_8));
    return summary;
  }

  private static void writeRows(CsvWriter raw, long seed, String mode, Map<ComparedScheme, SimulationResult> runs)
      throws IOException {
    for (SimulationResult r : runs.values()) {
      LatencySummary l = r.latency();
      raw.row(seed, mode, r.scheme(), r.completedRequests(), r.memoryFactor(), l.meanMillis(),
          l.medianMillis(), l.p99Millis(), l.p999Millis(), r.lambdaPercent(), r.etaPercent(),
          r.decodeCount());
    }
  }

  /** A compared number: how to get it from one simulated run and from the measured CSV. */
  private static final class Metric {
    final String name;
    final ToDoubleFunction<Map<ComparedScheme, SimulationResult>> value;
    final Function<Map<String, Map<String, String>>, Double> measured;

    Metric(String name, ToDoubleFunction<Map<ComparedScheme, SimulationResult>> value,
        Function<Map<String, Map<String, String>>, Double> measured) {
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
          m -> number(m, id, "lambda_pct")));
    }
    String[] stats = {"mean", "median", "p99", "p99.9"};
    String[] columns = {"mean_ms", "median_ms", "p99_ms", "p999_ms"};
    for (int i = 0; i < stats.length; i++) {
      int stat = i;
      metrics.add(new Metric("SR/EC " + stats[i], r -> ratio(r, stat),
          m -> divide(number(m, ComparedScheme.SR.label(), columns[stat]),
              number(m, ComparedScheme.EC.label(), columns[stat]))));
    }
    for (ComparedScheme scheme : SCHEMES) {
      String id = scheme.label();
      metrics.add(new Metric(scheme + " mean ms", r -> r.get(scheme).latency().meanMillis(),
          m -> number(m, id, "mean_ms")));
    }
    return metrics;
  }

  private static double ratio(Map<ComparedScheme, SimulationResult> r, int stat) {
    LatencySummary.Ratios q = r.get(ComparedScheme.SR).latency().ratioTo(r.get(ComparedScheme.EC).latency());
    return new double[] {q.mean(), q.median(), q.p99(), q.p999()}[stat];
  }

  private static Double number(Map<String, Map<String, String>> measured, String scheme, String column) {
    Map<String, String> row = measured.get(scheme);
    return row == null || row.get(column) == null ? null : Double.valueOf(row.get(column));
  }

  private static Double divide(Double a, Double b) {
    return a == null || b == null ? null : a / b;
  }

  private static double[] values(List<Map<ComparedScheme, SimulationResult>> runs,
      ToDoubleFunction<Map<ComparedScheme, SimulationResult>> value) {
    return runs.stream().mapToDouble(value).toArray();
  }

  /** Nearest-rank quantile. */
  private static double quantile(double[] values, double q) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[Math.min(sorted.length - 1, (int) Math.floor(q * sorted.length))];
  }

  /** The benchmark's raw.csv (plain numbers, no quoted commas in the used columns), by scheme. */
  private static Map<String, Map<String, String>> readMeasured(Path csv) throws IOException {
    List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
    String[] header = lines.get(0).split(",");
    Map<String, Map<String, String>> byScheme = new LinkedHashMap<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split(",");
      Map<String, String> row = new LinkedHashMap<>();
      for (int i = 0; i < Math.min(header.length, cells.length); i++) {
        row.put(header[i], cells[i]);
      }
      byScheme.put(row.get("scheme"), row);
    }
    return byScheme;
  }
}
