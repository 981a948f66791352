package io.eccache.benchmarks.sim.agar;

import io.eccache.benchmarks.report.CsvWriter;
import io.eccache.benchmarks.report.MarkdownTable;
import io.eccache.benchmarks.report.Plots;
import io.eccache.benchmarks.report.RunStamp;
import io.eccache.benchmarks.report.Spread;
import io.eccache.benchmarks.sim.SimReport;
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
 * Writes the Agar simulation's sweeps into one directory: {@code raw.csv} (one row per sweep point, seed and
 * policy), {@code summary.md} (stamped; the default setting as Fig. 6 and 7, and per sweep Agar's lead over
 * the best LFU-c, the best LRU-c and the next best policy beside the paper's lead, every cell the median over
 * the seeds with the min-max; then every policy's numbers) and PNG plots (mean latency per policy against
 * the swept value, the lead with its range, and at the default setting the mean latency and hit ratio per
 * policy and the latency CDF of the first seed).
 */
public final class AgarSimReport {
  /** The columns of {@code raw.csv}. */
  public static final List<String> CSV_COLUMNS = List.of("sweep", "x", "cache_chunks", "zipf", "policy",
      "seed", "requests", "mean_ms", "median_ms", "p99_ms", "max_ms", "hit_pct", "full_hit_pct",
      "chunk_hit_pct", "simulated_s", "ticks", "objects", "clients", "warmup_periods", "period_s",
      "jitter_sigma", "cache_ms", "fill");

  /** The paper's Frankfurt numbers at the default setting (Fig. 6), mean ms. */
  private static final Map<String, Double> PAPER_DEFAULT_MEANS = Map.of("Agar", 416.0, "LFU-7", 489.0);

  private AgarSimReport() {}

  /**
   * Writes the files.
   *
   * @param dir the directory, created if missing
   * @param base the settings every point shares (the sweeps change the cache or the skew)
   * @param results per sweep what {@link AgarSweep#run} returned
   * @param stamp commit and command line
   * @param settings the command's settings, printed under the stamp
   * @return the summary's Markdown
   * @throws IOException if a file cannot be written
   */
  public static String write(Path dir, AgarSimConfig base,
      Map<AgarSweep, Map<Double, List<Map<String, AgarRunResult>>>> results, RunStamp stamp,
      Map<String, String> settings) throws IOException {
    if (results.isEmpty()) {
      throw new IllegalArgumentException("no sweep to report");
    }
    for (Map<Double, List<Map<String, AgarRunResult>>> sweep : results.values()) {
      if (sweep.isEmpty() || !sweep.values().iterator().next().get(0).containsKey("Agar")) {
        throw new IllegalArgumentException("every sweep needs points with Agar among the policies: the"
            + " report compares the others with it");
      }
    }
    Files.createDirectories(dir);
    writeCsv(dir.resolve("raw.csv"), results);
    StringBuilder md = new StringBuilder("# Agar (simulated): Fig. 6, 7, 8a and 8b at the paper's scale\n\n");
    md.append(SimReport.stampLines(stamp, settings)).append('\n');
    int seeds = results.values().iterator().next().values().iterator().next().size();
    md.append(setup(base, seeds)).append('\n');
    List<Map<String, AgarRunResult>> defaults = defaultPoint(results);
    if (defaults != null) {
      md.append(defaultSection(dir, defaults)).append('\n');
    }
    for (Map.Entry<AgarSweep, Map<Double, List<Map<String, AgarRunResult>>>> e : results.entrySet()) {
      md.append(sweepSection(dir, e.getKey(), e.getValue())).append('\n');
    }
    String summary = md.toString();
    Files.write(dir.resolve("summary.md"), summary.getBytes(StandardCharsets.UTF_8));
    return summary;
  }

  private static void writeCsv(Path csv, Map<AgarSweep, Map<Double, List<Map<String, AgarRunResult>>>> results)
      throws IOException {
    try (CsvWriter raw = new CsvWriter(csv, CSV_COLUMNS.toArray(new String[0]))) {
      for (Map.Entry<AgarSweep, Map<Double, List<Map<String, AgarRunResult>>>> sweep : results.entrySet()) {
        for (Map.Entry<Double, List<Map<String, AgarRunResult>>> point : sweep.getValue().entrySet()) {
          for (Map<String, AgarRunResult> byPolicy : point.getValue()) {
            for (AgarRunResult r : byPolicy.values()) {
              AgarSimConfig c = r.config();
              raw.row(sweep.getKey().name(), point.getKey(), c.capacityChunks(), c.skew(), r.policy().name(),
                  c.seed(), r.requests(), r.meanMillis(), r.medianMillis(), r.p99Millis(), r.maxMillis(),
                  r.hitPercent(), r.fullHitPercent(), r.chunkHitPercent(), r.simulatedSeconds(), r.ticks(),
                  c.objects(), c.clients(), c.warmupPeriods(), c.period().toSeconds(), c.jitterSigma(),
                  c.layout().cacheLatency().toNanos() / 1e6, c.fillAtTick() ? "tick" : "reader");
            }
          }
        }
      }
    }
  }

