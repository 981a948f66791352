package io.eccache.benchmarks.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.eccache.benchmarks.ComparedScheme;
import io.eccache.benchmarks.report.ByteAgreement;
import io.eccache.benchmarks.report.CsvWriter;
import io.eccache.benchmarks.report.LatencySummary;
import io.eccache.benchmarks.report.LoadImbalance;
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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * Writes one scenario's results into its directory: {@code raw.csv} (one row per run, repeat and
 * scheme), {@code workers.csv} (bytes per worker from the client and from the kernel's tc
 * counters), {@code units.csv} (each object's units during the phase, which the simulator's
 * validation pins), {@code summary.md} and {@code summary.json} (the paper's numbers beside ours, each
 * number the median over the repeats with its range, stamped with commit, command and settings,
 * and flags for anything that makes a run doubtful) and PNG plots.
 */
public final class BenchReport {

  private BenchReport() {}

  /** One measured scheme of one repeat, reduced to the numbers the tables show. */
  static final class Numbers {
    final LatencySummary latency;
    /** λ over the bytes the links carried (kernel counters), else over the bytes read. */
    final double lambda;
    /** λ over the bytes the client read. */
    final double lambdaRead;
    final double eta;
    final double extraPercent;
    /** Extra bytes the links carried: those read, plus the unread rest of stopped reads. */
    final double extraSentPercent;
    final double decodeShare;
    final long served;

    Numbers(ClusterBenchmark.SchemeResult r, int workers) {
      latency = LatencySummary.of(r.latencyMicros);
      // S3 fallbacks' bytes were sent by some worker too, though the client cannot say which.
      served = r.bytesByWorker.values().stream().mapToLong(Long::longValue).sum()
          + r.fallbackBytes;
      // Over the bytes each worker's link carried (the kernel's counters) when the run has them:
      // what loads a link is what it sends, a cancelled read's queued bytes included; else over
      // the bytes the client read.
      lambda = LoadImbalance.lambdaPercent(r.sentByWorker.isEmpty() ? r.bytesByWorker
          : r.sentByWorker, workers, Math.max(1, r.usefulBytes));
      lambdaRead = LoadImbalance.lambdaPercent(r.bytesByWorker, workers,
          Math.max(1, r.usefulBytes));
      eta = LoadImbalance.etaPercent(r.bytesByWorker, workers);
      extraPercent = LoadImbalance.bandwidthOverheadPercent(served, Math.max(1, r.usefulBytes));
      extraSentPercent = LoadImbalance.bandwidthOverheadPercent(served
          + r.unreadByWorker.values().stream().mapToLong(Long::longValue).sum(),
          Math.max(1, r.usefulBytes));
      double readMs = latency.meanMillis() * latency.count();
      decodeShare = readMs == 0 ? 0 : r.decodeNanos / 1e6 / readMs * 100;
    }
  }

  /**
   * What makes a run doubtful, one line each: a kernel/client byte ratio above
   * {@link ByteAgreement#FLAG_ABOVE} on a worker, redundancy that changed during the measured
   * phase or had not reached its target, a hottest object holding fewer units than another.
   */
  static List<String> flags(ClusterBenchmark.Outcome o) {
    List<String> flags = notAsPinned(o);
    if (bytesDisagree(o)) {
      flags.add(String.format(Locale.ROOT, "kernel/client bytes above %.2fx on: %s (more"
          + " than the %.1f MiB of S3 fallback reads through workers explain)",
          ByteAgreement.FLAG_ABOVE, ByteAgreement.flaggedWorkers(clientTotal(o),
              o.shaperBytesByWorker), fallbackBytes(o) / 1048576.0));
    }
    for (ClusterBenchmark.SchemeResult r : o.schemes.values()) {
      if (!r.hottestHoldsMost && r.scheme.tuned() && r.scheme != ComparedScheme.SP
          && o.settings.tuned && o.settings.hotReplicaFraction == 0) {
        flags.add(r.scheme.label() + ": the hottest object holds fewer units than another");
      }
    }
    return flags;
  }

