package io.eccache.benchmarks.logecmem;

import io.eccache.benchmarks.kv.KvMix;
import io.eccache.benchmarks.report.MarkdownTable;
import io.eccache.benchmarks.report.Spread;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Fig. 13 (Exp. 4): Exps. 2 and 3 repeated on wide stripes, k = 16, 32, 64 and 128 with r = 4:
 * update latency of LogECMem, IPMem and FSMem and the DRAM nodes' memory of those and (r + 1)-way
 * replication, from the run's wide {@link UpdateGrid}. Where a code has more DRAM nodes than a
 * testbed starts servers, its nodes are virtual ({@link NodeMap}); the tables say how many
 * servers carried how many nodes.
 */
final class Fig13WideStripes {
  /** The paper's reductions of LogECMem's update latency against FSMem at 70:30, by k. */
  private static final Map<Integer, String> PAPER_VS_FS = Map.of(16, "−1.9%", 32, "−19.0%", 64,
      "−36.4%", 128, "−29.4%");

  private Fig13WideStripes() {}

  static String run(LogEcMemRun run) throws IOException {
    LogEcMemSettings s = run.settings;
    Path dir = Files.createDirectories(run.out.resolve("fig13"));
    List<UpdateGrid.Row> rows = run.wideGrid();
    UpdateGrid.writeCsv(dir.resolve("raw.csv"), rows);
    MarkdownTable nodes = new MarkdownTable("code", "DRAM nodes of a testbed", "used by LogECMem",
        "memcached servers", "nodes per server");
    for (int[] code : s.wideCodes) {
      NodeMap map = NodeMap.of(code[0] + code[1], s.servers);
      int[] per = map.nodesPerServer();
      nodes.row(LogEcMemSettings.code(code), map.nodes(), code[0] + 1, map.servers(),
          per[0] == per[1] ? String.valueOf(per[0]) : per[0] + "-" + per[1]);
    }
    MarkdownTable sealing = new MarkdownTable("code", "read:update", "FSMem updates",
        "FSMem stripes sealed per 100 updates", "LogECMem log appends per update");
    for (int[] code : s.wideCodes) {
      String c = LogEcMemSettings.code(code);
      for (KvMix mix : s.mixes) {
        List<UpdateGrid.Row> fs = UpdateGrid.select(rows, c, mix, KvScheme.FULLSTRIPE);
        List<UpdateGrid.Row> hybrid = UpdateGrid.select(rows, c, mix, KvScheme.HYBRID);
        // A seal writes r parities besides the update's own set of its value.
        sealing.row(c, mix.readPercent() + ":" + mix.otherPercent(),
            Spread.of(fs.stream().mapToDouble(x -> x.updates()).toArray()).format("%.0f"),
            Spread.of(fs.stream().mapToDouble(x -> 100 * (x.perUpdate(OpCounts.Kind.SET) - 1)
                / code[1]).toArray()).format("%.1f"),
            Spread.of(hybrid.stream().mapToDouble(x -> x.perUpdate(OpCounts.Kind.LOG_APPEND))
                .toArray()).format("%.1f"));
      }
    }
    String setup = Fig11UpdateLatency.setup(s, s.wideRecords, s.wideOperations);
    String md = "## Fig. 13: wide stripes (" + s.wideCodes.stream().map(LogEcMemSettings::code)
        .collect(java.util.stream.Collectors.joining(" ")) + "): update latency and memory\n\n"
        + "Testbed (tier 1): " + setup + "; up to " + s.servers + " memcached servers per"
        + " testbed: a code of more DRAM nodes puts several on one server (virtual nodes: logical"
        + " node i on server i mod s, its items under a key prefix of its own; they share the"
        + " server's one thread, so a virtual node is no slower to reach than a real one on this"
        + " loopback, but the paper's k + 1 machines' parallel bandwidth is not modelled).\n\n"
        + run.stamp.markdown() + "\n\n" + nodes + "\n"
        + Fig11UpdateLatency.METHOD.replace("{repeats}", String.valueOf(s.repeats))
        + Fig11UpdateLatency.latency(s, s.wideCodes, rows.stream().filter(
            x -> Fig11UpdateLatency.SCHEMES.contains(x.scheme))
            .collect(java.util.stream.Collectors.toList()), dir, "Fig. 13", Fig13WideStripes::paper)
        + "\nFSMem's cost depends on how many stripes its updates fill: one seals when k of the"
        + " k + r nodes hold a new value. The paper's 1M requests seal thousands; a short run at"
        + " k = 128 may seal few or none, which leaves FSMem's updates a bare set and its latency"
        + " low:\n\n" + sealing + "\n"
        + Fig12Memory.METHOD.replace("{repeats}", String.valueOf(s.repeats))
        + Fig12Memory.memory(s, s.wideCodes, rows, dir, "Fig. 13 memory",
            Fig13WideStripes::memoryPaper);
    Files.writeString(dir.resolve("summary.md"), md);
    return md;
  }

  /** The paper's latency statements for a wide code and a mix. */
  static String paper(String code, KvMix mix) {
    int k = Integer.parseInt(code.substring(1, code.indexOf(',')));
    switch (mix.otherPercent()) {
      case 30:
        return "vs FSMem " + PAPER_VS_FS.getOrDefault(k, "lower") + "; below IPMem";
      case 50:
        return "FSMem fastest";
      default:
        return "LogECMem fastest";
    }
  }

  /** The paper's memory reductions where its text gives them, and the analytic vs IPMem. */
  static String memoryPaper(int[] kr, KvMix mix) {
    String analytic = String.format(Locale.ROOT, "analytic vs IPMem %+.1f%%, vs replication"
        + " %+.1f%%", ((kr[0] + 1.0) / (kr[0] + kr[1]) - 1) * 100,
        ((kr[0] + 1.0) / kr[0] / (kr[1] + 1) - 1) * 100);
    if (kr[0] == 16) {
      return "vs IPMem −17.2%, vs FSMem −46.0%; " + analytic;
    }
    if (kr[0] == 128) {
      return "vs replication −79.8%; " + analytic;
    }
    return analytic;
  }
}
