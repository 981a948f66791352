package io.eccache.benchmarks.packed;

import io.eccache.benchmarks.packed.PackedUpdateBench.Mode;
import io.eccache.benchmarks.packed.PackedUpdateBench.Run;
import io.eccache.benchmarks.packed.PackedUpdateBench.Step;
import io.eccache.benchmarks.report.CsvWriter;
import io.eccache.benchmarks.report.MarkdownTable;
import io.eccache.benchmarks.report.Plots;
import io.eccache.benchmarks.report.RunStamp;
import io.eccache.benchmarks.report.Spread;
import io.eccache.client.form.UpdatePhases.Phase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The report of a {@link PackedUpdateBench} run: raw.csv (one row per step), summary.md (per mode
 * and thread count, median [min–max] over the repeats; the phases of an update in place; memory)
 * and plots, under one directory.
 */
public final class PackedUpdateReport {
  private PackedUpdateReport() {}

  /** Writes the files under {@code dir} and returns the summary. */
  public static String write(Path dir, List<Run> runs, PackedUpdateBench.Settings s,
      RunStamp stamp) throws IOException {
    Files.createDirectories(dir);
    try (CsvWriter csv = new CsvWriter(dir.resolve("raw.csv"), "mode", "repeat", "threads",
        "updates", "seconds", "updates_per_s", "mean_us", "p99_us", "in_place", "lease_waits",
        "master_cpu_ms_per_update", "journal_entries_per_update", "lease_us", "read_units_us",
        "compute_us", "write_units_us", "log_acks_us", "commit_us", "decide_us",
        "memory_after_load", "memory_after_updates", "wrong").doubleFormat("%.3f")) {
      for (Run run : runs) {
        for (Step st : run.steps) {
          csv.row(run.mode.name().toLowerCase(Locale.ROOT), run.repeat, st.threads, st.updates,
              st.seconds, st.updatesPerSecond(), st.meanMicros, st.p99Micros, st.inPlace,
              st.phases.leaseWaits(), st.masterCpuMsPerUpdate, st.journalEntriesPerUpdate,
              st.phases.meanMicros(Phase.LEASE), st.phases.meanMicros(Phase.READ_UNITS),
              st.phases.meanMicros(Phase.COMPUTE), st.phases.meanMicros(Phase.WRITE_UNITS),
              st.phases.meanMicros(Phase.LOG_ACKS), st.phases.meanMicros(Phase.COMMIT),
              st.phases.meanMicros(Phase.DECIDE), run.memoryAfterLoad, run.memoryAfterUpdates,
              run.wrong);
        }
      }
    }
    StringBuilder md = new StringBuilder("## Tier 2: eccache's packed store\n\n");
    md.append(String.format(Locale.ROOT, "In-process cluster (%s) of %d workers, each with a log"
        + " node (PLM, fsync off); RS(%d,%d) packed namespace, one per mode on a fresh cluster;"
        + " %d values of %d bytes (unit = value, the paper's object = chunk) PUT and sealed,"
        + " then %d unmeasured updates and %d closed-loop updates per step from %s threads,"
        + " keys by YCSB's scrambled Zipf"
        + " 0.99 over each thread's own share; a maintainer sealing and compacting throughout;"
        + " Alluxio's UFS journal on local disk; %d repeats (seeds from %d). Replicas: %d copies"
        + " (CACHE_ONLY), a PUT per update. One machine of %d cores: the client, the master and"
        + " every worker share them.%n%n", s.workerProcesses ? "workers in processes"
        : "workers in the benchmark's JVM", s.workers(), s.k, s.r, s.values, s.valueBytes,
        s.warmUpUpdates(), s.updatesPerStep, s.threads, s.repeats, s.seed, s.r + 1, stamp.cores()));
    md.append(stamp.markdown()).append("\n\n");
    md.append(throughputTable(runs, s)).append('\n');
    md.append(phaseTable(runs, s)).append('\n');
    md.append(memoryTable(runs, s)).append('\n');
    long wrong = runs.stream().mapToLong(r -> r.wrong).sum();
    md.append(String.format(Locale.ROOT, "Every value read back after each run: %d wrong or"
        + " missing.%n%n", wrong));
    plots(dir, runs, s);
    md.append("![update throughput](throughput.png)\n![update phases](phases.png)\n");
    return md.toString();
  }

  private static String throughputTable(List<Run> runs, PackedUpdateBench.Settings s) {
    MarkdownTable t = new MarkdownTable("mode", "threads", "updates/s", "mean latency ms",
        "p99 ms", "in place", "lease waits per update", "master CPU ms per update",
        "journal entries per update");
    for (Mode mode : modes(runs)) {
      for (int threads : s.threads) {
        List<Step> steps = steps(runs, mode, threads);
        t.row(mode.label, threads, spread(steps, Step::updatesPerSecond).format("%.0f"),
            spread(steps, st -> st.meanMicros / 1000).format("%.1f"),
            spread(steps, st -> st.p99Micros / 1000).format("%.1f"),
            spread(steps, st -> 100.0 * st.inPlace / st.updates).format("%.0f%%"),
            spread(steps, st -> st.phases.leaseWaits() / (double) st.updates).format("%.2f"),
            spread(steps, st -> st.masterCpuMsPerUpdate).format("%.2f"),
            spread(steps, st -> st.journalEntriesPerUpdate).format("%.1f"));
      }
    }
    return "Updates, median [min–max] over the repeats:\n\n" + t;
  }