  /**
   * Why a run cannot be published as a comparison: some scheme did not measure the redundancy it
   * claims. Its objects were short of their target when measuring began (SP-Cache's pinning ending
   * at 1 unit of a target 2, say), a phase began before the last phase's killed worker's units
   * were back, or its redundancy changed during the phase other than by the kill. Empty when every
   * scheme was measured as pinned; {@link Repeats} runs such a repeat again with a new seed.
   */
  public static List<String> notAsPinned(ClusterBenchmark.Outcome o) {
    List<String> flags = new ArrayList<>();
    for (ClusterBenchmark.SchemeResult r : o.schemes.values()) {
      if (r.unsettled > 0) {
        flags.add(r.scheme.label() + ": " + r.unsettled + " objects not at their target"
            + " redundancy when measuring began");
      }
    }
    if (o.phasesNotWhole > 0) {
      flags.add(o.phasesNotWhole + " phase(s) began with objects not whole after the last"
          + " phase's kill");
    }
    changedDuringPhase(o, flags);
    return flags;
  }

  /**
   * A scheme whose redundancy changed during its phase: flagged, except units a SIGKILLed worker
   * took with it (the failure scenario's point, the same for every scheme).
   */
  private static void changedDuringPhase(ClusterBenchmark.Outcome o, List<String> flags) {
    for (ClusterBenchmark.SchemeResult r : o.schemes.values()) {
      boolean changed = r.unitsAdded > 0 || r.unitsDropped > 0
          || Math.abs(r.memoryAfter - r.memory) > 1e-9;
      boolean onlyTheKill = !o.killed.isEmpty() && r.unitsAdded == 0;
      if (changed && !onlyTheKill) {
        flags.add(String.format(Locale.ROOT, "%s redundancy changed during the phase: memory"
            + " %.3fx before, %.3fx after; %d units dropped, %d added; %d objects rewritten",
            r.scheme.label(), r.memory, r.memoryAfter, r.unitsDropped, r.unitsAdded,
            r.rewritten) + (r.changed.isEmpty() ? "" : " (" + String.join(", ",
                r.changed.subList(0, Math.min(5, r.changed.size())))
                + (r.changed.size() > 5 ? ", ..." : "") + ")"));
      }
    }
  }

  /**
   * Whether the kernel counted more than {@link ByteAgreement#FLAG_ABOVE} x the clients' bytes on
   * some worker and the S3 fallbacks' bytes (sent by workers the clients cannot name) do not
   * account for the excess.
   */
  static boolean bytesDisagree(ClusterBenchmark.Outcome o) {
    if (!o.shaped) {
      return false;
    }
    Map<String, Long> client = clientTotal(o);
    return !ByteAgreement.flaggedWorkers(client, o.shaperBytesByWorker).isEmpty()
        && ByteAgreement.unexplainedBytes(client, o.shaperBytesByWorker, fallbackBytes(o)) > 0;
  }

  /** Bytes the clients read from S3 through workers they cannot name, all schemes together. */
  static long fallbackBytes(ClusterBenchmark.Outcome o) {
    return o.schemes.values().stream().mapToLong(r -> r.fallbackBytes).sum();
  }

  /**
   * Bytes per worker the clients account for, all schemes together: those they read, and the unread
   * rest of reads late binding stopped part-way (which Alluxio's block stream had sent ahead).
   */
  static Map<String, Long> clientTotal(ClusterBenchmark.Outcome o) {
    Map<String, Long> total = new TreeMap<>();
    for (ClusterBenchmark.SchemeResult r : o.schemes.values()) {
      r.bytesByWorker.forEach((w, b) -> total.merge(w, b, Long::sum));
      r.unreadByWorker.forEach((w, b) -> total.merge(w, b, Long::sum));
    }
    return total;
  }

