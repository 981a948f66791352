package io.eccache.benchmarks.logecmem;

import io.eccache.benchmarks.kv.KvMix;
import io.eccache.benchmarks.kv.KvOp;
import io.eccache.benchmarks.kv.KvTrace;
import io.eccache.benchmarks.kv.KvWorkload;
import io.eccache.benchmarks.report.CsvWriter;
import io.eccache.benchmarks.report.MarkdownTable;
import io.eccache.benchmarks.report.Plots;
import io.eccache.benchmarks.report.Spread;
import io.eccache.common.proto.LogStatus;
import io.eccache.lognode.LogScheme;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Fig. 14 (Exps. 5 and 6): the log layouts PL, PLR, PLR-m and PLM under LogECMem's updates. For
 * each layout, on log nodes of that layout: the disk I/Os the log nodes make for a replay's
 * updates (counted by the nodes once they flushed every committed delta, less what they had
 * made for the load phase's stripes), then degraded reads
 * with two DRAM nodes SIGKILLed, each rebuilding its value with a log node's parity: their latency
 * and the disk reads behind them, and a modelled HDD time of those I/Os (4 ms a seek, 150 MB/s),
 * labelled as modelled.
 */
final class Fig14LogLayouts {
  static final List<LogScheme> LAYOUTS = List.of(LogScheme.PL, LogScheme.PLR, LogScheme.PLR_M,
      LogScheme.PLM);
  /** The read:update mixes of Fig. 14. */
  static final List<KvMix> MIXES = List.of(KvMix.readUpdate(95, 5), KvMix.readUpdate(50, 50));
  /** Degraded reads per replay, at most. */
  static final int DEGRADED_READS = 200;
  private static final double SEEK_MS = 4;
  private static final double MB_PER_S = 150;

  /** One replay on one layout. */
  static final class Row {
    final LogScheme layout;
    final String code;
    final KvMix mix;
    final int repeat;
    long updates;
    long diskReads;
    long diskWrites;
    long bytesWritten;
    int degradedReads;
    double degradedMeanMicros;
    long degradedDiskReads;
    long degradedBytesRead;

    Row(LogScheme layout, String code, KvMix mix, int repeat) {
      this.layout = layout;
      this.code = code;
      this.mix = mix;
      this.repeat = repeat;
    }

    long updateIos() {
      return diskReads + diskWrites;
    }

    /** The modelled HDD time of one degraded read's disk reads, ms. */
    double degradedHddMs() {
      return degradedReads == 0 ? 0 : (degradedDiskReads * SEEK_MS
          + degradedBytesRead / (MB_PER_S * 1e3)) / degradedReads;
    }
  }

  private Fig14LogLayouts() {}

  static String run(LogEcMemRun run) throws IOException {
    LogEcMemSettings s = run.settings;
    Path dir = Files.createDirectories(run.out.resolve("fig14"));
    List<Row> rows = new ArrayList<>();
    int total = LAYOUTS.size() * s.repeats * s.codes.size() * MIXES.size();
    for (LogScheme layout : LAYOUTS) {
      LogNodeFleet fleet = run.layoutFleet(layout);
      for (int repeat = 1; repeat <= s.repeats; repeat++) {
        for (int[] code : s.codes) {
          for (KvMix mix : MIXES) {
            Row row = new Row(layout, LogEcMemSettings.code(code), mix, repeat);
            KvTrace trace = new KvWorkload(s.records, s.operations, mix, repeat).generate();
            try (Testbed bed = run.testbed(code[0], code[1], fleet)) {
              HybridKv store = new HybridKv(bed);
              long[][] loaded = new long[1][];
              KvRunner.Result result = new KvRunner(s.valueBytes, repeat, 0)
                  .afterLoad(() -> loaded[0] = flushed(bed)).run(store, trace, run.progress);
              row.updates = result.latencyMicros.get(KvOp.Kind.UPDATE).getTotalCount();
              long[] updates = flushed(bed);
              row.diskReads = updates[0] - loaded[0][0];
              row.diskWrites = updates[1] - loaded[0][1];
              row.bytesWritten = updates[3] - loaded[0][3];
              degradedReads(bed, store, trace.loadedKeys(), row);
              long[] after = flushed(bed);
              row.degradedDiskReads = after[0] - updates[0];
              row.degradedBytesRead = after[2] - updates[2];
            }
            rows.add(row);
            run.progress.accept(String.format(Locale.ROOT, "fig14 %d of %d: %s %s %s repeat %d:"
                + " %d disk I/Os for %d updates, degraded read %.0f us", rows.size(), total,
                layout, row.code, mix, repeat, row.updateIos(), row.updates,
                row.degradedMeanMicros));
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
   * The log nodes' disk counters for the testbed's stripes once they buffer nothing: reads,
   * writes, bytes read, bytes written.
   */
  private static long[] flushed(Testbed bed) throws IOException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (true) {
      List<LogStatus> logs = bed.logStatus();
      long buffered = logs.stream().mapToLong(l -> l.getBufferedBytes() + l.getUndecided()).sum();
      if (buffered == 0) {
        return new long[] {logs.stream().mapToLong(LogStatus::getDiskReads).sum(),
            logs.stream().mapToLong(LogStatus::getDiskWrites).sum(),
            logs.stream().mapToLong(LogStatus::getDiskBytesRead).sum(),
            logs.stream().mapToLong(LogStatus::getDiskBytesWritten).sum()};
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("the log nodes still buffer " + buffered + " bytes (or undecided"
            + " deltas) 30 s after the replay: their flush timer (1 s) is not running");
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted waiting for the log nodes' flush", e);
      }
    }
  }

  /**
   * SIGKILLs DRAM nodes 0 and 1 and reads values that lived on node 0: every stripe of a hybrid
   * store spans all k + 1 nodes, so each read rebuilds with a log node's parity.
   */
  private static void degradedReads(Testbed bed, HybridKv store, List<String> keys, Row row)
      throws IOException {
    DegradedReads.Result reads = DegradedReads.measure(bed, store, keys, DEGRADED_READS, 0, 1);
    if (reads.reads > 0 && reads.logReads == 0) {
      throw new IOException("two DRAM nodes down and no read used a log node");
    }
    row.degradedReads = reads.reads;
    row.degradedMeanMicros = reads.meanMicros;
  }

  private static void writeCsv(Path csv, List<Row> rows) throws IOException {
    try (CsvWriter out = new CsvWriter(csv, "layout", "code", "mix", "repeat", "updates",
        "disk_reads", "disk_writes", "disk_bytes_written", "degraded_reads",
        "degraded_mean_us", "degraded_disk_reads", "degraded_disk_bytes_read",
        "degraded_hdd_model_ms")) {
      for (Row r : rows) {
        out.row(r.layout, r.code, r.mix.toString(), r.repeat, r.updates, r.diskReads,
            r.diskWrites, r.bytesWritten, r.degradedReads, r.degradedMeanMicros,
            r.degradedDiskReads, r.degradedBytesRead, r.degradedHddMs());
      }
    }
  }

  private static String summary(LogEcMemRun run, List<Row> rows, Path dir) throws IOException {
    LogEcMemSettings s = run.settings;
    MarkdownTable ios = new MarkdownTable("code", "read:update", "PL", "PLR", "PLR-m", "PLM",
        "PLM vs PLR", "PLM vs PLR-m", "paper");
    MarkdownTable degraded = new MarkdownTable("code", "read:update", "PL µs", "PLR µs",
        "PLR-m µs", "PLM µs", "PLM vs PL", "disk reads per read (PL | PLM)",
        "modelled HDD ms per read (PL | PLM)", "paper");
    Map<String, double[][]> plot = new LinkedHashMap<>();
    for (int[] kr : s.codes) {
      String code = LogEcMemSettings.code(kr);
      for (KvMix mix : MIXES) {
        Map<LogScheme, double[]> count = new LinkedHashMap<>();
        Map<LogScheme, double[]> latency = new LinkedHashMap<>();
        for (LogScheme layout : LAYOUTS) {
          List<Row> mine = rows.stream().filter(r -> r.layout == layout && r.code.equals(code)
              && r.mix.equals(mix)).collect(java.util.stream.Collectors.toList());
          count.put(layout, mine.stream().mapToDouble(Row::updateIos).toArray());
          latency.put(layout, mine.stream().mapToDouble(r -> r.degradedMeanMicros).toArray());
        }
        Row pl = rows.stream().filter(r -> r.layout == LogScheme.PL && r.code.equals(code)
            && r.mix.equals(mix)).findFirst().orElseThrow();
        Row plm = rows.stream().filter(r -> r.layout == LogScheme.PLM && r.code.equals(code)
            && r.mix.equals(mix)).findFirst().orElseThrow();
        String label = mix.readPercent() + ":" + mix.otherPercent();
        ios.row(code, label, Spread.of(count.get(LogScheme.PL)).format("%.0f"),
            Spread.of(count.get(LogScheme.PLR)).format("%.0f"),
            Spread.of(count.get(LogScheme.PLR_M)).format("%.0f"),
            Spread.of(count.get(LogScheme.PLM)).format("%.0f"),
            Fig11UpdateLatency.change(count.get(LogScheme.PLM), count.get(LogScheme.PLR)),
            Fig11UpdateLatency.change(count.get(LogScheme.PLM), count.get(LogScheme.PLR_M)),
            code.equals("(15,3)") && mix.otherPercent() == 5
                ? "PLM vs PLR −23.7%, vs PLR-m −8.2%" : "PL fewest");
        degraded.row(code, label, Spread.of(latency.get(LogScheme.PL)).format("%.0f"),
            Spread.of(latency.get(LogScheme.PLR)).format("%.0f"),
            Spread.of(latency.get(LogScheme.PLR_M)).format("%.0f"),
            Spread.of(latency.get(LogScheme.PLM)).format("%.0f"),
            Fig11UpdateLatency.change(latency.get(LogScheme.PLM), latency.get(LogScheme.PL)),
            String.format(Locale.ROOT, "%.1f | %.1f", pl.degradedDiskReads
                / (double) Math.max(1, pl.degradedReads), plm.degradedDiskReads
                / (double) Math.max(1, plm.degradedReads)),
            String.format(Locale.ROOT, "%.1f | %.1f", pl.degradedHddMs(), plm.degradedHddMs()),
            mix.otherPercent() == 50 ? "PLM vs PL −35.9% (gain 20.3% at k=6 to 11.8% at k=15)"
                : "PLR ≈ PLR-m ≈ PLM, faster than PL");
      }
    }
    for (LogScheme layout : LAYOUTS) {
      double[][] series = new double[4][s.codes.size()];
      for (int c = 0; c < s.codes.size(); c++) {
        String code = LogEcMemSettings.code(s.codes.get(c));
        Spread spread = Spread.of(rows.stream().filter(r -> r.layout == layout
            && r.code.equals(code) && r.mix.otherPercent() == 50)
            .mapToDouble(Row::updateIos).toArray());
        series[0][c] = s.codes.get(c)[0];
        series[1][c] = spread.median();
        series[2][c] = spread.min();
        series[3][c] = spread.max();
      }
      plot.put(layout.name().replace('_', '-'), series);
    }
    Plots.linesWithRange(dir.resolve("fig14-ios.png"), "Fig. 14: log nodes' disk I/Os,"
        + " read:update 50:50", "k of the code", "disk I/Os of a replay's updates", plot);
    return "## Fig. 14: log layouts (disk I/Os, degraded reads with two failures)\n\n"
        + "Testbed (tier 1): " + Fig11UpdateLatency.setup(s) + "; LogECMem (hybrid) on log"
        + " nodes of each layout, PLM merging every 256 KB of log, fsync off.\n\n"
        + run.stamp.markdown() + "\n\n"
        + "Disk I/Os the log nodes made for a replay's updates (reads and writes, counted by the"
        + " nodes once every committed delta is flushed), median [min–max] over " + s.repeats
        + " repeats:\n\n" + ios
        + "\nDegraded reads with two DRAM nodes SIGKILLed (up to " + DEGRADED_READS + " values"
        + " of the first, each rebuilt with a log node's parity at the stripe's version, each"
        + " compared with its bytes before the kill): mean latency on this machine's SSD and"
        + " page cache, the log nodes' disk reads per read, and the HDD time those I/Os would"
        + " take (modelled: 4 ms a seek, 150 MB/s):\n\n" + degraded
        + "\n![disk I/Os](fig14-ios.png)\n";
  }
}
