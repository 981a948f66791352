package io.eccache.benchmarks.logecmem;

import io.eccache.benchmarks.kv.KvMix;
import io.eccache.benchmarks.kv.KvTrace;
import io.eccache.benchmarks.kv.KvWorkload;
import io.eccache.benchmarks.report.CsvWriter;
import io.eccache.benchmarks.report.MarkdownTable;
import io.eccache.benchmarks.report.Plots;
import io.eccache.benchmarks.report.Spread;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Fig. 15 (Exp. 7): DRAM-node repair throughput with and without log assist. Per code and repeat,
 * a LogECMem store is loaded, DRAM node 0 SIGKILLed, and every unit it held rebuilt into a fresh
 * memcached server twice from the same survivors, plain and log-assisted at the share that
 * balances per-node reads ({@link RepairShare}), in an order rotated by repeat, after an
 * unmeasured repair of the first units both ways; each unit is compared with its bytes.
 * Throughput is the node's repaired bytes over the repair's time.
 */
final class Fig15NodeRepair {
  /** The DRAM node that fails. */
  static final int FAILED = 0;
  /** Units each way of the unmeasured repair before the measured ones. */
  static final int WARM_UNITS = 100;

  /** One repair. */
  static final class Row {
    final String code;
    final int k;
    final int repeat;
    /** The share of stripes given to the log nodes: 0 for plain repair. */
    final double share;
    final NodeRepair.Result result;

    Row(String code, int k, int repeat, double share, NodeRepair.Result result) {
      this.code = code;
      this.k = k;
      this.repeat = repeat;
      this.share = share;
      this.result = result;
    }

    boolean isAssisted() {
      return share > 0;
    }
  }

  private Fig15NodeRepair() {}

  static String run(LogEcMemRun run) throws IOException {
    LogEcMemSettings s = run.settings;
    Path dir = Files.createDirectories(run.out.resolve("fig15"));
    run.warmUp();
    List<Row> rows = new ArrayList<>();
    int total = 2 * s.repeats * s.codes.size();
    for (int repeat = 1; repeat <= s.repeats; repeat++) {
      for (int[] code : s.codes) {
        String c = LogEcMemSettings.code(code);
        KvTrace load = new KvWorkload(s.records, 0, KvMix.readUpdate(100, 0), repeat).generate();
        double[] shares = {0, RepairShare.balanced(code[0], code[1], 1)};
        try (Testbed bed = run.testbed(code[0], code[1])) {
          HybridKv store = new HybridKv(bed);
          new KvRunner(s.valueBytes, repeat, 0).run(store, load, run.progress);
          List<NodeRepair.Lost> lost = NodeRepair.snapshot(store, FAILED);
          bed.dram.get(FAILED).kill();
          warmUp(bed, store, lost, shares[1]);
          for (int i = 0; i < shares.length; i++) {
            double share = shares[(i + repeat) % shares.length];
            NodeRepair.Result result;
            try (DramNode.Server fresh = bed.startReplacement(FAILED)) {
              result = NodeRepair.repair(store, lost, new DramNode(fresh), share);
            }
            if (result.verified != result.units) {
              throw new IOException(c + ": " + (result.units - result.verified) + " of "
                  + result.units + " repaired units read back other bytes");
            }
            rows.add(new Row(c, code[0], repeat, share, result));
            run.progress.accept(String.format(Locale.ROOT, "fig15 %d of %d: repeat %d %s %s:"
                + " %d units, %.1f MB/s", rows.size(), total, repeat, c,
                share > 0 ? "log-assisted" : "plain", result.units,
                result.megabytesPerSecond()));
          }
        }
      }
    }
    writeCsv(dir.resolve("raw.csv"), rows);
    String md = summary(run, rows, dir);
    Files.writeString(dir.resolve("summary.md"), md);
    return md;
  }

  /**
   * Repairs the first units both ways, unmeasured, into a server then dropped: the log nodes'
   * parity reads are otherwise cold (JIT, connections) in a run's first repair, as no figure
   * before this one reads a parity with one node down.
   */
  private static void warmUp(Testbed bed, HybridKv store, List<NodeRepair.Lost> lost,
      double share) throws IOException {
    List<NodeRepair.Lost> some = lost.subList(0, Math.min(WARM_UNITS, lost.size()));
    try (DramNode.Server scratch = bed.startReplacement(FAILED)) {
      NodeRepair.repair(store, some, new DramNode(scratch), 0);
      NodeRepair.repair(store, some, new DramNode(scratch), share);
    }
  }

  private static void writeCsv(Path csv, List<Row> rows) throws IOException {
    try (CsvWriter out = new CsvWriter(csv, "code", "repeat", "mode", "share", "units",
        "assisted_units", "bytes", "repair_ms", "mb_per_s", "dram_gets", "log_reads",
        "verified_units")) {
      for (Row row : rows) {
        NodeRepair.Result r = row.result;
        out.row(row.code, row.repeat, row.isAssisted() ? "log-assisted" : "plain", row.share,
            r.units, r.assisted, r.bytes, r.nanos / 1e6, r.megabytesPerSecond(), r.dramGets,
            r.logReads, r.verified);
      }
    }
  }

