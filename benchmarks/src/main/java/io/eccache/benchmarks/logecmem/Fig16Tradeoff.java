package io.eccache.benchmarks.logecmem;

import io.eccache.benchmarks.kv.KvMix;
import io.eccache.benchmarks.report.CsvWriter;
import io.eccache.benchmarks.report.MarkdownTable;
import io.eccache.benchmarks.report.Plots;
import io.eccache.benchmarks.report.Spread;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fig. 16 and Table 3: the latency–memory trade-off of IPMem, FSMem and LogECMem. Each (code,
 * read:update mix, scheme) is one point, its memory over the data and its update latency (medians
 * over repeats), taken from the update grids Figs. 11-13 replay: the run's own when those figures
 * ran in it, else replayed here. Table 3 ranks the three per row, beside the paper's ranks.
 */
final class Fig16Tradeoff {
  private Fig16Tradeoff() {}

  /** One scheme's point for a code and a mix. */
  static final class Point {
    final int[] code;
    final KvMix mix;
    final KvScheme scheme;
    final Spread memory;
    final Spread latency;

    Point(int[] code, KvMix mix, KvScheme scheme, Spread memory, Spread latency) {
      this.code = code;
      this.mix = mix;
      this.scheme = scheme;
      this.memory = memory;
      this.latency = latency;
    }
  }

  static String run(LogEcMemRun run) throws IOException {
    LogEcMemSettings s = run.settings;
    Path dir = Files.createDirectories(run.out.resolve("fig16"));
    List<Point> points = new ArrayList<>();
    points.addAll(points(s.codes, run.updateGrid(), s.mixes));
    points.addAll(points(s.wideCodes, run.wideGrid(), s.mixes));
    try (CsvWriter csv = new CsvWriter(dir.resolve("raw.csv"), "code", "mix", "scheme",
        "memory_over_data", "memory_min", "memory_max", "update_mean_us", "update_min_us",
        "update_max_us")) {
      for (Point p : points) {
        csv.row(LogEcMemSettings.code(p.code), p.mix.toString(), p.scheme.id, p.memory.median(),
            p.memory.min(), p.memory.max(), p.latency.median(), p.latency.min(),
            p.latency.max());
      }
    }
    MarkdownTable table = new MarkdownTable("code", "read:update", "IPMem", "FSMem", "LogECMem",
        "lowest latency (paper)", "lowest memory (paper)", "paper: IPMem | FSMem | LogECMem");
    int agreeLatency = 0;
    int agreeMemory = 0;
    int rows = 0;
    StringBuilder md = new StringBuilder();
    for (int i = 0; i < points.size(); i += Table3Ranks.SCHEMES.size()) {
      List<Point> row = points.subList(i, i + Table3Ranks.SCHEMES.size());
      Map<KvScheme, Double> latency = new EnumMap<>(KvScheme.class);
      Map<KvScheme, Double> memory = new EnumMap<>(KvScheme.class);
      row.forEach(p -> latency.put(p.scheme, p.latency.median()));
      row.forEach(p -> memory.put(p.scheme, p.memory.median()));
      Map<KvScheme, Table3Ranks.Rank> ourLatency = Table3Ranks.rank(latency);
      Map<KvScheme, Table3Ranks.Rank> ourMemory = Table3Ranks.rank(memory);
      int k = row.get(0).code[0];
      int updates = row.get(0).mix.otherPercent();
      Map<KvScheme, Table3Ranks.Rank> paperLatency = Table3Ranks.paperLatency(k, updates);
      Map<KvScheme, Table3Ranks.Rank> paperMemory = Table3Ranks.paperMemory();
      KvScheme fastest = best(ourLatency);
      KvScheme smallest = best(ourMemory);
      agreeLatency += fastest == best(paperLatency) ? 1 : 0;
      agreeMemory += smallest == best(paperMemory) ? 1 : 0;
      rows++;
      List<Object> cells = new ArrayList<>(List.of(LogEcMemSettings.code(row.get(0).code),
          row.get(0).mix.readPercent() + ":" + updates));
      List<String> paper = new ArrayList<>();
      for (KvScheme scheme : Table3Ranks.SCHEMES) {
        cells.add(Table3Ranks.cell(ourLatency.get(scheme), ourMemory.get(scheme)));
        paper.add(Table3Ranks.cell(paperLatency.get(scheme), paperMemory.get(scheme)));
      }
      cells.add(Table3Ranks.name(fastest) + " (" + Table3Ranks.name(best(paperLatency)) + ")");
      cells.add(Table3Ranks.name(smallest) + " (" + Table3Ranks.name(best(paperMemory)) + ")");
      cells.add(String.join(" | ", paper));
      table.row(cells.toArray());
    }
    md.append("## Fig. 16 and Table 3: latency–memory trade-off (IPMem, FSMem, LogECMem)\n\n");
    md.append("Testbed (tier 1): the replays of Figs. 11-12 (").append(Fig11UpdateLatency
        .setup(s)).append(") and of Fig. 13 (").append(s.wideRecords).append(" values, ")
        .append(s.wideOperations).append(" requests, virtual nodes past ").append(s.servers)
        .append(" servers), reused when those figures ran in this invocation.\n\n");
    md.append(run.stamp.markdown()).append("\n\n");
    md.append("Each point: a scheme's memory over the data (memcached's counters, FSMem's with"
        + " its old versions held, as Fig. 12) and its update latency (FSMem's with its"
        + " collection, as Fig. 11), medians over ").append(s.repeats).append(" repeats (ranges"
        + " in raw.csv). Table 3's words per row: \"latency (memory)\", best = lowest of the"
        + " three, then low, then high; the paper's row beside it, and the paper's scheme in"
        + " brackets after ours (its k = 6 and 10 rule for smaller k, its k ≥ 16 rule for"
        + " wider). Lowest latency as the paper's in ")
        .append(agreeLatency).append(" of ").append(rows).append(" rows, lowest memory in ")
        .append(agreeMemory).append(" of ").append(rows).append(".\n\n");
    md.append(table).append('\n');
    for (int[] code : codes(points)) {
      Map<String, double[][]> series = new LinkedHashMap<>();
      for (KvScheme scheme : Table3Ranks.SCHEMES) {
        List<Point> mine = new ArrayList<>();
        points.stream().filter(p -> p.code == code && p.scheme == scheme).forEach(mine::add);
        double[][] xy = new double[2][mine.size()];
        for (int m = 0; m < mine.size(); m++) {
          xy[0][m] = mine.get(m).memory.median();
          xy[1][m] = mine.get(m).latency.median();
        }
        series.put(scheme.label, xy);
      }
      String code16 = LogEcMemSettings.code(code);
      String name = Fig11UpdateLatency.pngName("Fig. 16", code16);
      Plots.lines(dir.resolve(name), "Fig. 16: trade-off, RS" + code16 + " (one point per"
          + " read:update mix)", "DRAM bytes / data bytes", "mean update latency (µs)", series);
      md.append("![").append(code16).append("](").append(name).append(")\n");
    }
    Files.writeString(dir.resolve("summary.md"), md.toString());
    return md.toString();
  }