  /** The method in one sentence, for the summary's head. */
  static String method(BenchSettings s, boolean pinned, int repeats) {
    String loop = s.arrivalsPerSecond > 0
        ? String.format(Locale.ROOT, "Poisson arrivals at %.2f/s", s.arrivalsPerSecond)
        : s.clients + " closed-loop clients";
    String mode = s.mode == BenchSettings.MeasureMode.ALONE
        ? "each scheme measured **alone** (its own " + loop + ", one scheme at a time, same"
            + " placement and request sequence)"
        : "**INTERLEAVED**: every request read from every scheme in one loop (" + loop + "; this"
            + " favours EC-Cache, see issue 14)";
    String allocation = !pinned ? "redundancy re-tuned by the coordinator throughout (not pinned:"
        + " a running cluster)"
        : "redundancy allocated from " + (s.allocation == BenchSettings.AllocationSource.LEARNED
            ? "the learning pass's counts" : "the workload's Zipf probabilities")
            + " and pinned for the measured phase";
    return "Method: " + mode + "; " + allocation + "; every number is the median over " + repeats
        + (repeats == 1 ? " run" : " runs (seeds " + s.seed + ".." + (s.seed + repeats - 1)
            + ", each its own data, placement and sequence) with [min–max]") + ".";
  }

