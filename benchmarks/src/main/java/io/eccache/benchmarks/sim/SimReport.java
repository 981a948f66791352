package io.eccache.benchmarks.sim;

import io.eccache.benchmarks.ComparedScheme;
import io.eccache.benchmarks.report.CsvWriter;
import io.eccache.benchmarks.report.LatencySummary;
import io.eccache.benchmarks.report.MarkdownTable;
import io.eccache.benchmarks.report.Plots;
import io.eccache.benchmarks.report.RunStamp;
import io.eccache.benchmarks.report.Spread;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * Writes one simulator study into its directory: {@code raw.csv} (one row per run, seed and scheme),
 * {@code summary.md} (stamped with commit, command and settings; the papers' numbers beside ours, each of
 * our cells the median over the seeds with the min-max) and PNG plots (latency CDFs and bytes per server
 * of the first seed, up to 100 servers, and for a sweep λ and SR/EC against the swept value with their
 * range).
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
   * @param mode how the schemes shared the cluster
   * @param results what {@link SimPreset#simulate} returned: per run label, per repeat, per scheme
   * @param stamp commit and command line, printed at the top of the summary
   * @param settings the settings the command was given (mode, repeats, knobs), printed under the stamp
   * @return the summary's Markdown
   * @throws IOException if a file cannot be written
   */
  public static String write(Path dir, SimPreset preset, SimMode mode,
      Map<String, List<Map<ComparedScheme, SimulationResult>>> results, RunStamp stamp,
      Map<String, String> settings) throws IOException {
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
        "p99.9 ms", "λ %", "η %", "extra bytes %", "decoded %", "fallbacks", "req/s");
    StringBuilder setups = new StringBuilder();
    Map<String, List<double[]>> lambdaSweep = new LinkedHashMap<>();
    Map<String, List<double[]>> ratioSweep = new LinkedHashMap<>();
    int repeats = results.values().iterator().next().size();
    try (CsvWriter raw = new CsvWriter(dir.resolve("raw.csv"), "run", "scheme", "servers", "requests",
        "memory", "mean_ms", "median_ms", "p99_ms", "p999_ms", "lambda_pct", "eta_pct", "useful_bytes",
        "served_bytes", "decodes", "fallbacks", "req_per_s", "sp_rate_per_s", "wall_s", "seed", "mode",
        "extra_bytes", "saved_bytes", "late_binding", "popularity")) {
      for (Map.Entry<String, List<Map<ComparedScheme, SimulationResult>>> run : results.entrySet()) {
        String label = run.getKey();
        List<Map<ComparedScheme, SimulationResult>> byRepeat = run.getValue();
        Map<ComparedScheme, SimulationResult> firstRepeat = byRepeat.get(0);
        SimulationConfig config = firstRepeat.values().iterator().next().config();
        setups.append("- ").append(label).append(": ").append(describe(config))
            .append(repeats > 1 ? String.format(Locale.ROOT, " (to %d)", config.seed() + repeats - 1) : "")
            .append('\n');
        for (Map<ComparedScheme, SimulationResult> byScheme : byRepeat) {
          for (SimulationResult r : byScheme.values()) {
            LatencySummary l = r.latency();
            SimulationConfig c = r.config();
            raw.row(label, r.scheme(), c.servers(), r.completedRequests(), r.memoryFactor(),
                l.meanMillis(), l.medianMillis(), l.p99Millis(), l.p999Millis(), r.lambdaPercent(),
                r.etaPercent(), r.usefulBytes(), r.servedBytes(), r.decodeCount(), r.fallbackCount(),
                r.throughputPerSec(), r.spRequestRatePerSec(), r.wallNanos() / 1e9, c.seed(), mode.label(),
                r.extraBytes(), r.savedBytes(), c.lateBinding().name().toLowerCase(Locale.ROOT),
                c.replays() ? "replay" : c.popularityInput().name().toLowerCase(Locale.ROOT));
          }
        }
        Map<String, Histogram> cdfs = new LinkedHashMap<>();
        Map<String, Map<String, Long>> loads = new LinkedHashMap<>();
        for (ComparedScheme scheme : firstRepeat.keySet()) {
          List<SimulationResult> rs = new ArrayList<>();
          byRepeat.forEach(m -> rs.add(m.get(scheme)));
          table.row(label, scheme.displayName(),
              spread(rs, SimulationResult::memoryFactor).median() > 0 ? String.format(Locale.ROOT, "%.2fx",
                  spread(rs, SimulationResult::memoryFactor).median()) : "",
              spread(rs, r -> r.latency().meanMillis()).format("%.1f"),
              spread(rs, r -> r.latency().medianMillis()).format("%.1f"),
              spread(rs, r -> r.latency().p99Millis()).format("%.1f"),
              spread(rs, r -> r.latency().p999Millis()).format("%.1f"),
              spread(rs, SimulationResult::lambdaPercent).format("%.1f"),
              spread(rs, SimulationResult::etaPercent).format("%.1f"),
              spread(rs, SimulationResult::extraPercent).format("%.1f"),
              spread(rs, r -> 100.0 * r.decodeCount() / r.completedRequests()).format("%.1f"),
              spread(rs, r -> r.fallbackCount()).format("%.0f"),
              spread(rs, SimulationResult::throughputPerSec).format("%.0f"));
          SimulationResult shown = firstRepeat.get(scheme);
          cdfs.put(scheme.displayName(), shown.latencyMicros());
          loads.put(scheme.displayName(), shown.bytesByServer());
        }
        ratios.row(ratioRow(label, byRepeat));
        if (!preset.sweep().isEmpty() && results.size() > 1) {
          addSweepPoint(Double.parseDouble(label), byRepeat, lambdaSweep, ratioSweep);
        }
        String suffix = results.size() == 1 ? "" : "-" + label.replaceAll("[^A-Za-z0-9.]", "_");
        String seedNote = String.format(Locale.ROOT, " (simulated, %s, seed %d)", mode.label(),
            config.seed());
        Plots.latencyCdf(dir.resolve("latency-cdf" + suffix + ".png"),
            preset.name() + " " + label + ": read latency CDF" + seedNote, cdfs);
        if (config.servers() <= MAX_BARS) {
          Plots.workerLoadBars(dir.resolve("server-load" + suffix + ".png"),
              preset.name() + " " + label + ": bytes sent per server" + seedNote, loads);
        }
      }
    }
    String range = repeats > 1 ? String.format(Locale.ROOT, " (median, min-max over %d seeds)", repeats)
        : "";
    if (!lambdaSweep.isEmpty()) {
      Plots.linesWithRange(dir.resolve("lambda.png"), preset.name() + ": load imbalance λ (simulated, "
          + mode.label() + ")" + range, preset.sweep(), "λ %", series(lambdaSweep));
      Plots.linesWithRange(dir.resolve("improvement.png"), preset.name() + ": SR/EC latency (simulated, "
          + mode.label() + ")" + range, preset.sweep(), "SR/EC", series(ratioSweep));
    }
    SimulationConfig any = results.values().iterator().next().get(0).values().iterator().next().config();
    String summary = "# " + preset.name() + " (simulated): " + preset.figure() + "\n\n"
        + stampLines(stamp, settings) + "\n"
        + "Simulator: processor-sharing server links, the coordinator's own placement and "
        + PlannedAllocation.source(any) + " (`io.eccache.benchmarks.sim`). " + modeNote(mode) + " "
        + lateBindingNote(any) + " " + allocationNote(any) + "\n\n"
        + "Every cell is the median over " + repeats + (repeats == 1 ? " seed" : " seeds, with the min-max in"
            + " square brackets") + "; each seed draws its own placement, learning pass and request sequence."
        + " Plots of one run show the first seed.\n\n"
        + setups + "\n" + preset.notes() + "\n\n**Paper:** " + preset.paper() + "\n\n" + ratios + "\n"
        + table + "\nλ = (L_max − L_avg*)/L_avg* over bytes each server sent, L_avg* = useful bytes /"
        + " servers (EC-Cache's); η = (L_max − L_avg)/L_avg with L_avg over bytes sent (SP-Cache's)."
        + " Extra bytes: bytes sent by EC's Δ extra split reads, in percent of the bytes the reads needed"
        + " (" + lateBindingShort(any) + ").\n";
    Files.write(dir.resolve("summary.md"), summary.getBytes(StandardCharsets.UTF_8));
    return summary;
  }

  /**
   * @param stamp commit and command line
   * @param settings the command's settings
   * @return the stamp's line and one line of settings, for the top of a summary
   */
  public static String stampLines(RunStamp stamp, Map<String, String> settings) {
    StringBuilder b = new StringBuilder(stamp.markdown()).append('\n');
    if (!settings.isEmpty()) {
      b.append("\nSettings: ");
      String sep = "";
      for (Map.Entry<String, String> e : settings.entrySet()) {
        b.append(sep).append(e.getKey()).append(" = ").append(e.getValue());
        sep = ", ";
      }
      b.append(".\n");
    }
    return b.toString();
  }

  /** @return how the schemes shared the cluster, for a summary */
  static String modeNote(SimMode mode) {
    return mode == SimMode.ALONE
        ? "Mode: **alone**: each scheme simulated on a cluster of its own with its own clients, over the"
            + " same placement seed and request sequence."
        : "Mode: **interleaved**: every request reads its object from every scheme one after the other over"
            + " one cluster, as the cluster benchmark's interleaved mode; this favours EC-Cache (issue 14).";
  }

  /** @return the late-binding model, for a summary */
  static String lateBindingNote(SimulationConfig c) {
    switch (c.lateBinding()) {
      case SLICE:
        return String.format(Locale.ROOT, "Late binding: an extra split stops on the link at the end"
            + " of the %d KiB slice it is in when the k-th arrives (the client stops reading there,"
            + " but Alluxio's block stream has sent ahead, so its links carry the whole split).",
            c.cancelSliceBytes() / 1024);
      case INSTANT:
        return "Late binding: the extra splits are cancelled the instant the k-th arrives (ideal"
            + " fine-grained cancellation, which the client does not do).";
      case WHOLE:
      default:
        return "Late binding: the Δ extra splits are sent whole after the k-th arrives (the paper's model,"
            + " and what the client's links carry: extra bytes Δ/k).";
    }
  }

  private static String lateBindingShort(SimulationConfig c) {
    return c.lateBinding() == LateBinding.WHOLE ? "read whole: Δ/k"
        : c.lateBinding() == LateBinding.SLICE ? "stopped at the next " + c.cancelSliceBytes() / 1024
            + " KiB slice" : "cancelled at the k-th arrival";
  }

  /** @return where the allocation's popularity came from, for a summary */
  static String allocationNote(SimulationConfig c) {
    if (!c.pinnedUnits().isEmpty()) {
      return "Allocation: " + c.pinnedUnits().keySet() + " pinned to the given units per object.";
    }
    if (c.replays()) {
      return "Allocation: planned from the replayed learning counts.";
    }
    return c.popularityInput() == PopularityInput.LEARNED
        ? String.format(Locale.ROOT, "Allocation: planned from the object counts of a %d-request learning"
            + " pass (as the cluster benchmark's coordinator learns them).", c.learningRequests())
        : "Allocation: planned from the Zipf probabilities (popularity known exactly, the paper's method).";
  }

  /** One line of a configuration for the summary. */
  static String describe(SimulationConfig c) {
    return String.format(Locale.ROOT, "%d servers at %s, %d %s, %d objects of %s MiB, Zipf %.2f,"
            + " overhead %.0f%%, k = %d, base r = %d, Δ = %d, %d measured requests after %d warm-up,"
            + " seed %d",
        c.servers(), rate(c.serverBandwidthBytesPerSec()), c.clients(),
        c.closedLoop() ? "closed-loop clients" : String.format(Locale.ROOT,
            "clients, Poisson arrivals at %.1f req/s", c.openLoopRatePerSec()),
        c.objects(), mib(c.objectSizeBytes()), c.zipfExponent(), c.memoryOverhead() * 100,
        c.k(), c.baseParities(), c.delta(), c.requests(), c.warmupRequests(), c.seed());
  }

  private static String mib(long bytes) {
    return bytes % SimulationConfig.MB == 0 ? String.valueOf(bytes / SimulationConfig.MB)
        : String.format(Locale.ROOT, "%.2f", bytes / (double) SimulationConfig.MB);
  }

  private static Spread spread(List<SimulationResult> results, ToDoubleFunction<SimulationResult> value) {
    return Spread.of(results.stream().mapToDouble(value).toArray());
  }

  private static String rate(double bytesPerSec) {
    double bits = bytesPerSec * 8;
    return bits >= 1e9 ? String.format(Locale.ROOT, "%.0f Gbps", bits / 1e9)
        : String.format(Locale.ROOT, "%.0f Mbit/s", bits / 1e6);
  }

  private static Object[] ratioRow(String label, List<Map<ComparedScheme, SimulationResult>> byRepeat) {
    Object[] row = new Object[RATIO_COLUMNS.size() + 1];
    row[0] = label;
    Map<ComparedScheme, SimulationResult> any = byRepeat.get(0);
    boolean ratios = any.containsKey(ComparedScheme.EC) && any.containsKey(ComparedScheme.SR);
    for (int stat = 0; stat < 4 && ratios; stat++) {
      int s = stat;
      row[1 + stat] = Spread.of(byRepeat.stream().mapToDouble(m -> ratio(m, s)).toArray()).format("%.2f");
    }
    ComparedScheme[] schemes = {ComparedScheme.SR, ComparedScheme.EC, ComparedScheme.SP};
    for (int i = 0; i < schemes.length; i++) {
      ComparedScheme scheme = schemes[i];
      if (any.containsKey(scheme)) {
        row[5 + i] = Spread.of(byRepeat.stream().mapToDouble(m -> m.get(scheme).lambdaPercent()).toArray())
            .format("%.1f");
        row[8 + i] = Spread.of(byRepeat.stream().mapToDouble(m -> m.get(scheme).etaPercent()).toArray())
            .format("%.1f");
      }
    }
    return row;
  }

  /** SR/EC of one statistic (0 mean, 1 median, 2 p99, 3 p99.9). */
  static double ratio(Map<ComparedScheme, SimulationResult> byScheme, int stat) {
    LatencySummary.Ratios q = byScheme.get(ComparedScheme.SR).latency()
        .ratioTo(byScheme.get(ComparedScheme.EC).latency());
    return new double[] {q.mean(), q.median(), q.p99(), q.p999()}[stat];
  }

  /** For a sweep: adds this run's λ per scheme and its SR/EC ratios at x, each {x, median, min, max}. */
  private static void addSweepPoint(double x, List<Map<ComparedScheme, SimulationResult>> byRepeat,
      Map<String, List<double[]>> lambdas, Map<String, List<double[]>> ratios) {
    Map<ComparedScheme, SimulationResult> any = byRepeat.get(0);
    for (ComparedScheme scheme : any.keySet()) {
      Spread l = Spread.of(byRepeat.stream().mapToDouble(m -> m.get(scheme).lambdaPercent()).toArray());
      lambdas.computeIfAbsent(scheme.displayName(), n -> new ArrayList<>())
          .add(new double[] {x, l.median(), l.min(), l.max()});
    }
    if (any.containsKey(ComparedScheme.EC) && any.containsKey(ComparedScheme.SR)) {
      String[] names = {"mean", "median", "p99", "p99.9"};
      for (int i = 0; i < names.length; i++) {
        int stat = i;
        Spread q = Spread.of(byRepeat.stream().mapToDouble(m -> ratio(m, stat)).toArray());
        ratios.computeIfAbsent(names[i], n -> new ArrayList<>())
            .add(new double[] {x, q.median(), q.min(), q.max()});
      }
    }
  }

  /** Points per series to the {@code {xs, medians, mins, maxs}} arrays {@link Plots#linesWithRange} takes. */
  public static Map<String, double[][]> series(Map<String, List<double[]>> points) {
    Map<String, double[][]> series = new LinkedHashMap<>();
    points.forEach((name, list) -> {
      double[][] v = new double[4][list.size()];
      for (int i = 0; i < list.size(); i++) {
        for (int j = 0; j < 4; j++) {
          v[j][i] = list.get(i)[j];
        }
      }
      series.put(name, v);
    });
    return series;
  }
}