  /** The points of every code and mix of a grid, three schemes each in Table 3's order. */
  private static List<Point> points(List<int[]> codes, List<UpdateGrid.Row> grid,
      List<KvMix> mixes) {
    List<Point> points = new ArrayList<>();
    for (int[] code : codes) {
      String c = LogEcMemSettings.code(code);
      for (KvMix mix : mixes) {
        for (KvScheme scheme : Table3Ranks.SCHEMES) {
          List<UpdateGrid.Row> rows = UpdateGrid.select(grid, c, mix, scheme);
          points.add(new Point(code, mix, scheme,
              Spread.of(rows.stream().mapToDouble(UpdateGrid.Row::memoryOverData).toArray()),
              Spread.of(rows.stream().mapToDouble(UpdateGrid.Row::updateMeanMicros).toArray())));
        }
      }
    }
    return points;
  }

  private static List<int[]> codes(List<Point> points) {
    List<int[]> codes = new ArrayList<>();
    points.stream().map(p -> p.code).distinct().forEach(codes::add);
    return codes;
  }

  private static KvScheme best(Map<KvScheme, Table3Ranks.Rank> ranks) {
    return ranks.entrySet().stream().filter(e -> e.getValue() == Table3Ranks.Rank.BEST)
        .findFirst().orElseThrow().getKey();
  }
}
