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

/**
 * Fig. 12 (Exp. 3): the DRAM nodes' memory over the data after each replay of the run's
 * {@link UpdateGrid}, from memcached's own {@code bytes} counters (values, keys and item headers):
 * LogECMem, IPMem, FSMem (its old versions still held, as the paper counts them; after its
 * collection beside it) and (r + 1)-way replication. The log nodes' memory buffers are not DRAM
 * nodes' and are not counted, as in the paper.
 */
final class Fig12Memory {
  private Fig12Memory() {}

  static String run(LogEcMemRun run) throws IOException {
    LogEcMemSettings s = run.settings;
    Path dir = Files.createDirectories(run.out.resolve("fig12"));
    List<UpdateGrid.Row> rows = run.updateGrid();
    UpdateGrid.writeCsv(dir.resolve("raw.csv"), rows);
    String md = "## Fig. 12: memory (LogECMem, IPMem, FSMem, replication)\n\n"
        + "Testbed (tier 1): " + Fig11UpdateLatency.setup(s) + "\n\n"
        + run.stamp.markdown() + "\n\n"
        + METHOD.replace("{repeats}", String.valueOf(s.repeats))
        + memory(s, s.codes, rows, dir, "Fig. 12", Fig12Memory::paper);
    Files.writeString(dir.resolve("summary.md"), md);
    return md;
  }

  /** How the memory tables are made, {@code {repeats}} for the count. */
  static final String METHOD = "Memory = the DRAM nodes' bytes (memcached's `bytes` counters:"
      + " values, keys, item headers, summed over the testbed's servers) over the values' bytes,"
      + " at the end of each replay of the update grid, median [min–max] over {repeats} repeats;"
      + " changes paired within a repeat. FSMem is counted with its old versions held (the"
      + " paper's measure), and after its collection beside it. Analytic: LogECMem (k + 1)/k,"
      + " IPMem (k + r)/k, FSMem (1 + p)(k + r)/k, replication r + 1.\n\n";

  /**
   * The memory table of {@code codes} from {@code rows}, then its plots (one per code, written
   * into {@code dir}).
   *
   * @param figure the figure's name, e.g. {@code Fig. 12}
   * @param paper the paper's statement for a code and a mix
   */
  static String memory(LogEcMemSettings s, List<int[]> codes, List<UpdateGrid.Row> rows,
      Path dir, String figure, java.util.function.BiFunction<int[], KvMix, String> paper)
      throws IOException {
    MarkdownTable table = new MarkdownTable("code", "read:update", "LogECMem", "IPMem",
        "FSMem (old versions held)", "FSMem after GC", "(r+1)-way replication",
        "LogECMem vs IPMem", "vs FSMem", "vs replication", "paper");
    Map<String, Map<String, double[][]>> plots = new LinkedHashMap<>();
    for (int[] code : codes) {
      String c = LogEcMemSettings.code(code);
      Map<String, double[][]> series = new LinkedHashMap<>();
      for (int m = 0; m < s.mixes.size(); m++) {
        KvMix mix = s.mixes.get(m);
        Map<KvScheme, double[]> memory = new LinkedHashMap<>();
        for (KvScheme scheme : UpdateGrid.SCHEMES) {
          double[] v = rows.stream().filter(x -> x.code.equals(c) && x.mix.equals(mix)
              && x.scheme == scheme).mapToDouble(UpdateGrid.Row::memoryOverData).toArray();
          memory.put(scheme, v);
          Spread spread = Spread.of(v);
          double[][] plot = series.computeIfAbsent(scheme.label,
              l -> new double[4][s.mixes.size()]);
          plot[0][m] = mix.otherPercent();
          plot[1][m] = spread.median();
          plot[2][m] = spread.min();
          plot[3][m] = spread.max();
        }
        double[] fsAfter = rows.stream().filter(x -> x.code.equals(c) && x.mix.equals(mix)
            && x.scheme == KvScheme.FULLSTRIPE)
            .mapToDouble(UpdateGrid.Row::memoryOverDataAfterCollection).toArray();
        double[] hybrid = memory.get(KvScheme.HYBRID);
        table.row(c, mix.readPercent() + ":" + mix.otherPercent(),
            Spread.of(hybrid).format("%.3fx"),
            Spread.of(memory.get(KvScheme.INPLACE)).format("%.3fx"),
            Spread.of(memory.get(KvScheme.FULLSTRIPE)).format("%.3fx"),
            Spread.of(fsAfter).format("%.3fx"),
            Spread.of(memory.get(KvScheme.REPLICATION)).format("%.3fx"),
            Fig11UpdateLatency.change(hybrid, memory.get(KvScheme.INPLACE)),
            Fig11UpdateLatency.change(hybrid, memory.get(KvScheme.FULLSTRIPE)),
            Fig11UpdateLatency.change(hybrid, memory.get(KvScheme.REPLICATION)),
            paper.apply(code, mix));
      }
      plots.put(c, series);
    }
    StringBuilder md = new StringBuilder();
    md.append(table).append('\n');
    for (Map.Entry<String, Map<String, double[][]>> e : plots.entrySet()) {
      String name = Fig11UpdateLatency.pngName(figure, e.getKey());
      Plots.linesWithRange(dir.resolve(name), figure + ": memory over data, RS" + e.getKey(),
          "update % of requests", "DRAM bytes / data bytes", e.getValue());
      md.append("![").append(e.getKey()).append("](").append(name).append(")\n");
    }
    return md.toString();
  }

  /** The paper's reductions of LogECMem's memory where its text gives them, and the analytic. */
  static String paper(int[] kr, KvMix mix) {
    String code = LogEcMemSettings.code(kr);
    String analytic = String.format(Locale.ROOT, "analytic vs IPMem %+.1f%%",
        ((kr[0] + 1.0) / (kr[0] + kr[1]) - 1) * 100);
    if (code.equals("(12,4)")) {
      return "vs replication −79.3%; " + analytic;
    }
    if (code.equals("(6,3)")) {
      return "vs IPMem −22.2%, vs FSMem up to −49.0%; " + analytic;
    }
    return analytic;
  }
}
