package io.eccache.benchmarks.logecmem;

import io.eccache.benchmarks.kv.KvMix;
import io.eccache.benchmarks.report.MarkdownTable;
import io.eccache.benchmarks.report.Plots;
import io.eccache.benchmarks.report.Spread;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Fig. 11 (Exp. 2): mean update latency of HybridPL, IPMem and FSMem for four codes and four
 * read:update mixes, 4 KiB values, on the testbed, from the run's {@link UpdateGrid}; ratios are
 * taken within a repeat, then their median and range over repeats.
 */
final class Fig11UpdateLatency {
  static final List<KvScheme> SCHEMES = List.of(KvScheme.HYBRID, KvScheme.INPLACE,
      KvScheme.FULLSTRIPE);

  private Fig11UpdateLatency() {}

  /** Runs the figure; returns its Markdown section (also written to its directory). */
  static String run(LogEcMemRun run) throws IOException {
    LogEcMemSettings s = run.settings;
    Path dir = Files.createDirectories(run.out.resolve("fig11"));
    List<UpdateGrid.Row> rows = run.updateGrid().stream()
        .filter(row -> SCHEMES.contains(row.scheme)).collect(Collectors.toList());
    UpdateGrid.writeCsv(dir.resolve("raw.csv"), rows);
    String section = summary(run, rows, dir);
    Files.writeString(dir.resolve("summary.md"), section);
    return section;
  }

  /** Paper's reductions of HybridPL's update latency, Fig. 11, where the text gives them. */
  static String paper(String code, KvMix mix) {
    Map<String, String> versusFs = Map.of("(6,3)", "−58.0%", "(10,4)", "−42.4%", "(12,4)",
        "−37.8%", "(15,3)", "−37.3%");
    if (mix.otherPercent() == 5 && versusFs.containsKey(code)) {
      return "vs FSMem " + versusFs.get(code);
    }
    if (mix.otherPercent() == 30) {
      return code.endsWith("3)") ? "vs IPMem −32.7% (r=3)" : "vs IPMem −37.8% (r=4)";
    }
    if (mix.otherPercent() == 50) {
      return "FSMem fastest";
    }
    if (mix.otherPercent() == 20) {
      return code.equals("(6,3)") || code.equals("(10,4)") ? "FSMem faster" : "hybrid faster";
    }
    return "";
  }

  private static String summary(LogEcMemRun run, List<UpdateGrid.Row> rows, Path dir)
      throws IOException {
    LogEcMemSettings s = run.settings;
    StringBuilder md = new StringBuilder();
    md.append("## Fig. 11: update latency (LogECMem, IPMem, FSMem)\n\n");
    md.append("Testbed (tier 1): ").append(setup(s)).append("\n\n");
    md.append(run.stamp.markdown()).append("\n\n");
    md.append(METHOD.replace("{repeats}", String.valueOf(s.repeats)));
    return md.append(latency(s, s.codes, rows, dir, "Fig. 11", Fig11UpdateLatency::paper))
        .toString();
  }

  /** How the latency tables are made, {@code {repeats}} for the count. */
  static final String METHOD = "Mean update latency per run, median [min–max] over {repeats}"
      + " repeats (seeds 1-{repeats}); the changes are paired within a repeat. FSMem's latency is"
      + " the paper's: its requests' mean plus its garbage collection (run at the end, as the"
      + " artifact runs it) spread over its updates; the request's own mean is beside it. Calls"
      + " per update are counted as issued.\n\n";