  private static String setup(AgarSimConfig base, int seeds) {
    return String.format(Locale.ROOT, "Setup: %d objects of 1 MB, RS(%d,%d) round robin over Table I's six"
            + " regions (from Frankfurt: %s), chunks of 1/%d MB, a cache read of %s ms, %d closed-loop clients"
            + " in Frankfurt, %d measured reads per run after %d warm-up periods of %d s, the policies"
            + " reconfigured every period (Agar: EWMA alpha 0.8 and POPULATE; LFU-c: the same EWMA; LRU-c: on"
            + " every read), jitter sigma %.2f. Every cell is the median over %d seeds (%d to %d)%s; the"
            + " default setting is 10 MB and Zipf 1.1 (the paper's).\n\n"
            + "Differences from the paper: simulated time; every chunk read takes Table I's fixed latency"
            + " (%s), no bandwidth limit, no contention between reads and no decoding cost; the cache read"
            + " costs %s ms (the paper gives none); %s and a dropped one is gone at once;"
            + " the paper's 5 runs of 1,000 reads are our seeds; the paper does not say how long it warmed up;"
            + " the paper's lead is over the next best policy, whichever it is; ours is given over the best"
            + " LFU-c, the best LRU-c (each chosen per seed) and over both.\n",
        base.objects(), base.layout().k(), base.layout().m(), regions(base), base.layout().k(),
        millis(base), base.clients(), base.measuredRequests(), base.warmupPeriods(),
        base.period().toSeconds(), base.jitterSigma(), seeds, base.seed(), base.seed() + seeds - 1,
        seeds > 1 ? " with the min-max in square brackets" : "",
        base.jitterSigma() > 0 ? "multiplied by a mean-1 lognormal factor per chunk read" : "no jitter",
        millis(base), base.fillAtTick() ? "**filled at each reconfiguration**: Agar's and LFU's configured"
            + " chunks are all in the cache at once (an idealised prefetch, not the paper's)"
            : "a configured chunk is in the cache only once a reader has written it (the paper's client"
            + " writes after reading)");
  }

  private static String regions(AgarSimConfig base) {
    List<String> parts = new ArrayList<>();
    base.layout().regions().forEach(r -> parts.add(r.name() + " " + r.readLatency().toMillis() + " ms"));
    return String.join(", ", parts);
  }

  private static String millis(AgarSimConfig base) {
    return String.format(Locale.ROOT, "%s", base.layout().cacheLatency().toNanos() / 1e6);
  }

  /** The point at 10 MB and Zipf 1.1 in any sweep, or null. */
  private static List<Map<String, AgarRunResult>> defaultPoint(
      Map<AgarSweep, Map<Double, List<Map<String, AgarRunResult>>>> results) {
    for (Map<Double, List<Map<String, AgarRunResult>>> sweep : results.values()) {
      for (List<Map<String, AgarRunResult>> point : sweep.values()) {
        AgarSimConfig c = point.get(0).values().iterator().next().config();
        if (c.capacityChunks() == AgarSimConfig.PAPER_CACHE_MB * c.layout().k()
            && c.skew() == AgarSimConfig.PAPER_SKEW) {
          return point;
        }
      }
    }
    return null;
  }

