package io.eccache.benchmarks.logecmem;

import io.eccache.benchmarks.kv.KvMix;
import io.eccache.benchmarks.kv.KvOp;
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
import java.util.function.ToDoubleFunction;

/**
 * Fig. 10 (Exp. 1): basic requests on the paper's (10,4): read and write (insert of a new key)
 * latency and the one proxy thread's throughput over read:write traces, then degraded reads with
 * one DRAM node SIGKILLed (erasure coding rebuilds from k − 1 data units and P1; replication
 * reads another copy; vanilla memcached has none), for LogECMem, vanilla memcached (one copy) and
 * (r + 1)-way replication, each on a fresh testbed.
 */
final class Fig10BasicRequests {
  static final List<KvScheme> SCHEMES = List.of(KvScheme.HYBRID, KvScheme.VANILLA,
      KvScheme.REPLICATION);
  /** The read:write mixes of Fig. 10. */
  static final List<KvMix> MIXES = List.of(KvMix.readWrite(95, 5), KvMix.readWrite(50, 50));
  /** Degraded reads per replay, at most. */
  static final int DEGRADED_READS = 200;

  /** One replay of one scheme, then its degraded reads (none for vanilla). */
  static final class Row {
    final KvScheme scheme;
    final KvMix mix;
    final int repeat;
    final KvRunner.Result result;
    /** Null for vanilla: one copy, nothing to read around a lost node. */
    final DegradedReads.Result degraded;

    Row(KvScheme scheme, KvMix mix, int repeat, KvRunner.Result result,
        DegradedReads.Result degraded) {
      this.scheme = scheme;
      this.mix = mix;
      this.repeat = repeat;
      this.result = result;
      this.degraded = degraded;
    }

    double meanMicros(KvOp.Kind kind) {
      return result.latencyMicros.get(kind).getMean();
    }
  }

  private Fig10BasicRequests() {}

  /** The paper's (10,4) when the run's codes have it, else the first code given. */
  static int[] code(LogEcMemSettings s) {
    return s.codes.stream().filter(c -> c[0] == 10 && c[1] == 4).findFirst()
        .orElse(s.codes.get(0));
  }

  static String run(LogEcMemRun run) throws IOException {
    LogEcMemSettings s = run.settings;
    Path dir = Files.createDirectories(run.out.resolve("fig10"));
    int[] code = code(s);
    run.warmUp();
    List<Row> rows = new ArrayList<>();
    int total = s.repeats * MIXES.size() * SCHEMES.size();
    for (int repeat = 1; repeat <= s.repeats; repeat++) {
      for (KvMix mix : MIXES) {
        KvTrace trace = new KvWorkload(s.records, s.operations, mix, repeat).generate();
        for (int i = 0; i < SCHEMES.size(); i++) {
          KvScheme scheme = SCHEMES.get((i + repeat) % SCHEMES.size());
          try (Testbed bed = run.testbed(code[0], code[1])) {
            KvStore store = scheme.on(bed);
            KvRunner.Result result = new KvRunner(s.valueBytes, repeat, s.warmup())
                .run(store, trace, run.progress);
            if (result.wrongReads > 0) {
              throw new IOException(scheme.id + " returned " + result.wrongReads
                  + " wrong values on " + mix);
            }
            DegradedReads.Result degraded = scheme == KvScheme.VANILLA ? null
                : DegradedReads.measure(bed, store, trace.loadedKeys(), DEGRADED_READS, 0);
            rows.add(new Row(scheme, mix, repeat, result, degraded));
          }
          Row last = rows.get(rows.size() - 1);
          run.progress.accept(String.format(Locale.ROOT, "fig10 %d of %d: repeat %d %s %s:"
              + " read %.0f us, write %.0f us, degraded read %s", rows.size(), total, repeat,
              mix, scheme.id, last.meanMicros(KvOp.Kind.READ), last.meanMicros(KvOp.Kind.INSERT),
              last.degraded == null ? "n/a" : String.format(Locale.ROOT, "%.0f us",
                  last.degraded.meanMicros)));
        }
      }
    }
    writeCsv(dir.resolve("raw.csv"), rows);
    String md = summary(run, code, rows, dir);
    Files.writeString(dir.resolve("summary.md"), md);
    return md;
  }

  private static void writeCsv(Path csv, List<Row> rows) throws IOException {
    try (CsvWriter out = new CsvWriter(csv, "mix", "repeat", "scheme", "reads", "read_mean_us",
        "read_p99_us", "writes", "write_mean_us", "write_p99_us", "throughput_ops",
        "sets_per_write", "log_bases_per_write", "wrong_reads", "degraded_reads",
        "degraded_mean_us", "degraded_gets_per_read", "degraded_log_reads_per_read")) {
      for (Row row : rows) {
        var reads = row.result.latencyMicros.get(KvOp.Kind.READ);
        var writes = row.result.latencyMicros.get(KvOp.Kind.INSERT);
        DegradedReads.Result d = row.degraded;
        out.row(row.mix.toString(), row.repeat, row.scheme.id, reads.getTotalCount(),
            reads.getMean(), reads.getValueAtPercentile(99), writes.getTotalCount(),
            writes.getMean(), writes.getValueAtPercentile(99), row.result.throughput(),
            row.result.callsPer(KvOp.Kind.INSERT, OpCounts.Kind.SET),
            row.result.callsPer(KvOp.Kind.INSERT, OpCounts.Kind.LOG_BASE),
            row.result.wrongReads, d == null ? "" : d.reads, d == null ? "" : d.meanMicros,
            d == null ? "" : d.getsPerRead(), d == null ? "" : d.logReadsPerRead());
      }
    }
  }

