package io.eccache.benchmarks.sim;

import io.eccache.benchmarks.ComparedScheme;
import io.eccache.benchmarks.report.CsvWriter;
import io.eccache.benchmarks.report.LatencySummary;
import io.eccache.benchmarks.report.LoadImbalance;
import io.eccache.benchmarks.report.MarkdownTable;
import io.eccache.benchmarks.report.Plots;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Writes one simulator study into its directory: {@code raw.csv} (one row per run and scheme),
 * {@code summary.md} (the papers' numbers beside ours) and PNG plots (latency CDFs, bytes per server up to
 * 100 servers, and for a sweep λ and SR/EC against the swept value).
 */
public final class SimReport {
  /** Columns of the summary's comparison table, after the run label. */
  public static final List<String> RATIO_COLUMNS = List.of("SR/EC mean", "SR/EC median", "SR/EC p99",
      "SR/EC p99.9", "λ SR %", "λ EC %", "λ SP %", "η SR %", "η EC %", "η SP %");

  /** Beyond this many servers a bar per server is unreadable. */
  private static final int MAX_BARS = 100;

  private SimReport() {}

  /**
   * Writes the files.
   *
   * @param dir the study's directory, created if missing
   * @param preset the study
   * @param results what {@link SimPreset#simulate} returned
   * @return the summary's Markdown
   * @throws IOException if a file cannot be written
   */
  public static String write(Path dir, SimPreset preset, Map<String, Map<ComparedScheme, SimulationResult>> results)
      throws IOException {
    Files.createDirectories(dir);
    String first = preset.sweep().isEmpty() ? "run" : preset.sweep();
    List<String> ratioHeader = new ArrayList<>(List.of(first));
    ratioHeader.addAll(RATIO_COLUMNS);
    MarkdownTable ratios = new MarkdownTable(ratioHeader.toArray(new String[0]));
    Object[] paper = new Object[ratioHeader.size()];
    paper[0] = "paper";
    System.arraycopy(preset.paperRow(), 0, paper, 1, RATIO_COLUMNS.size());
    ratios.row(paper);
    MarkdownTable table = new MarkdownTable(first, "scheme", "memory", "mean ms", "median ms", "p99 ms",
        "p99.9 ms", "λ %", "η %", "extra reads %", "decoded %", "fallbacks", "req/s");
    StringBuilder setups = new StringBuilder();
    Map<String, List<double[]>> lambdaSweep = new LinkedHashMap<>();
    Map<String, List<double[]>> ratioSweep = new LinkedHashMap<>();
    try (CsvWriter raw = new CsvWriter(dir.resolve("raw.csv"), "run", "scheme", "servers", "requests",
        "memory", "mean_ms", "median_ms", "p99_ms", "p999_ms", "lambda_pct", "eta_pct", "useful_bytes",
        "served_bytes", "decodes", "fallbacks", "req_per_s", "sp_rate_per_s", "wall_s")) {
      for (Map.Entry<String, Map<ComparedScheme, SimulationResult>> run : results.entrySet()) {
        String label = run.getKey();
        Map<ComparedScheme, SimulationResult> byScheme = run.getValue();
        SimulationConfig config = byScheme.values().iterator().next().config();
        setups.append("- ").append(label).append(": ").append(describe(config)).append('\n');
        Map<String, Histogram> cdfs = new LinkedHashMap<>();
        Map<String, Map<String, Long>> loads = new LinkedHashMap<>();
        for (SimulationResult r : byScheme.values()) {
          LatencySummary l = r.latency();
          raw.row(label, r.scheme(), config.servers(), r.completedRequests(), r.memoryFactor(),
              l.meanMillis(), l.medianMillis(), l.p99Millis(), l.p999Millis(), r.lambdaPercent(),
              r.etaPercent(), r.usefulBytes(), r.servedBytes(), r.decodeCount(), r.fallbackCount(),
              r.throughputPerSec(), r.spRequestRatePerSec(), r.wallNanos() / 1e9);
          table.row(label, r.scheme().displayName(), String.format(Locale.ROOT, "%.2fx", r.memoryFactor()),
              l.meanMillis(), l.medianMillis(), l.p99Millis(), l.p999Millis(), r.lambdaPercent(),
              r.etaPercent(),
              LoadImbalance.bandwidthOverheadPercent(r.servedBytes(), Math.max(1, r.usefulBytes())),
              100.0 * r.decodeCount() / r.completedRequests(), r.fallbackCount(),
              String.format(Locale.ROOT, "%.0f", r.throughputPerSec()));
          cdfs.put(r.scheme().displayName(), r.latencyMicros());
          loads.put(r.scheme().displayName(), r.bytesByServer());
        }
        ratios.row(ratioRow(label, byScheme));
        if (!preset.sweep().isEmpty() && results.size() > 1) {
          addSweepPoint(Double.parseDouble(label), byScheme, lambdaSweep, ratioSweep);
        }
        String suffix = results.size() == 1 ? "" : "-" + label.replaceAll("[^A-Za-z0-9.]", "_");
        Plots.latencyCdf(dir.resolve("latency-cdf" + suffix + ".png"),
            preset.name() + " " + label + ": read latency CDF (simulated)", cdfs);
        if (config.servers() <= MAX_BARS) {
          Plots.workerLoadBars(dir.resolve("server-load" + suffix + ".png"),
              preset.name() + " " + label + ": bytes sent per server (simulated)", loads);
        }
      }
    }
    if (!lambdaSweep.isEmpty()) {
      Plots.lines(dir.resolve("lambda.png"), preset.name() + ": load imbalance λ (simulated)",
          preset.sweep(), "λ %", series(lambdaSweep));
      Plots.lines(dir.resolve("improvement.png"), preset.name() + ": SR/EC latency (simulated)",
          preset.sweep(), "SR/EC", series(ratioSweep));
    }
    String summary = "# " + preset.name() + " (simulated): " + preset.figure() + "\n\n"
        + "Command: `bin/eccache sim --preset " + preset.name() + "`. Simulator: processor-sharing server"
        + " links, the coordinator's own placement and allocators (`io.eccache.benchmarks.sim`).\n\n"
        + setups + "\n" + preset.notes() + "\n\n**Paper:** " + preset.paper() + "\n\n" + ratios + "\n"
        + table + "\nλ = (L_max − L_avg*)/L_avg* over bytes each server sent, L_avg* = useful bytes /"
        + " servers (EC-Cache's); η = (L_max − L_avg)/L_avg with L_avg over bytes sent (SP-Cache's)."
        + " Extra reads: bytes sent beyond those asked for (EC's Δ, cancelled at the k-th arrival);"
        + " negative when reads fell back to the under store, whose bytes no server sent.\n";
    Files.write(dir.resolve("summary.md"), summary.getBytes(StandardCharsets.UTF_8));
    return summary;
  }