  /**
   * The latency table of {@code codes} from {@code rows}, then its plots (one per code, written
   * into {@code dir} as {@code <figure>-<k>-<r>.png}).
   *
   * @param figure the figure's name, e.g. {@code Fig. 11}
   * @param paper the paper's statement for a code and a mix
   */
  static String latency(LogEcMemSettings s, List<int[]> codes, List<UpdateGrid.Row> rows,
      Path dir, String figure, java.util.function.BiFunction<String, KvMix, String> paper)
      throws IOException {
    MarkdownTable table = new MarkdownTable("code", "read:update", "LogECMem µs",
        "IPMem µs", "FSMem µs (with GC)", "FSMem µs (request)", "hybrid vs IPMem",
        "hybrid vs FSMem",
        "calls per update (hybrid | IPMem)", "paper");
    Map<String, Map<String, double[][]>> plots = new LinkedHashMap<>();
    for (int[] code : codes) {
      String c = LogEcMemSettings.code(code);
      Map<String, double[][]> series = new LinkedHashMap<>();
      for (KvScheme scheme : SCHEMES) {
        series.put(scheme.label, new double[4][s.mixes.size()]);
      }
      for (int m = 0; m < s.mixes.size(); m++) {
        KvMix mix = s.mixes.get(m);
        Map<KvScheme, Spread> latency = new LinkedHashMap<>();
        Map<KvScheme, double[]> byRepeat = new LinkedHashMap<>();
        for (KvScheme scheme : SCHEMES) {
          double[] v = rows.stream().filter(x -> x.code.equals(c) && x.mix.equals(mix)
              && x.scheme == scheme).mapToDouble(UpdateGrid.Row::updateMeanMicros).toArray();
          byRepeat.put(scheme, v);
          latency.put(scheme, Spread.of(v));
          double[][] plot = series.get(scheme.label);
          plot[0][m] = mix.otherPercent();
          plot[1][m] = latency.get(scheme).median();
          plot[2][m] = latency.get(scheme).min();
          plot[3][m] = latency.get(scheme).max();
        }
        UpdateGrid.Row hybrid = rows.stream().filter(x -> x.code.equals(c) && x.mix.equals(mix)
            && x.scheme == KvScheme.HYBRID).findFirst().orElseThrow();
        UpdateGrid.Row inplace = rows.stream().filter(x -> x.code.equals(c) && x.mix.equals(mix)
            && x.scheme == KvScheme.INPLACE).findFirst().orElseThrow();
        table.row(c, mix.readPercent() + ":" + mix.otherPercent(),
            latency.get(KvScheme.HYBRID).format("%.0f"),
            latency.get(KvScheme.INPLACE).format("%.0f"),
            latency.get(KvScheme.FULLSTRIPE).format("%.0f"),
            Spread.of(rows.stream().filter(x -> x.code.equals(c) && x.mix.equals(mix)
                && x.scheme == KvScheme.FULLSTRIPE).mapToDouble(UpdateGrid.Row::requestMeanMicros)
                .toArray()).format("%.0f"),
            change(byRepeat.get(KvScheme.HYBRID), byRepeat.get(KvScheme.INPLACE)),
            change(byRepeat.get(KvScheme.HYBRID), byRepeat.get(KvScheme.FULLSTRIPE)),
            String.format(Locale.ROOT, "%.1f get %.1f set %.1f log | %.1f get %.1f set",
                hybrid.perUpdate(OpCounts.Kind.GET), hybrid.perUpdate(OpCounts.Kind.SET),
                hybrid.perUpdate(OpCounts.Kind.LOG_APPEND), inplace.perUpdate(OpCounts.Kind.GET),
                inplace.perUpdate(OpCounts.Kind.SET)),
            paper.apply(c, mix));
      }
      plots.put(c, series);
    }
    StringBuilder md = new StringBuilder();
    md.append(table).append('\n');
    for (Map.Entry<String, Map<String, double[][]>> e : plots.entrySet()) {
      String name = pngName(figure, e.getKey());
      Plots.linesWithRange(dir.resolve(name), figure + ": update latency, RS" + e.getKey(),
          "update % of requests", "mean update latency (µs)", e.getValue());
      md.append("![").append(e.getKey()).append("](").append(name).append(")\n");
    }
    return md.toString();
  }

  /** {@code fig11-10-4.png} for {@code Fig. 11} and {@code (10,4)}. */
  static String pngName(String figure, String code) {
    return figure.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "") + "-"
        + code.replaceAll("[^0-9]+", "-").replaceAll("^-|-$", "") + ".png";
  }

  /** The paired change of {@code a} against {@code b}, per repeat: median [min–max] percent. */
  static String change(double[] a, double[] b) {
    double[] pct = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      pct[i] = (a[i] / b[i] - 1) * 100;
    }
    return Spread.of(pct).format("%+.1f%%");
  }

  static String setup(LogEcMemSettings s) {
    return setup(s, s.records, s.operations);
  }

  /**
   * The same, for runs of {@code records} values and {@code operations} requests (0: a load
   * phase alone).
   */
  static String setup(LogEcMemSettings s, long records, long operations) {
    String requests = operations == 0 ? "no requests" : String.format(Locale.ROOT,
        "%d requests (the first %d not measured)", operations,
        LogEcMemSettings.warmup(operations));
    return String.format(Locale.ROOT, "%s servers as DRAM nodes on 127.0.0.10+, 3"
        + " eccache log nodes (PLM, %s, reached by %s) on 127.0.0.100+, one proxy thread (%s"
        + " issue), %d values"
        + " of %d bytes loaded, %s, YCSB Zipf 0.99;"
        + " one machine of 2 cores, loopback (paper: EC2 m5d.2xlarge nodes, 1M objects and"
        + " requests)", MemcachedServer.version(), s.logNodeProcesses ? "own JVMs"
            : "in the proxy's JVM", s.wire == LogWire.SOCKET ? "plain socket" : "gRPC",
        s.issue.name().toLowerCase(Locale.ROOT), records, s.valueBytes, requests);
  }
}