  /**
   * Writes the files and returns the summary's Markdown.
   *
   * @param outcomes per run label, its repeats (at least one each)
   */
  public static String write(Path dir, Scenario scenario,
      Map<String, List<ClusterBenchmark.Outcome>> outcomes, int workers, String network,
      RunStamp stamp) throws IOException {
    Files.createDirectories(dir);
    String first = scenario.sweep.isEmpty() ? "run" : scenario.sweep;
    MarkdownTable table = new MarkdownTable(first, "scheme", "memory", "mean ms", "median ms",
        "p99 ms", "p99.9 ms", "λ %", "λ read %", "η %", "extra bytes read %",
        "extra bytes sent %", "decode % of read");
    MarkdownTable ratios = new MarkdownTable(first, "SR/EC mean", "SR/EC median", "SR/EC p99",
        "SR/EC p99.9", "λ SR", "λ EC", "CPU %", "tc/client bytes");
    MarkdownTable writes = new MarkdownTable(first, "scheme", "PUT mean ms", "PUT median ms",
        "PUT p99 ms", "encode % of PUT");
    MarkdownTable redundancy = new MarkdownTable(first, "repeat", "scheme", "memory before",
        "memory after", "units dropped", "units added", "rewritten", "not at target",
        "hottest (object share, units)");
    Map<String, double[][]> putMedians = new LinkedHashMap<>();
    Map<String, double[][]> medianRatio = new LinkedHashMap<>();
    Map<String, double[][]> lambdaByScheme = new LinkedHashMap<>();
    Map<String, double[][]> ecLatency = new LinkedHashMap<>();
    List<String> flagLines = new ArrayList<>();
    List<String> rerunLines = new ArrayList<>();
    StringBuilder metrics = new StringBuilder();
    Set<String> settingLines = new LinkedHashSet<>();
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("scenario", scenario.name);
    json.put("stamp", stamp.toMap());
    json.put("network", network);
    json.put("workers", workers);
    Map<String, Object> jsonRuns = new LinkedHashMap<>();
    int points = outcomes.size();
    int point = 0;
    int repeats = 0;
    boolean pinned = true;
    try (CsvWriter raw = new CsvWriter(dir.resolve("raw.csv"), "run", "repeat", "seed", "mode",
        "scheme", "requests", "memory", "memory_after", "mean_ms", "median_ms", "p99_ms",
        "p999_ms", "lambda_pct", "lambda_read_pct", "eta_pct", "useful_bytes", "served_bytes", "decodes",
        "decode_ms", "fallbacks", "fallback_bytes", "unread_bytes", "units_dropped", "units_added", "rewritten", "seconds",
        "cpu_share",
        "tc_client_ratio", "flagged", "network", "commit");
        CsvWriter perWorker = new CsvWriter(dir.resolve("workers.csv"), "run", "repeat",
            "worker", "scheme", "client_bytes", "client_unread_bytes", "tc_bytes_all_schemes");
        // What the simulator's validation pins: each object's units during each repeat's phase.
        CsvWriter units = new CsvWriter(dir.resolve("units.csv"), "run", "repeat", "seed",
            "scheme", "object", "units")) {
      for (Map.Entry<String, List<ClusterBenchmark.Outcome>> e : outcomes.entrySet()) {
        String label = e.getKey();
        List<ClusterBenchmark.Outcome> reps = e.getValue();
        repeats = Math.max(repeats, reps.size());
        double x = parseOr(label, point);
        Map<ComparedScheme, List<Numbers>> byScheme = new LinkedHashMap<>();
        Map<ComparedScheme, List<ClusterBenchmark.SchemeResult>> results = new LinkedHashMap<>();
        List<double[]> srOverEc = new ArrayList<>(); // mean, median, p99, p99.9, λ SR, λ EC
        List<Double> cpu = new ArrayList<>();
        List<Double> agreement = new ArrayList<>();
        boolean bytesFlagged = false;
        List<String> runFlags = new ArrayList<>();
        long splits = 0;
        long stopped = 0;
        long failed = 0;
        long discarded = 0;
        for (int rep = 0; rep < reps.size(); rep++) {
          ClusterBenchmark.Outcome o = reps.get(rep);
          pinned &= o.pinned;
          settingLines.add("- " + label + ": " + o.settings.describe() + ", ioThreads="
              + o.ioThreads + ", pinned=" + o.pinned + (o.stragglers.isEmpty() ? ""
              : ", stragglers=" + o.stragglers.keySet()) + (o.killed.isEmpty() ? ""
              : ", SIGKILLed " + o.killed + " at request " + o.killedAtRequest + " of each phase")
              + (o.slowServers.isEmpty() ? "" : ", slow servers=" + o.slowServers));
          double ratio = ByteAgreement.worstRatio(clientTotal(o), o.shaperBytesByWorker);
          List<String> f = flags(o);
          for (String line : f) {
            runFlags.add(label + ", repeat " + (rep + 1) + ": " + line);
          }
          for (String line : o.replaced) {
            rerunLines.add(label + ", repeat " + (rep + 1) + " replaced " + line);
          }
          splits += o.splitsRead;
          stopped += o.readsStoppedEarly;
          failed += o.readsFailed;
          discarded += o.readsDiscarded;
          cpu.add(o.cpuShare * 100);
          if (o.shaped) {
            agreement.add(ratio);
            bytesFlagged |= bytesDisagree(o);
          }
          Map<ComparedScheme, Numbers> numbers = new LinkedHashMap<>();
          for (ClusterBenchmark.SchemeResult r : o.schemes.values()) {
            Numbers n = new Numbers(r, workers);
            numbers.put(r.scheme, n);
            byScheme.computeIfAbsent(r.scheme, k -> new ArrayList<>()).add(n);
            results.computeIfAbsent(r.scheme, k -> new ArrayList<>()).add(r);
            LatencySummary l = n.latency;
            raw.row(label, rep + 1, o.settings.seed,
                o.settings.mode.name().toLowerCase(Locale.ROOT), r.scheme.label(), l.count(),
                r.memory, r.memoryAfter, l.meanMillis(), l.medianMillis(), l.p99Millis(),
                l.p999Millis(), n.lambda, n.lambdaRead, n.eta, r.usefulBytes, n.served, r.decodes,
                r.decodeNanos / 1e6, r.fallbacks, r.fallbackBytes,
                r.unreadByWorker.values().stream().mapToLong(Long::longValue).sum(), r.unitsDropped, r.unitsAdded, r.rewritten,
                o.seconds, o.cpuShare, o.shaped ? ratio : null, !f.isEmpty(), network,
                stamp.commit());
            for (int object = 0; object < r.unitsByObject.length; object++) {
              units.row(label, rep + 1, o.settings.seed, r.scheme.label(), object,
                  r.unitsByObject[object]);
            }
            for (Map.Entry<String, Long> w : r.bytesByWorker.entrySet()) {
              perWorker.row(label, rep + 1, w.getKey(), r.scheme.label(), w.getValue(),
                  r.unreadByWorker.getOrDefault(w.getKey(), 0L),
                  o.shaperBytesByWorker.getOrDefault(w.getKey(), 0L));
            }
            redundancy.row(label, rep + 1, r.scheme.displayName(),
                String.format(Locale.ROOT, "%.3fx", r.memory),
                String.format(Locale.ROOT, "%.3fx", r.memoryAfter), r.unitsDropped, r.unitsAdded,
                r.rewritten, r.unsettled, String.join("; ", r.hottest.subList(0, Math.min(3,
                    r.hottest.size()))));
          }
          Numbers ec = numbers.get(ComparedScheme.EC);
          Numbers sr = numbers.get(ComparedScheme.SR);
          if (ec != null && sr != null) {
            LatencySummary.Ratios q = sr.latency.ratioTo(ec.latency);
            srOverEc.add(new double[] {q.mean(), q.median(), q.p99(), q.p999(), sr.lambda,
                ec.lambda});
          }
        }
        flagLines.addAll(runFlags);
        metrics.append(String.format(Locale.ROOT, "- %s: %d split reads used; late binding's"
            + " extra reads: %d read whole and discarded, %d stopped before their end; %d failed"
            + " (all repeats)%n", label, splits, discarded, stopped, failed));
        Map<String, Object> jsonSchemes = new LinkedHashMap<>();
        for (Map.Entry<ComparedScheme, List<Numbers>> s : byScheme.entrySet()) {
          List<Numbers> ns = s.getValue();
          List<ClusterBenchmark.SchemeResult> rs = results.get(s.getKey());
          Spread memory = spreadOf(rs, r -> r.memory);
          Spread memoryAfter = spreadOf(rs, r -> r.memoryAfter);
          Spread mean = spread(ns, n -> n.latency.meanMillis());
          Spread median = spread(ns, n -> n.latency.medianMillis());
          Spread p99 = spread(ns, n -> n.latency.p99Millis());
          Spread p999 = spread(ns, n -> n.latency.p999Millis());
          Spread lambda = spread(ns, n -> n.lambda);
          Spread eta = spread(ns, n -> n.eta);
          Spread extra = spread(ns, n -> n.extraPercent);
          Spread extraSent = spread(ns, n -> n.extraSentPercent);
          table.row(label, s.getKey().displayName(), memory.format("%.2fx"),
              mean.format("%.1f"), median.format("%.1f"), p99.format("%.1f"),
              p999.format("%.1f"), lambda.format("%.1f"),
              spread(ns, n -> n.lambdaRead).format("%.1f"), eta.format("%.1f"),
              extra.format("%.1f"), extraSent.format("%.1f"),
              spread(ns, n -> n.decodeShare).format("%.1f"));
          Map<String, Object> js = new LinkedHashMap<>();
          js.put("memoryBefore", memory.toMap());
          js.put("memoryAfter", memoryAfter.toMap());
          js.put("meanMs", mean.toMap());
          js.put("medianMs", median.toMap());
          js.put("p99Ms", p99.toMap());
          js.put("p999Ms", p999.toMap());
          js.put("lambdaPct", lambda.toMap());
          js.put("etaPct", eta.toMap());
          js.put("extraBytesPct", extra.toMap());
          js.put("extraBytesSentPct", extraSent.toMap());
          jsonSchemes.put(s.getKey().label(), js);
          String name = s.getKey().displayName();
          addPoint(lambdaByScheme, name, points, point, x, lambda);
          addPoint(putMedians, name, points, point, x, spreadOf(rs,
              r -> LatencySummary.of(r.putMicros).medianMillis()));
          if (s.getKey() == ComparedScheme.EC) {
            addPoint(ecLatency, "EC-Cache median", points, point, x, median);
            addPoint(ecLatency, "EC-Cache p99", points, point, x, p99);
          }
          Spread putMean = spreadOf(rs, r -> LatencySummary.of(r.putMicros).meanMillis());
          Spread putMedian = spreadOf(rs, r -> LatencySummary.of(r.putMicros).medianMillis());
          Spread putP99 = spreadOf(rs, r -> LatencySummary.of(r.putMicros).p99Millis());
          Spread encode = spreadOf(rs, r -> {
            LatencySummary put = LatencySummary.of(r.putMicros);
            double putMs = put.meanMillis() * put.count();
            return putMs == 0 ? 0 : r.encodeNanos / 1e6 / putMs * 100;
          });
          writes.row(label, name, putMean.format("%.1f"), putMedian.format("%.1f"),
              putP99.format("%.1f"), encode.format("%.1f"));
        }
        Map<String, Object> jsonRun = new LinkedHashMap<>();
        jsonRun.put("settings", reps.get(0).settings.asMap());
        jsonRun.put("repeats", reps.size());
        jsonRun.put("schemes", jsonSchemes);
        jsonRun.put("flags", runFlags);
        String tc = agreement.isEmpty() ? "unshaped"
            : Spread.of(agreement.stream().mapToDouble(Double::doubleValue).toArray())
                .format("%.3fx");
        if (!srOverEc.isEmpty()) {
          Spread[] q = new Spread[6];
          for (int i = 0; i < q.length; i++) {
            int c = i;
            q[i] = Spread.of(srOverEc.stream().mapToDouble(v -> v[c]).toArray());
          }
          ratios.row(label, q[0].format("%.2fx"), q[1].format("%.2fx"), q[2].format("%.2fx"),
              q[3].format("%.2fx"), q[4].format("%.1f"), q[5].format("%.1f"),
              Spread.of(cpu.stream().mapToDouble(Double::doubleValue).toArray()).format("%.0f"),
              tc + (bytesFlagged ? " FLAGGED" : ""));
          addPoint(medianRatio, "SR/EC median", points, point, x, q[1]);
          jsonRun.put("srOverEcMedian", q[1].toMap());
          jsonRun.put("srOverEcMean", q[0].toMap());
          jsonRun.put("srOverEcP99", q[2].toMap());
        }
        jsonRun.put("tcClientRatio", tc);
        jsonRuns.put(label, jsonRun);
        ClusterBenchmark.Outcome firstRep = reps.get(0);
        Map<String, Histogram> cdfs = new LinkedHashMap<>();
        for (Map.Entry<ComparedScheme, List<ClusterBenchmark.SchemeResult>> s
            : results.entrySet()) {
          Histogram pooled = new Histogram(3_600_000_000L, 3);
          s.getValue().forEach(r -> pooled.add(r.latencyMicros));
          cdfs.put(s.getKey().displayName(), pooled);
        }
        Map<String, Map<String, Long>> loads = new LinkedHashMap<>();
        for (ClusterBenchmark.SchemeResult r : firstRep.schemes.values()) {
          loads.put(r.scheme.displayName(), r.bytesByWorker);
        }
        String suffix = points == 1 ? "" : "-" + label.replaceAll("[^A-Za-z0-9.]", "_");
        Plots.latencyCdf(dir.resolve("latency-cdf" + suffix + ".png"), scenario.name + " "
            + label + ": read latency CDF" + (reps.size() > 1 ? " (all " + reps.size()
            + " repeats pooled)" : ""), cdfs);
        Plots.workerLoadBars(dir.resolve("worker-load" + suffix + ".png"),
            scenario.name + " " + label + ": bytes served per worker"
                + (reps.size() > 1 ? " (repeat 1)" : ""), loads);
        point++;
      }
    }
    if (!scenario.sweep.isEmpty() && point > 1) {
      String range = repeats > 1 ? " (median, dashed: min and max)" : "";
      if (!medianRatio.isEmpty()) {
        Plots.linesWithRange(dir.resolve("improvement.png"), scenario.name
            + ": SR/EC median latency" + range, scenario.sweep, "SR/EC median", medianRatio);
      }
      Plots.linesWithRange(dir.resolve("put-latency.png"), scenario.name
          + ": median PUT latency" + range, scenario.sweep, "PUT median ms", putMedians);
      Plots.linesWithRange(dir.resolve("load-imbalance.png"), scenario.name
          + ": load imbalance λ" + range, scenario.sweep, "λ %", lambdaByScheme);
      if (!ecLatency.isEmpty()) {
        Plots.linesWithRange(dir.resolve("ec-latency.png"), scenario.name
            + ": EC-Cache read latency" + range, scenario.sweep, "ms", ecLatency);
      }
    }
    BenchSettings firstSettings = outcomes.values().iterator().next().get(0).settings;
    String summary = "# " + scenario.name + ": " + scenario.figure + "\n\n"
        + method(firstSettings, pinned, repeats) + "\n\n"
        + "Run: " + stamp.markdown() + "\n\n"
        + "Network: " + network + "; " + workers + " workers; " + firstSettings + ".\n\n"
        + (flagLines.isEmpty() ? "Flags: none.\n\n"
            : "**FLAGGED** (read these numbers with care):\n\n- " + String.join("\n- ", flagLines)
                + "\n\n")
        + (rerunLines.isEmpty() ? "" : "Run again (redundancy not as pinned, not"
            + " published):\n\n- " + String.join("\n- ", rerunLines) + "\n\n")
        + "**Paper:** " + scenario.paper + "\n\n**Ours:**\n\n" + ratios + "\n" + table + "\n"
        + "Redundancy in effect during the measured phase, per repeat (memory = cached bytes /"
        + " object bytes, before and after the phase; units = parities, copies or partitions):"
        + "\n\n" + redundancy + "\n"
        + "Writes (storing the objects; encode share of PUT time, paper Fig. 17):\n\n" + writes
        + "\n"
        + "Split reads in the measured phase, every scheme, from Alluxio's metrics system:\n\n"
        + metrics + "\n"
        + "λ = (L_max − L_avg*)/L_avg* over the bytes each worker's link carried during the"
        + " scheme's own measured phase (the kernel's per-worker counters, background flows"
        + " subtracted; over the bytes the client read when unshaped or interleaved), L_avg* ="
        + " useful bytes / workers (the paper's); \"λ read\" is over the bytes the client read;"
        + " η = SP-Cache's (over bytes read). \"extra bytes read\" ="
        + " bytes the client read / bytes it delivered − 1: late binding's Δ extra splits, read"
        + " whole unless k others arrive before their last slice; \"extra bytes sent\" adds the"
        + " unread rest of the reads stopped part-way, an upper bound of what the links carried"
        + " for them (a stopped read is cancelled at its worker, which still sends what its"
        + " kernel had queued). \"tc/client bytes\" compares"
        + " the kernel's per-worker counters (all schemes together, background flows subtracted)"
        + " with the clients' own counts (read and unread): the largest per-worker ratio, flagged"
        + " above "
        + String.format(Locale.ROOT, "%.2fx", ByteAgreement.FLAG_ABOVE) + " unless the bytes of"
        + " S3 fallbacks (read through a worker Alluxio picks, so counted by the client only in"
        + " total: raw.csv's fallback_bytes) account for the excess; \"extra bytes read\""
        + " counts them too.\n\n"
        + "Settings of every run:\n\n" + String.join("\n", settingLines) + "\n";
    Files.write(dir.resolve("summary.md"), summary.getBytes(StandardCharsets.UTF_8));
    json.put("method", method(firstSettings, pinned, repeats));
    json.put("flags", flagLines);
    json.put("rerun", rerunLines);
    json.put("runs", jsonRuns);
    Files.write(dir.resolve("summary.json"), new ObjectMapper()
        .enable(SerializationFeature.INDENT_OUTPUT).writeValueAsBytes(json));
    return summary;
  }

  private static Spread spread(List<Numbers> ns, ToDoubleFunction<Numbers> f) {
    return Spread.of(ns.stream().mapToDouble(f).toArray());
  }

  private static Spread spreadOf(List<ClusterBenchmark.SchemeResult> rs,
      ToDoubleFunction<ClusterBenchmark.SchemeResult> f) {
    return Spread.of(rs.stream().mapToDouble(f).toArray());
  }

  /** Sets point {@code i} of {@code series[name]} ({xs, medians, mins, maxs}). */
  private static void addPoint(Map<String, double[][]> series, String name, int points, int i,
      double x, Spread s) {
    double[][] v = series.computeIfAbsent(name, n -> new double[4][points]);
    v[0][i] = x;
    v[1][i] = s.median();
    v[2][i] = s.min();
    v[3][i] = s.max();
  }

  private static double parseOr(String label, int index) {
    try {
      return Double.parseDouble(label);
    } catch (NumberFormatException e) {
      return index;
    }
  }
}