  /** One line of a configuration for the summary. */
  static String describe(SimulationConfig c) {
    return String.format(Locale.ROOT, "%d servers at %s, %d %s, %d objects of %d MB, Zipf %.2f,"
            + " overhead %.0f%%, k = %d, Δ = %d, %d measured requests after %d warm-up, seed %d",
        c.servers(), rate(c.serverBandwidthBytesPerSec()), c.clients(),
        c.closedLoop() ? "closed-loop clients" : String.format(Locale.ROOT,
            "clients, Poisson arrivals at %.1f req/s", c.openLoopRatePerSec()),
        c.objects(), c.objectSizeBytes() / SimulationConfig.MB, c.zipfExponent(), c.memoryOverhead() * 100,
        c.k(), c.delta(), c.requests(), c.warmupRequests(), c.seed());
  }

  private static String rate(double bytesPerSec) {
    double bits = bytesPerSec * 8;
    return bits >= 1e9 ? String.format(Locale.ROOT, "%.0f Gbps", bits / 1e9)
        : String.format(Locale.ROOT, "%.0f Mbit/s", bits / 1e6);
  }

  private static Object[] ratioRow(String label, Map<ComparedScheme, SimulationResult> byScheme) {
    Object[] row = new Object[RATIO_COLUMNS.size() + 1];
    row[0] = label;
    SimulationResult ec = byScheme.get(ComparedScheme.EC);
    SimulationResult sr = byScheme.get(ComparedScheme.SR);
    SimulationResult sp = byScheme.get(ComparedScheme.SP);
    if (ec != null && sr != null) {
      LatencySummary.Ratios q = sr.latency().ratioTo(ec.latency());
      row[1] = q.mean();
      row[2] = q.median();
      row[3] = q.p99();
      row[4] = q.p999();
    }
    row[5] = sr == null ? null : sr.lambdaPercent();
    row[6] = ec == null ? null : ec.lambdaPercent();
    row[7] = sp == null ? null : sp.lambdaPercent();
    row[8] = sr == null ? null : sr.etaPercent();
    row[9] = ec == null ? null : ec.etaPercent();
    row[10] = sp == null ? null : sp.etaPercent();
    return row;
  }

  /** For a sweep: adds this run's λ per scheme and its SR/EC ratios at x. */
  private static void addSweepPoint(double x, Map<ComparedScheme, SimulationResult> byScheme,
      Map<String, List<double[]>> lambdas, Map<String, List<double[]>> ratios) {
    for (SimulationResult r : byScheme.values()) {
      lambdas.computeIfAbsent(r.scheme().displayName(), n -> new ArrayList<>())
          .add(new double[] {x, r.lambdaPercent()});
    }
    SimulationResult ec = byScheme.get(ComparedScheme.EC);
    SimulationResult sr = byScheme.get(ComparedScheme.SR);
    if (ec != null && sr != null) {
      LatencySummary.Ratios q = sr.latency().ratioTo(ec.latency());
      double[] ys = {q.mean(), q.median(), q.p99(), q.p999()};
      String[] names = {"mean", "median", "p99", "p99.9"};
      for (int i = 0; i < ys.length; i++) {
        ratios.computeIfAbsent(names[i], n -> new ArrayList<>()).add(new double[] {x, ys[i]});
      }
    }
  }

  /** Points per series to the {@code {xs, ys}} arrays {@link Plots#lines} takes. */
  private static Map<String, double[][]> series(Map<String, List<double[]>> points) {
    Map<String, double[][]> series = new LinkedHashMap<>();
    points.forEach((name, list) -> {
      double[][] xy = new double[2][list.size()];
      for (int i = 0; i < list.size(); i++) {
        xy[0][i] = list.get(i)[0];
        xy[1][i] = list.get(i)[1];
      }
      series.put(name, xy);
    });
    return series;
  }
}
