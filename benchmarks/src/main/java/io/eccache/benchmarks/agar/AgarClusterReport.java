package io.eccache.benchmarks.agar;

import io.eccache.benchmarks.agar.AgarClusterBenchmark.RunResult;
import io.eccache.benchmarks.report.CsvWriter;
import io.eccache.benchmarks.report.MarkdownTable;
import io.eccache.benchmarks.report.Plots;
import io.eccache.benchmarks.report.RunStamp;
import io.eccache.benchmarks.report.Spread;
import io.eccache.benchmarks.sim.agar.AgarSweep;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * Writes an {@code eccache-bench agar} run: {@code raw.csv} (one row per run), {@code summary.md}
 * (the default setting with Agar's lead over the best LFU-c and LRU-c per seed, the sweeps beside
 * the paper's leads) and plots of mean latency and hit ratio against the cache size and the skew.
 */
public final class AgarClusterReport {
  /** raw.csv's columns. */
  public static final List<String> CSV_COLUMNS = List.of("sweep", "cache_mb", "capacity_splits",
      "zipf", "seed", "policy", "reads", "mean_ms", "median_ms", "p99_ms", "hit_ratio",
      "full_hit_ratio", "cached_splits_at_end", "splits_removed_on_workers_before",
      "workers_restarted_before", "commit");
  /** The paper's Frankfurt means at its default setting (Fig. 6), ms at full scale. */
  private static final Map<String, Double> PAPER_MEANS = Map.of("Agar", 416.0, "LFU-7", 489.0);

  private AgarClusterReport() {}

  /** Writes the files into {@code dir}; returns the summary's text. */
  public static String write(Path dir, AgarClusterSettings s, List<RunResult> runs,
      RunStamp stamp) throws IOException {
    Files.createDirectories(dir);
    try (CsvWriter csv = new CsvWriter(dir.resolve("raw.csv"),
        CSV_COLUMNS.toArray(new String[0]))) {
      for (RunResult r : runs) {
        csv.row(r.point.sweep, r.point.cacheMb, r.capacitySplits, r.point.skew, r.seed, r.policy,
            r.reads, r.meanMs(), r.medianMs(), r.p99Ms(), r.hitRatio(), r.fullHitRatio(),
            r.cachedSplits, r.splitsRemovedOnWorkers, r.workersRestarted, stamp.commit());
      }
    }
    StringBuilder md = new StringBuilder("# Agar on the cluster: Fig. 8a and 8b on loopback"
        + " regions\n\n");
    md.append(stamp.markdown()).append("\n\n");
    md.append(method(s));
    int removed = 0;
    int runsRemoved = 0;
    int restarts = 0;
    int runsRestarted = 0;
    for (RunResult r : runs) {
      removed += r.splitsRemovedOnWorkers;
      runsRemoved += r.splitsRemovedOnWorkers > 0 ? 1 : 0;
      restarts += r.workersRestarted;
      runsRestarted += r.workersRestarted > 0 ? 1 : 0;
    }
    md.append(String.format(Locale.ROOT, "%nEvery run starts from an empty cache. Freed splits"
        + " stayed cached 10 s after Alluxio's free before %d of %d runs; their workers removed"
        + " %d when asked directly (RemoveBlock), and the workers still holding some were"
        + " restarted empty before %d runs (%d restarts; raw.csv's splits_removed_on_workers_before"
        + " and workers_restarted_before; docs/agar.md).%n", runsRemoved, runs.size(), removed,
        runsRestarted, restarts));
    md.append("\n## The paper's setting: 10 MB of cache, Zipf 1.1\n\n");
    md.append(defaultTable(s, runs));
    md.append("\n## Sweeps: Agar's lead in mean latency over the best other policy\n\n");
    md.append("Each cell: the median over the seeds run at that point, [min–max] when there are"
        + " several. The lead is (best other policy's mean − Agar's mean) / best other's, per"
        + " seed; the paper's is over the next best of its LFU-c and LRU-c.\n\n");
    md.append(sweepTable(runs, "cache", AgarClusterSettings.PAPER_SKEW, true));
    md.append("\n");
    md.append(sweepTable(runs, "skew", AgarClusterSettings.PAPER_CACHE_MB, false));
    plot(dir, runs, true, RunResult::meanMs, "latency-by-cache.png",
        "Mean latency by cache size (Zipf 1.1)", "cache, MB of the paper's 300", "mean ms");
    plot(dir, runs, false, RunResult::meanMs, "latency-by-skew.png",
        "Mean latency by skew (10 MB)", "Zipf skew", "mean ms");
    plot(dir, runs, true, r -> 100 * r.hitRatio(), "hits-by-cache.png",
        "Hit ratio by cache size (Zipf 1.1)", "cache, MB of the paper's 300", "reads with a"
            + " cached split, %");
    md.append("\n![latency by cache size](latency-by-cache.png)\n");
    md.append("![latency by skew](latency-by-skew.png)\n");
    md.append("![hit ratio by cache size](hits-by-cache.png)\n");
    String text = md.toString();
    Files.writeString(dir.resolve("summary.md"), text, StandardCharsets.UTF_8);
    return text;
  }

  private static String method(AgarClusterSettings s) {
    return String.format(Locale.ROOT, "Profile `%s`. %d objects of %d bytes, RS(%d,%d) over Table"
        + " I's six regions (Frankfurt's latencies 80, 200, 600, 1400, 3400, 4600 ms) scaled by"
        + " %s, each region an s3proxy behind its own user-space delay (half the read latency"
        + " each way) on its own loopback address, mounted in Alluxio; two splits per region,"
        + " round robin. %d in-process workers hold the cache. Each policy runs alone, from an"
        + " empty cache, over the same objects and the same Zipf request sequence per seed,"
        + " %d closed-loop clients reading with Δ = 0 (Agar reads k); a period of %d ms (Agar's"
        + " 30 s, scaled): the coordinator reconfigures and maintainers load what it planned;"
        + " %d periods of warm-up, then %d measured reads. A hit is a read with at least one"
        + " split from a worker (the paper's); a full hit reads none from a region. Cache sizes"
        + " are MB of the paper's 300 MB of objects, so %.0f MB is %d splits here.%n%n"
        + "Differences from the paper: latencies scaled by %s and fixed (no WAN variance, no"
        + " bandwidth limit), every region on one machine; %d objects, not 300%s; the cache is"
        + " Alluxio workers loaded by maintainers after each period, not memcached filled by"
        + " the reading client; a cached split still costs an Alluxio read (a few ms here, a"
        + " larger share of a scaled read than of the paper's); LRU-c is applied at each"
        + " period's end, not at every read; every read also looks its layout up in the"
        + " master (how reads are counted).%n", s.profile, s.objects, s.objectBytes, s.k, s.m,
        s.latencyScale, s.workers, s.clients, s.period.toMillis(), s.warmupPeriods,
        s.measuredReads, AgarClusterSettings.PAPER_CACHE_MB,
        s.capacitySplits(AgarClusterSettings.PAPER_CACHE_MB), s.latencyScale, s.objects,
        s.clients == 2 ? "" : ", " + s.clients + " clients, not 2");
  }

  /** Per policy at the default point, and Agar's lead over the best LFU-c and LRU-c per seed. */
  private static String defaultTable(AgarClusterSettings s, List<RunResult> runs) {
    Map<String, List<RunResult>> byPolicy = new LinkedHashMap<>();
    for (RunResult r : runs) {
      if (r.point.sweep.equals("default")) {
        byPolicy.computeIfAbsent(r.policy, p -> new ArrayList<>()).add(r);
      }
    }
    if (byPolicy.isEmpty()) {
      return "Not run.\n";
    }
    MarkdownTable t = new MarkdownTable("policy", "mean ms", "median ms", "p99 ms",
        "hit ratio %", "full hits %", "paper mean ms (x scale)");
    for (Map.Entry<String, List<RunResult>> e : byPolicy.entrySet()) {
      List<RunResult> rs = e.getValue();
      Double paper = PAPER_MEANS.get(e.getKey());
      t.row(e.getKey(), spread(rs, RunResult::meanMs).format("%.1f"),
          spread(rs, RunResult::medianMs).format("%.1f"),
          spread(rs, RunResult::p99Ms).format("%.1f"),
          spread(rs, r -> 100 * r.hitRatio()).format("%.0f"),
          spread(rs, r -> 100 * r.fullHitRatio()).format("%.0f"),
          paper == null ? "" : String.format(Locale.ROOT, "%.0f", paper * s.latencyScale));
    }
    StringBuilder md = new StringBuilder(t.toString());
    md.append("\nAgar's lead in mean latency, per seed, median [min–max]: ");
    md.append(leadOver(runs, "default", "LFU-")).append(" over the best LFU-c, ");
    md.append(leadOver(runs, "default", "LRU-")).append(" over the best LRU-c (paper, from"
        + " Frankfurt: 15% over LFU-7, 41% over LRU-1).\n");
    return md.toString();
  }

  /** Agar's lead over the best policy named {@code prefix}* at the point, per seed. */
  private static String leadOver(List<RunResult> runs, String sweep, String prefix) {
    Map<Long, Double> agar = new TreeMap<>();
    Map<Long, Double> best = new TreeMap<>();
    for (RunResult r : runs) {
      if (!r.point.sweep.equals(sweep)) {
        continue;
      }
      if (r.policy.equals("Agar")) {
        agar.put(r.seed, r.meanMs());
      } else if (r.policy.startsWith(prefix)) {
        best.merge(r.seed, r.meanMs(), Math::min);
      }
    }
    List<Double> leads = new ArrayList<>();
    for (Map.Entry<Long, Double> e : agar.entrySet()) {
      Double b = best.get(e.getKey());
      if (b != null && b > 0) {
        leads.add(100 * (b - e.getValue()) / b);
      }
    }
    return leads.isEmpty() ? "n/a" : Spread.of(leads.stream().mapToDouble(d -> d).toArray())
        .format("%.1f") + "%";
  }

  /** One sweep's points (the default point among them), each with Agar's lead. */
  private static String sweepTable(List<RunResult> runs, String sweep, double fixed,
      boolean byCache) {
    AgarSweep paper = AgarSweep.named(sweep);
    Map<Double, List<RunResult>> byX = new TreeMap<>();
    for (RunResult r : runs) {
      boolean on = byCache ? r.point.skew == fixed : r.point.cacheMb == fixed;
      if (on && (r.point.sweep.equals(sweep) || r.point.sweep.equals("default"))) {
        byX.computeIfAbsent(byCache ? r.point.cacheMb : r.point.skew, x -> new ArrayList<>())
            .add(r);
      }
    }
    MarkdownTable t = new MarkdownTable(paper.figure() + ": " + paper.axis(), "Agar mean ms",
        "best other", "its mean ms", "Agar's lead %", "paper's lead %", "Agar hit %");
    for (Map.Entry<Double, List<RunResult>> e : byX.entrySet()) {
      List<RunResult> rs = e.getValue();
      List<RunResult> agar = new ArrayList<>();
      Map<String, List<RunResult>> others = new TreeMap<>();
      for (RunResult r : rs) {
        if (r.policy.equals("Agar")) {
          agar.add(r);
        } else if (!r.policy.equals("backend")) {
          others.computeIfAbsent(r.policy, p -> new ArrayList<>()).add(r);
        }
      }
      if (agar.isEmpty() || others.isEmpty()) {
        continue;
      }
      String bestName = null;
      double bestMean = Double.MAX_VALUE;
      for (Map.Entry<String, List<RunResult>> o : others.entrySet()) {
        double mean = spread(o.getValue(), RunResult::meanMs).median();
        if (mean < bestMean) {
          bestMean = mean;
          bestName = o.getKey();
        }
      }
      List<Double> leads = new ArrayList<>();
      for (RunResult a : agar) {
        double best = Double.MAX_VALUE;
        for (List<RunResult> o : others.values()) {
          for (RunResult r : o) {
            if (r.seed == a.seed) {
              best = Math.min(best, r.meanMs());
            }
          }
        }
        if (best < Double.MAX_VALUE) {
          leads.add(100 * (best - a.meanMs()) / best);
        }
      }
      int at = paper.values().indexOf(e.getKey());
      t.row(String.format(Locale.ROOT, "%.1f", e.getKey()),
          spread(agar, RunResult::meanMs).format("%.1f"), bestName,
          String.format(Locale.ROOT, "%.1f", bestMean),
          Spread.of(leads.stream().mapToDouble(d -> d).toArray()).format("%.1f"),
          at < 0 ? "" : String.format(Locale.ROOT, "%.1f", paper.paperLeadPercent().get(at)),
          spread(agar, r -> 100 * r.hitRatio()).format("%.0f"));
    }
    return t.toString();
  }

  private static void plot(Path dir, List<RunResult> runs, boolean byCache,
      ToDoubleFunction<RunResult> metric, String file, String title, String xLabel,
      String yLabel) throws IOException {
    Map<String, Map<Double, List<Double>>> series = new TreeMap<>();
    for (RunResult r : runs) {
      boolean on = byCache ? r.point.skew == AgarClusterSettings.PAPER_SKEW
          : r.point.cacheMb == AgarClusterSettings.PAPER_CACHE_MB;
      if (on) {
        series.computeIfAbsent(r.policy, p -> new TreeMap<>())
            .computeIfAbsent(byCache ? r.point.cacheMb : r.point.skew, x -> new ArrayList<>())
            .add(metric.applyAsDouble(r));
      }
    }
    Map<String, double[][]> lines = new LinkedHashMap<>();
    for (Map.Entry<String, Map<Double, List<Double>>> e : series.entrySet()) {
      if (e.getValue().size() < 2) {
        continue; // a policy run at one point only draws no line
      }
      TreeSet<Double> xs = new TreeSet<>(e.getValue().keySet());
      double[][] v = new double[4][xs.size()];
      int i = 0;
      for (double x : xs) {
        Spread sp = Spread.of(e.getValue().get(x).stream().mapToDouble(d -> d).toArray());
        v[0][i] = x;
        v[1][i] = sp.median();
        v[2][i] = sp.min();
        v[3][i] = sp.max();
        i++;
      }
      lines.put(e.getKey(), v);
    }
    if (!lines.isEmpty()) {
      Plots.linesWithRange(dir.resolve(file), title, xLabel, yLabel, lines);
    }
  }

  private static Spread spread(List<RunResult> rs, ToDoubleFunction<RunResult> f) {
    return Spread.of(rs.stream().mapToDouble(f).toArray());
  }
}