  private static String summary(LogEcMemRun run, List<Row> rows, Path dir) throws IOException {
    LogEcMemSettings s = run.settings;
    MarkdownTable table = new MarkdownTable("code", "units repaired (MB)", "plain MB/s",
        "log-assisted MB/s", "stripes assisted", "log assist vs plain",
        "modelled (bandwidth-bound)", "µs per unit (plain | assisted)",
        "DRAM gets per unit (plain | assisted)", "log reads per unit", "paper");
    int slower = 0;
    Map<String, double[][]> plot = new LinkedHashMap<>();
    plot.put("plain", new double[4][s.codes.size()]);
    plot.put("log-assisted", new double[4][s.codes.size()]);
    for (int c = 0; c < s.codes.size(); c++) {
      int[] code = s.codes.get(c);
      String name = LogEcMemSettings.code(code);
      List<Row> plain = select(rows, name, false);
      List<Row> assisted = select(rows, name, true);
      double[] plainMb = plain.stream().mapToDouble(r -> r.result.megabytesPerSecond())
          .toArray();
      double[] assistedMb = assisted.stream().mapToDouble(r -> r.result.megabytesPerSecond())
          .toArray();
      NodeRepair.Result first = assisted.get(0).result;
      double share = assisted.get(0).share;
      table.row(name, String.format(Locale.ROOT, "%d (%.1f)", first.units, first.bytes / 1e6),
          Spread.of(plainMb).format("%.1f"), Spread.of(assistedMb).format("%.1f"),
          String.format(Locale.ROOT, "%.0f%%", 100.0 * first.assisted / first.units),
          Fig11UpdateLatency.change(assistedMb, plainMb),
          String.format(Locale.ROOT, "%+.1f%%", 100 * RepairShare.modelledGain(code[0],
              code[1], share, 1)),
          String.format(Locale.ROOT, "%.0f | %.0f", microsPerUnit(plain),
              microsPerUnit(assisted)),
          String.format(Locale.ROOT, "%.2f | %.2f", plain.get(0).result.dramGets
              / (double) first.units, first.dramGets / (double) first.units),
          String.format(Locale.ROOT, "%.2f", first.logReads / (double) first.units),
          code[0] == 6 && code[1] == 3 ? "+18.2%" : "gain falls with k");
      slower += Spread.of(assistedMb).median() < Spread.of(plainMb).median() ? 1 : 0;
      fill(plot.get("plain"), c, code[0], Spread.of(plainMb));
      fill(plot.get("log-assisted"), c, code[0], Spread.of(assistedMb));
    }
    Plots.linesWithRange(dir.resolve("fig15-repair.png"), "Fig. 15: DRAM-node repair"
        + " throughput", "k of the code", "MB/s repaired", plot);
    return "## Fig. 15: DRAM-node repair with and without log assist\n\n"
        + "Testbed (tier 1): " + Fig11UpdateLatency.setup(s, s.records, 0) + "; LogECMem"
        + " (hybrid) loaded, no run phase; loopback unshaped: every node is reached at memory"
        + " speed, the proxy's one thread and the two cores are the limit, not a node's"
        + " bandwidth. (Shaping per-node bandwidth would take `tc` on `lo` as root, as"
        + " `LoopbackShaper` does for the cluster benchmark; that qdisc is the whole loopback"
        + " device's, shared with every other process on this machine, so it is not installed"
        + " here.)\n\n"
        + run.stamp.markdown() + "\n\n"
        + "DRAM node " + FAILED + " SIGKILLed, then every unit it held (data units and P1s)"
        + " rebuilt into a fresh memcached server on its address, stripe by stripe, each"
        + " stripe's reads issued at once: plain repair reads the k surviving DRAM units (k − 1"
        + " data and P1); log assist, on the share of stripes that would balance per-node reads"
        + " at equal bandwidth (min(1, k(r − 1)/(k + r − 1)): every stripe for these codes),"
        + " leaves one surviving data unit out (rotating) and reads a log node's parity P_j at"
        + " the stripe's version instead. Both repairs rebuild from the same survivors; every"
        + " unit is compared with the bytes the node held before and after it is written (all"
        + " equal, or the run fails); before them, the first " + WARM_UNITS + " units are"
        + " repaired both ways unmeasured (warm log nodes, as a repair's steady state). MB/s ="
        + " the node's bytes over the repair's time, median"
        + " [min–max] over " + s.repeats + " repeats, the gain paired within a repeat."
        + " Modelled: the gain if the busiest node's reads set the time, 1/(1 − f/k) − 1 at"
        + " share f with equal bandwidths; the paper's +18.2% at (6,3) is close to its +20%.\n\n"
        + table + "\n"
        + (slower == 0 ? "" : "Ours differs in direction for " + slower + " of " + s.codes.size()
            + " codes: log assist is slower here. Per unit (the µs column), an assisted stripe"
            + " costs more than a plain one: it spares one memcached get among k issued at once"
            + " (on this loopback the k gets overlap and no node's bandwidth is scarce, so"
            + " sparing one buys nothing) and adds a round trip to a log node, a JVM that"
            + " rebuilds the parity at the stripe's version from its buffer or disk, answered"
            + " after the gets. The paper's gain comes from per-node network bandwidth on EC2,"
            + " which this machine does not limit.\n\n")
        + "![repair](fig15-repair.png)\n";
  }

  /** The repairs' mean time per unit, µs, median over repeats. */
  private static double microsPerUnit(List<Row> rows) {
    return Spread.of(rows.stream().mapToDouble(r -> r.result.nanos / 1e3 / r.result.units)
        .toArray()).median();
  }

  private static List<Row> select(List<Row> rows, String code, boolean assisted) {
    List<Row> out = new ArrayList<>();
    rows.stream().filter(r -> r.code.equals(code) && r.isAssisted() == assisted)
        .forEach(out::add);
    return out;
  }

  private static void fill(double[][] series, int at, double x, Spread y) {
    series[0][at] = x;
    series[1][at] = y.median();
    series[2][at] = y.min();
    series[3][at] = y.max();
  }
}
