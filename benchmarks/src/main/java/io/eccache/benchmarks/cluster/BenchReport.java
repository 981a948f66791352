package io.eccache.benchmarks.cluster;

import io.eccache.benchmarks.ComparedScheme;
import io.eccache.benchmarks.report.CsvWriter;
import io.eccache.benchmarks.report.LatencySummary;
import io.eccache.benchmarks.report.LoadImbalance;
import io.eccache.benchmarks.report.MarkdownTable;
import io.eccache.benchmarks.report.Plots;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Writes one scenario's results into its directory: {@code raw.csv} (one row per run and scheme),
 * {@code workers.csv} (bytes per worker from the client and from the kernel's tc counters),
 * {@code summary.md} (the paper's numbers beside ours) and PNG plots.
 */
public final class BenchReport {

  private BenchReport() {}

  /** Writes the files and returns the summary's Markdown. */
  public static String write(Path dir, Scenario scenario,
      Map<String, ClusterBenchmark.Outcome> outcomes, int workers, String network)
      throws IOException {
    Files.createDirectories(dir);
    MarkdownTable table = new MarkdownTable(scenario.sweep.isEmpty() ? "run" : scenario.sweep,
        "scheme", "memory", "mean ms", "median ms", "p99 ms", "p99.9 ms", "λ %", "η %",
        "extra reads %", "decode % of read");
    MarkdownTable ratios = new MarkdownTable(scenario.sweep.isEmpty() ? "run" : scenario.sweep,
        "SR/EC mean", "SR/EC median", "SR/EC p99", "SR/EC p99.9", "λ SR", "λ EC", "CPU %",
        "tc/client bytes");
    MarkdownTable writes = new MarkdownTable(scenario.sweep.isEmpty() ? "run" : scenario.sweep,
        "scheme", "PUT mean ms", "PUT median ms", "PUT p99 ms", "encode % of PUT");
    Map<String, double[][]> putMedians = new LinkedHashMap<>();
    Map<String, double[][]> medianRatio = new LinkedHashMap<>();
    Map<String, double[][]> lambdaByScheme = new LinkedHashMap<>();
    Map<String, double[][]> ecLatency = new LinkedHashMap<>();
    double[] xs = new double[outcomes.size()];
    double[] ys = new double[outcomes.size()];
    int point = 0;
    try (CsvWriter raw = new CsvWriter(dir.resolve("raw.csv"), "run", "scheme", "requests",
        "memory", "mean_ms", "median_ms", "p99_ms", "p999_ms", "lambda_pct", "eta_pct",
        "useful_bytes", "served_bytes", "decodes", "decode_ms", "fallbacks", "seconds", "cpu_share",
        "network");
        CsvWriter perWorker = new CsvWriter(dir.resolve("workers.csv"), "run", "worker",
            "scheme", "client_bytes", "tc_bytes_all_schemes")) {
      for (Map.Entry<String, ClusterBenchmark.Outcome> e : outcomes.entrySet()) {
        ClusterBenchmark.Outcome o = e.getValue();
        Map<ComparedScheme, LatencySummary> byScheme = new LinkedHashMap<>();
        Map<ComparedScheme, Double> lambdas = new LinkedHashMap<>();
        Map<String, Long> clientTotal = new TreeMap<>();
        for (ClusterBenchmark.SchemeResult r : o.schemes.values()) {
          LatencySummary l = LatencySummary.of(r.latencyMicros);
          byScheme.put(r.scheme, l);
          long served = r.bytesByWorker.values().stream().mapToLong(Long::longValue).sum();
          double lambda = LoadImbalance.lambdaPercent(r.bytesByWorker, workers,
              Math.max(1, r.usefulBytes));
          double eta = LoadImbalance.etaPercent(r.bytesByWorker, workers);
          lambdas.put(r.scheme, lambda);
          double readMs = l.meanMillis() * l.count();
          double decodeShare = readMs == 0 ? 0 : r.decodeNanos / 1e6 / readMs * 100;
          r.bytesByWorker.forEach((w, b) -> clientTotal.merge(w, b, Long::sum));
          raw.row(e.getKey(), r.scheme.label(), l.count(), r.memory, l.meanMillis(), l.medianMillis(),
              l.p99Millis(), l.p999Millis(), lambda, eta, r.usefulBytes, served, r.decodes,
              r.decodeNanos / 1e6, r.fallbacks, o.seconds, o.cpuShare, network);
          for (Map.Entry<String, Long> w : r.bytesByWorker.entrySet()) {
            perWorker.row(e.getKey(), w.getKey(), r.scheme.label(), w.getValue(),
                o.shaperBytesByWorker.getOrDefault(w.getKey(), 0L));
          }
          LatencySummary put = LatencySummary.of(r.putMicros);
          double putMs = put.meanMillis() * put.count();
          writes.row(e.getKey(), r.scheme.displayName(), put.meanMillis(),
              put.medianMillis(), put.p99Millis(), putMs == 0 ? 0 : r.encodeNanos / 1e6 / putMs * 100);
          double[][] pm = putMedians.computeIfAbsent(r.scheme.displayName(),
              n -> new double[][] {new double[outcomes.size()], new double[outcomes.size()]});
          pm[0][point] = parseOr(e.getKey(), point);
          pm[1][point] = put.medianMillis();
          double[][] lam = lambdaByScheme.computeIfAbsent(r.scheme.displayName(),
              n -> new double[][] {new double[outcomes.size()], new double[outcomes.size()]});
          lam[0][point] = pm[0][point];
          lam[1][point] = lambda;
          if (r.scheme == ComparedScheme.EC) {
            for (String q : new String[] {"median", "p99"}) {
              double[][] series = ecLatency.computeIfAbsent("EC-Cache " + q,
                  n -> new double[][] {new double[outcomes.size()], new double[outcomes.size()]});
              series[0][point] = pm[0][point];
              series[1][point] = q.equals("median") ? l.medianMillis() : l.p99Millis();
            }
          }
          table.row(e.getKey(), r.scheme.displayName(),
              String.format(Locale.ROOT, "%.2fx", r.memory), l.meanMillis(), l.medianMillis(),
              l.p99Millis(), l.p999Millis(), lambda, eta,
              LoadImbalance.bandwidthOverheadPercent(served, Math.max(1, r.usefulBytes)),
              decodeShare);
        }
        LatencySummary ec = byScheme.get(ComparedScheme.EC);
        LatencySummary sr = byScheme.get(ComparedScheme.SR);
        if (ec != null && sr != null) {
          LatencySummary.Ratios q = sr.ratioTo(ec);
          ratios.row(e.getKey(), q.mean(), q.median(), q.p99(), q.p999(), lambdas.get(ComparedScheme.SR),
              lambdas.get(ComparedScheme.EC), o.cpuShare * 100,
              agreement(clientTotal, o.shaperBytesByWorker, o.shaped));
          xs[point] = parseOr(e.getKey(), point);
          ys[point] = q.median();
        }
        point++;
        Map<String, Histogram> cdfs = new LinkedHashMap<>();
        Map<String, Map<String, Long>> loads = new LinkedHashMap<>();
        for (ClusterBenchmark.SchemeResult r : o.schemes.values()) {
          cdfs.put(r.scheme.displayName(), r.latencyMicros);
          loads.put(r.scheme.displayName(), r.bytesByWorker);
        }
        String suffix = outcomes.size() == 1 ? "" : "-" + e.getKey().replaceAll("[^A-Za-z0-9.]", "_");
        Plots.latencyCdf(dir.resolve("latency-cdf" + suffix + ".png"),
            scenario.name + " " + e.getKey() + ": read latency CDF", cdfs);
        Plots.workerLoadBars(dir.resolve("worker-load" + suffix + ".png"),
            scenario.name + " " + e.getKey() + ": bytes served per worker", loads);
      }
    }
    if (!scenario.sweep.isEmpty() && point > 1) {
      medianRatio.put("SR/EC median", new double[][] {xs, ys});
      Plots.lines(dir.resolve("improvement.png"), scenario.name + ": SR/EC median latency",
          scenario.sweep, "SR/EC median", medianRatio);
      Plots.lines(dir.resolve("put-latency.png"), scenario.name + ": median PUT latency",
          scenario.sweep, "PUT median ms", putMedians);
      Plots.lines(dir.resolve("load-imbalance.png"), scenario.name + ": load imbalance λ",
          scenario.sweep, "λ %", lambdaByScheme);
      if (!ecLatency.isEmpty()) {
        Plots.lines(dir.resolve("ec-latency.png"), scenario.name + ": EC-Cache read latency",
            scenario.sweep, "ms", ecLatency);
      }
    }
    StringBuilder metrics = new StringBuilder();
    for (Map.Entry<String, ClusterBenchmark.Outcome> e : outcomes.entrySet()) {
      ClusterBenchmark.Outcome o = e.getValue();
      metrics.append(String.format(Locale.ROOT, "- %s: %d split reads used, %d extra reads "
          + "cancelled by late binding, %d failed%n", e.getKey(), o.splitsRead, o.readsCancelled,
          o.readsFailed));
    }
    ClusterBenchmark.Outcome first = outcomes.values().iterator().next();
    String summary = "# " + scenario.name + ": " + scenario.figure + "\n\n"
        + "Network: " + network + "; " + workers + " workers; this machine has "
        + Runtime.getRuntime().availableProcessors() + " cores; "
        + first.settings + ". Command: `bin/eccache bench --scenario " + scenario.name + "`.\n\n"
        + "**Paper:** " + scenario.paper + "\n\n**Ours:**\n\n" + ratios + "\n" + table + "\n"
        + "Writes (storing the objects; encode share of PUT time, paper Fig. 17):\n\n" + writes
        + "\n"
        + "Split reads in the measured phase, every scheme, from Alluxio's metrics system:\n\n"
        + metrics + "\n"
        + "λ = (L_max − L_avg*)/L_avg* over bytes each worker served, L_avg* = useful bytes /"
        + " workers (the paper's); η = SP-Cache's (over bytes served). \"tc/client bytes\" compares"
        + " the kernel's per-worker counters (all schemes together, background flows subtracted)"
        + " with the clients' own counts: the largest per-worker ratio.\n";
    Files.write(dir.resolve("summary.md"), summary.getBytes(StandardCharsets.UTF_8));
    return summary;
  }

  /** The largest per-worker ratio of the kernel's byte count to the clients' (1.0x = agree). */
  private static String agreement(Map<String, Long> client, Map<String, Long> tc, boolean shaped) {
    if (!shaped) {
      return "unshaped";
    }
    double worst = 0;
    for (Map.Entry<String, Long> e : client.entrySet()) {
      if (e.getValue() > 0) {
        worst = Math.max(worst, tc.getOrDefault(e.getKey(), 0L) / (double) e.getValue());
      }
    }
    return String.format(Locale.ROOT, "%.3fx", worst);
  }

  private static double parseOr(String label, int index) {
    try {
      return Double.parseDouble(label);
    } catch (NumberFormatException e) {
      return index;
    }
  }
}