  private static String phaseTable(List<Run> runs, PackedUpdateBench.Settings s) {
    int one = s.threads.get(0);
    MarkdownTable t = new MarkdownTable("mode", "lease µs", "read units µs", "compute µs",
        "write units µs", "log acks µs", "commit µs", "decide µs", "sum µs");
    for (Mode mode : modes(runs)) {
      if (mode == Mode.HYBRID || mode == Mode.INPLACE) {
        List<Step> steps = steps(runs, mode, one);
        List<Object> row = new java.util.ArrayList<>(List.of(mode.label));
        for (Phase p : Phase.values()) {
          row.add(spread(steps, st -> st.phases.meanMicros(p)).format("%.0f"));
        }
        row.add(spread(steps, st -> st.phases.meanTotalMicros()).format("%.0f"));
        t.row(row.toArray());
      }
    }
    return String.format(Locale.ROOT, "Where an update in place spends its time at %d"
        + " thread(s) (the client's clock, `EcCacheUpdatePhase.*`; lease and commit are"
        + " coordinator calls, each waiting for Alluxio's journal):%n%n", one) + t;
  }

  private static String memoryTable(List<Run> runs, PackedUpdateBench.Settings s) {
    MarkdownTable t = new MarkdownTable("mode", "after load (settled)",
        "right after the updates (old versions held)", "analytic");
    for (Mode mode : modes(runs)) {
      List<Run> mine = runs.stream().filter(r -> r.mode == mode).collect(Collectors.toList());
      t.row(mode.label, Spread.of(mine.stream().mapToDouble(r -> r.memoryAfterLoad).toArray())
          .format("%.3fx"), Spread.of(mine.stream().mapToDouble(r -> r.memoryAfterUpdates)
          .toArray()).format("%.3fx"), analytic(mode, s));
    }
    return "Memory: Alluxio's used bytes over the values' bytes (log nodes' disks not"
        + " counted):\n\n" + t;
  }

  private static String analytic(Mode mode, PackedUpdateBench.Settings s) {
    switch (mode) {
      case HYBRID:
        return String.format(Locale.ROOT, "(k+1)/k = %.3fx", (s.k + 1) / (double) s.k);
      case FULLSTRIPE: // sealed as hybrid stripes; replaced values stay as dead slots
        return String.format(Locale.ROOT, "(k+1)/k = %.3fx, dead slots until compacted",
            (s.k + 1) / (double) s.k);
      case INPLACE:
        return String.format(Locale.ROOT, "(k+r)/k = %.3fx", (s.k + s.r) / (double) s.k);
      default:
        return (s.r + 1) + ".000x";
    }
  }

  private static void plots(Path dir, List<Run> runs, PackedUpdateBench.Settings s)
      throws IOException {
    Map<String, double[][]> series = new LinkedHashMap<>();
    for (Mode mode : modes(runs)) {
      double[][] xy = new double[4][s.threads.size()];
      for (int i = 0; i < s.threads.size(); i++) {
        Spread sp = spread(steps(runs, mode, s.threads.get(i)), Step::updatesPerSecond);
        xy[0][i] = s.threads.get(i);
        xy[1][i] = sp.median();
        xy[2][i] = sp.min();
        xy[3][i] = sp.max();
      }
      series.put(mode.label, xy);
    }
    Plots.linesWithRange(dir.resolve("throughput.png"), "Update throughput, RS(" + s.k + ","
        + s.r + ")", "client threads", "updates/s", series);
    Map<String, Double> bars = new LinkedHashMap<>();
    for (Mode mode : List.of(Mode.HYBRID, Mode.INPLACE)) {
      List<Step> steps = steps(runs, mode, s.threads.get(0));
      if (!steps.isEmpty()) {
        for (Phase p : Phase.values()) {
          bars.put(mode.label + " " + p.name().toLowerCase(Locale.ROOT),
              spread(steps, st -> st.phases.meanMicros(p)).median() / 1000);
        }
      }
    }
    if (!bars.isEmpty()) {
      Plots.bars(dir.resolve("phases.png"), "Update phases at " + s.threads.get(0)
          + " thread(s)", "ms", bars);
    }
  }

  private static List<Mode> modes(List<Run> runs) {
    return runs.stream().map(r -> r.mode).distinct().collect(Collectors.toList());
  }

  private static List<Step> steps(List<Run> runs, Mode mode, int threads) {
    return runs.stream().filter(r -> r.mode == mode).flatMap(r -> r.steps.stream())
        .filter(st -> st.threads == threads).collect(Collectors.toList());
  }

  private static Spread spread(List<Step> steps, ToDoubleFunction<Step> f) {
    return Spread.of(steps.stream().mapToDouble(f).toArray());
  }
}