  /** What the paper's Fig. 10 shows for a scheme (its text gives directions, no numbers). */
  static String paper(KvScheme scheme) {
    switch (scheme) {
      case HYBRID:
        return "reads ≈ vanilla; writes slower than vanilla; degraded ≈ IPMem, FSMem";
      case REPLICATION:
        return "writes slowest; degraded reads fastest";
      default:
        return "fastest writes, highest throughput; no degraded read";
    }
  }

  private static String summary(LogEcMemRun run, int[] code, List<Row> rows, Path dir)
      throws IOException {
    LogEcMemSettings s = run.settings;
    MarkdownTable table = new MarkdownTable("read:write", "scheme", "read µs", "write µs",
        "degraded read µs", "gets per degraded read", "throughput (req/s, one proxy thread)",
        "read vs vanilla", "write vs vanilla", "paper");
    Map<String, Map<String, Double>> bars = new LinkedHashMap<>();
    for (String metric : List.of("read", "write", "degraded", "throughput")) {
      bars.put(metric, new LinkedHashMap<>());
    }
    for (KvMix mix : MIXES) {
      String label = mix.readPercent() + ":" + mix.otherPercent();
      double[] vanillaRead = values(rows, mix, KvScheme.VANILLA, r -> r.meanMicros(KvOp.Kind.READ));
      double[] vanillaWrite = values(rows, mix, KvScheme.VANILLA,
          r -> r.meanMicros(KvOp.Kind.INSERT));
      for (KvScheme scheme : SCHEMES) {
        double[] read = values(rows, mix, scheme, r -> r.meanMicros(KvOp.Kind.READ));
        double[] write = values(rows, mix, scheme, r -> r.meanMicros(KvOp.Kind.INSERT));
        double[] throughput = values(rows, mix, scheme, r -> r.result.throughput());
        String degraded = "n/a (one copy)";
        String gets = "n/a";
        String bar = scheme.label + " " + label;
        if (scheme != KvScheme.VANILLA) {
          Spread d = Spread.of(values(rows, mix, scheme, r -> r.degraded.meanMicros));
          degraded = d.format("%.0f");
          gets = Spread.of(values(rows, mix, scheme, r -> r.degraded.getsPerRead()))
              .format("%.1f");
          bars.get("degraded").put(bar, d.median());
        }
        bars.get("read").put(bar, Spread.of(read).median());
        bars.get("write").put(bar, Spread.of(write).median());
        bars.get("throughput").put(bar, Spread.of(throughput).median());
        boolean vanilla = scheme == KvScheme.VANILLA;
        table.row(label, scheme.label, Spread.of(read).format("%.0f"),
            Spread.of(write).format("%.0f"), degraded, gets,
            Spread.of(throughput).format("%.0f"),
            vanilla ? "" : Fig11UpdateLatency.change(read, vanillaRead),
            vanilla ? "" : Fig11UpdateLatency.change(write, vanillaWrite), paper(scheme));
      }
    }
    StringBuilder md = new StringBuilder("## Fig. 10: basic requests (read, write, degraded read,"
        + " throughput)\n\n");
    md.append("Testbed (tier 1): ").append(Fig11UpdateLatency.setup(s)).append("; RS")
        .append(LogEcMemSettings.code(code)).append(", ").append(code[0] + code[1])
        .append(" DRAM nodes per testbed, read:write traces (writes insert new keys).\n\n");
    md.append(run.stamp.markdown()).append("\n\n");
    md.append("Mean latency of the run phase's reads and writes, and the run phase's requests per"
        + " second of the one proxy thread (one closed-loop client, so throughput is the inverse"
        + " of the mean latency, not a saturated server), median [min–max] over ")
        .append(s.repeats).append(" repeats; changes paired within a repeat. A write of"
        + " LogECMem stores the value on its node and, when k nodes' queues hold one, seals a"
        + " stripe (encodes, writes P1 to DRAM and P2..Pr to the log nodes): its mean carries"
        + " that sealing. Degraded reads: after the replay DRAM node 0 is SIGKILLed and up to ")
        .append(DEGRADED_READS).append(" loaded values whose home it was are read again, each"
        + " compared with its bytes before the kill (LogECMem: k − 1 data units and P1 from DRAM"
        + " nodes, at once, decoded; replication: the next copy). The paper compares IPMem and"
        + " FSMem too; their reads and writes of new keys take LogECMem's path, so they are not"
        + " replayed here.\n\n");
    md.append(table).append('\n');
    Map<String, String> titles = Map.of("read", "mean read latency (µs)", "write",
        "mean write latency (µs)", "degraded", "mean degraded-read latency (µs)", "throughput",
        "requests/s (one proxy thread)");
    for (Map.Entry<String, Map<String, Double>> e : bars.entrySet()) {
      String name = "fig10-" + e.getKey() + ".png";
      Plots.bars(dir.resolve(name), "Fig. 10: " + titles.get(e.getKey()) + ", RS"
          + LogEcMemSettings.code(code), titles.get(e.getKey()), e.getValue());
      md.append("![").append(e.getKey()).append("](").append(name).append(")\n");
    }
    return md.toString();
  }

  private static double[] values(List<Row> rows, KvMix mix, KvScheme scheme,
      ToDoubleFunction<Row> value) {
    return rows.stream().filter(r -> r.mix.equals(mix) && r.scheme == scheme)
        .mapToDouble(value).toArray();
  }
}