  private static String defaultSection(Path dir, List<Map<String, AgarRunResult>> bySeed) throws IOException {
    StringBuilder md = new StringBuilder("## The default setting (Fig. 6 and 7: Frankfurt, 10 MB, Zipf 1.1)\n\n");
    MarkdownTable t = new MarkdownTable("policy", "mean ms", "paper mean ms", "median ms", "p99 ms",
        "hit % (partial + full)", "full hit %", "chunks from cache %");
    Map<String, Double> means = new LinkedHashMap<>();
    Map<String, Double> hitRatios = new LinkedHashMap<>();
    for (String policy : bySeed.get(0).keySet()) {
      List<AgarRunResult> rs = across(bySeed, policy);
      t.row(policy, spread(rs, AgarRunResult::meanMillis).format("%.0f"),
          PAPER_DEFAULT_MEANS.containsKey(policy) ? String.format(Locale.ROOT, "%.0f",
              PAPER_DEFAULT_MEANS.get(policy)) : "",
          spread(rs, AgarRunResult::medianMillis).format("%.0f"),
          spread(rs, AgarRunResult::p99Millis).format("%.0f"),
          spread(rs, AgarRunResult::hitPercent).format("%.1f"),
          spread(rs, AgarRunResult::fullHitPercent).format("%.1f"),
          spread(rs, AgarRunResult::chunkHitPercent).format("%.1f"));
      means.put(policy, spread(rs, AgarRunResult::meanMillis).median());
      hitRatios.put(policy, spread(rs, AgarRunResult::hitPercent).median());
    }
    md.append(t).append('\n');
    Leads leads = leads(bySeed);
    md.append(String.format(Locale.ROOT, "Agar's lead in mean latency: over the best LFU-c (%s) %s%%, over the"
            + " best LRU-c (%s) %s%%, over the next best %s%%; over LRU-1 %s%%. Paper: 15%% over LFU-7 (416"
            + " vs 489 ms), 41%% over LRU-1.%n", leads.bestLfu, f(leads.overLfu), leads.bestLru,
        f(leads.overLru), f(leads.overBest),
        bySeed.get(0).containsKey("LRU-1") ? Spread.of(bySeed.stream().mapToDouble(m -> lead(
            m.get("Agar").meanMillis(), m.get("LRU-1").meanMillis())).toArray()).format("%.1f") : "-"));
    String note = " (simulated, median over " + bySeed.size() + " seeds)";
    Plots.bars(dir.resolve("default-latency.png"), "Mean read latency, 10 MB, Zipf 1.1" + note, "mean ms",
        means);
    Plots.bars(dir.resolve("default-hits.png"), "Hit ratio (partial + full), 10 MB, Zipf 1.1" + note,
        "hit %", hitRatios);
    Map<String, Histogram> cdfs = new LinkedHashMap<>();
    for (String policy : List.of("Agar", leads.bestLfu, leads.bestLru, "backend")) {
      if (bySeed.get(0).containsKey(policy)) {
        cdfs.put(policy, bySeed.get(0).get(policy).histogramMicros());
      }
    }
    Plots.latencyCdf(dir.resolve("default-latency-cdf.png"), "Read latency CDF, 10 MB, Zipf 1.1 (simulated,"
        + " seed " + bySeed.get(0).get("Agar").config().seed() + ")", cdfs);
    return md.toString();
  }

  private static String sweepSection(Path dir, AgarSweep sweep,
      Map<Double, List<Map<String, AgarRunResult>>> points) throws IOException {
    StringBuilder md = new StringBuilder("## " + sweep.figure() + ": " + sweep.axis() + "\n\n");
    MarkdownTable lead = new MarkdownTable(sweep.axis(), "Agar mean ms", "best LFU-c", "its mean ms",
        "best LRU-c", "its mean ms", "lead over LFU %", "lead over LRU %", "lead over next best %",
        "paper lead %");
    MarkdownTable all = new MarkdownTable(sweep.axis(), "policy", "mean ms", "median ms", "p99 ms", "hit %",
        "full hit %");
    Map<String, double[][]> meanLines = new LinkedHashMap<>();
    Map<String, List<double[]>> leadLines = new LinkedHashMap<>();
    int i = 0;
    for (Map.Entry<Double, List<Map<String, AgarRunResult>>> point : points.entrySet()) {
      double x = point.getKey();
      List<Map<String, AgarRunResult>> bySeed = point.getValue();
      int at = sweep.values().indexOf(x);
      Double paper = at >= 0 ? sweep.paperLeadPercent().get(at) : null;
      Leads l = leads(bySeed);
      lead.row(sweep.label(x), spread(across(bySeed, "Agar"), AgarRunResult::meanMillis).format("%.0f"),
          l.bestLfu, l.bestLfu.equals("-") ? "-" : spread(across(bySeed, l.bestLfu), AgarRunResult::meanMillis)
              .format("%.0f"),
          l.bestLru, l.bestLru.equals("-") ? "-" : spread(across(bySeed, l.bestLru), AgarRunResult::meanMillis)
              .format("%.0f"),
          f(l.overLfu), f(l.overLru), f(l.overBest),
          paper == null ? "" : String.format(Locale.ROOT, "%.1f", paper));
      addPoint(leadLines, "over the best LFU-c", x, l.overLfu);
      addPoint(leadLines, "over the best LRU-c", x, l.overLru);
      addPoint(leadLines, "over the next best", x, l.overBest);
      if (paper != null) {
        addPoint(leadLines, "paper (over the next best)", x, Spread.of(paper));
      }
      for (String policy : bySeed.get(0).keySet()) {
        List<AgarRunResult> rs = across(bySeed, policy);
        all.row(sweep.label(x), policy, spread(rs, AgarRunResult::meanMillis).format("%.0f"),
            spread(rs, AgarRunResult::medianMillis).format("%.0f"),
            spread(rs, AgarRunResult::p99Millis).format("%.0f"),
            spread(rs, AgarRunResult::hitPercent).format("%.1f"),
            spread(rs, AgarRunResult::fullHitPercent).format("%.1f"));
        double[][] line = meanLines.computeIfAbsent(policy, p -> new double[2][points.size()]);
        line[0][i] = x;
        line[1][i] = spread(rs, AgarRunResult::meanMillis).median();
      }
      i++;
    }
    md.append("Agar's lead in mean latency: (best alternative's mean − Agar's) / best alternative's mean,"
        + " per seed.\n\n").append(lead).append('\n').append("<details><summary>Every policy</summary>\n\n")
        .append(all).append("\n</details>\n");
    int seeds = points.values().iterator().next().size();
    String note = " (simulated, median over " + seeds + " seeds)";
    Plots.lines(dir.resolve(sweep.name() + "-latency.png"), sweep.figure() + ": mean read latency" + note,
        sweep.axis(), "mean ms", meanLines);
    Plots.linesWithRange(dir.resolve(sweep.name() + "-lead.png"), sweep.figure() + ": Agar's lead" + note
        + ", min-max dashed", sweep.axis(), "lead %", SimReport.series(leadLines));
    return md.toString();
  }

  /** Agar's lead per seed over the best LFU-c, the best LRU-c and the best of all others. */
  private static Leads leads(List<Map<String, AgarRunResult>> bySeed) {
    double[] overLfu = new double[bySeed.size()];
    double[] overLru = new double[bySeed.size()];
    double[] overBest = new double[bySeed.size()];
    Map<String, Integer> lfuWins = new LinkedHashMap<>();
    Map<String, Integer> lruWins = new LinkedHashMap<>();
    for (int s = 0; s < bySeed.size(); s++) {
      Map<String, AgarRunResult> m = bySeed.get(s);
      double agar = m.get("Agar").meanMillis();
      String lfu = best(m, "LFU-");
      String lru = best(m, "LRU-");
      overLfu[s] = lfu == null ? Double.NaN : lead(agar, m.get(lfu).meanMillis());
      overLru[s] = lru == null ? Double.NaN : lead(agar, m.get(lru).meanMillis());
      String other = best(m, "");
      overBest[s] = other == null ? Double.NaN : lead(agar, m.get(other).meanMillis());
      if (lfu != null) {
        lfuWins.merge(lfu, 1, Integer::sum);
      }
      if (lru != null) {
        lruWins.merge(lru, 1, Integer::sum);
      }
    }
    return new Leads(mostFrequent(lfuWins), mostFrequent(lruWins), spreadOrNone(overLfu),
        spreadOrNone(overLru), spreadOrNone(overBest));
  }

  /** The non-Agar policy whose name starts with the prefix and has the lowest mean, or null. */
  private static String best(Map<String, AgarRunResult> byPolicy, String prefix) {
    String best = null;
    for (Map.Entry<String, AgarRunResult> e : byPolicy.entrySet()) {
      if (!e.getKey().equals("Agar") && e.getKey().startsWith(prefix)
          && (best == null || e.getValue().meanMillis() < byPolicy.get(best).meanMillis())) {
        best = e.getKey();
      }
    }
    return best;
  }

  private static String mostFrequent(Map<String, Integer> wins) {
    return wins.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse("-");
  }

  /** @return (other − agar) / other in %; 0 when both are 0 */
  static double lead(double agar, double other) {
    return other == 0 ? 0 : 100.0 * (other - agar) / other;
  }

  /** A lead for a table: "-" when a policy it is over was not run. */
  private static String f(Spread s) {
    return s == null ? "-" : s.format("%.1f");
  }

  private static Spread spreadOrNone(double[] values) {
    for (double v : values) {
      if (Double.isNaN(v)) {
        return null;
      }
    }
    return Spread.of(values);
  }

  private static List<AgarRunResult> across(List<Map<String, AgarRunResult>> bySeed, String policy) {
    List<AgarRunResult> rs = new ArrayList<>();
    bySeed.forEach(m -> rs.add(m.get(policy)));
    return rs;
  }

  private static Spread spread(List<AgarRunResult> rs, ToDoubleFunction<AgarRunResult> f) {
    return Spread.of(rs.stream().mapToDouble(f).toArray());
  }

  private static void addPoint(Map<String, List<double[]>> lines, String name, double x, Spread s) {
    if (s != null) {
      lines.computeIfAbsent(name, n -> new ArrayList<>()).add(new double[] {x, s.median(), s.min(), s.max()});
    }
  }

  /** Agar's leads at one point and the baselines they are over. */
  private static final class Leads {
    final String bestLfu;
    final String bestLru;
    final Spread overLfu;
    final Spread overLru;
    final Spread overBest;

    Leads(String bestLfu, String bestLru, Spread overLfu, Spread overLru, Spread overBest) {
      this.bestLfu = bestLfu;
      this.bestLru = bestLru;
      this.overLfu = overLfu;
      this.overLru = overLru;
      this.overBest = overBest;
    }
  }
}
