package io.eccache.benchmarks.logecmem;

import io.eccache.benchmarks.kv.KvMix;
import io.eccache.benchmarks.kv.KvOp;
import io.eccache.benchmarks.kv.KvTrace;
import io.eccache.benchmarks.kv.KvWorkload;
import io.eccache.benchmarks.report.CsvWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The replays behind Figs. 11 and 12 (Exps. 2 and 3): every (repeat, code, read:update mix) trace
 * replayed against each scheme on a fresh testbed, the schemes' order rotated by repeat, latency,
 * calls and the DRAM nodes' memory recorded. Run once per evaluation run and shared.
 */
final class UpdateGrid {
  /** The schemes replayed: the three coded ones and (r + 1)-way replication. */
  static final List<KvScheme> SCHEMES = List.of(KvScheme.HYBRID, KvScheme.INPLACE,
      KvScheme.FULLSTRIPE, KvScheme.REPLICATION);

  /** One measured replay. */
  static final class Row {
    final String code;
    final int r;
    final KvMix mix;
    final int repeat;
    final KvScheme scheme;
    final KvRunner.Result result;
    /** Bytes of the values the store holds (the data, M). */
    final long dataBytes;

    Row(String code, int r, KvMix mix, int repeat, KvScheme scheme, KvRunner.Result result,
        long dataBytes) {
      this.code = code;
      this.r = r;
      this.mix = mix;
      this.repeat = repeat;
      this.scheme = scheme;
      this.result = result;
      this.dataBytes = dataBytes;
    }

    /** The scheme's update latency as the paper measures it: FSMem's with its collection. */
    double updateMeanMicros() {
      return result.updateMeanWithDeferredMicros();
    }

    /** The update requests' own mean latency. */
    double requestMeanMicros() {
      return result.latencyMicros.get(KvOp.Kind.UPDATE).getMean();
    }

    /** The measured updates. */
    long updates() {
      return result.latencyMicros.get(KvOp.Kind.UPDATE).getTotalCount();
    }

    double perUpdate(OpCounts.Kind kind) {
      return result.callsPer(KvOp.Kind.UPDATE, kind);
    }

    /**
     * The DRAM nodes' memory over the data at the run's end, before FSMem's collection (its old
     * versions still held, as the paper counts them).
     */
    double memoryOverData() {
      return result.dramBytesAfterRun / (double) dataBytes;
    }

    /** The same after the collection. */
    double memoryOverDataAfterCollection() {
      return result.dramBytesAfterFinish / (double) dataBytes;
    }
  }

  private UpdateGrid() {}

  /** Replays every repeat, code of {@code codes} and mix, {@code records} values loaded. */
  static List<Row> run(LogEcMemRun run, List<int[]> codes, long records, long operations)
      throws IOException {
    LogEcMemSettings s = run.settings;
    run.warmUp();
    List<Row> rows = new ArrayList<>();
    int total = s.repeats * codes.size() * s.mixes.size() * SCHEMES.size();
    for (int repeat = 1; repeat <= s.repeats; repeat++) {
      for (int[] code : codes) {
        for (KvMix mix : s.mixes) {
          KvTrace trace = new KvWorkload(records, operations, mix, repeat).generate();
          long dataBytes = (long) trace.load().size() * s.valueBytes;
          for (int i = 0; i < SCHEMES.size(); i++) {
            KvScheme scheme = SCHEMES.get((i + repeat) % SCHEMES.size());
            try (Testbed bed = run.testbed(code[0], code[1])) {
              KvRunner.Result result = new KvRunner(s.valueBytes, repeat,
                  LogEcMemSettings.warmup(operations))
                  .run(scheme.on(bed), trace, run.progress, bed::dramBytes);
              if (result.wrongReads > 0) {
                throw new IOException(scheme.id + " returned " + result.wrongReads
                    + " wrong values on " + LogEcMemSettings.code(code) + " " + mix);
              }
              rows.add(new Row(LogEcMemSettings.code(code), code[1], mix, repeat, scheme, result,
                  dataBytes));
            }
            Row last = rows.get(rows.size() - 1);
            run.progress.accept(String.format(Locale.ROOT, "replay %d of %d: repeat %d %s %s"
                + " %s: update mean %.0f us, memory %.2fx", rows.size(), total, repeat,
                last.code, mix, scheme.id, last.updateMeanMicros(), last.memoryOverData()));
          }
        }
      }
    }
    return rows;
  }

  /** The rows of one code, mix and scheme, one per repeat. */
  static List<Row> select(List<Row> rows, String code, KvMix mix, KvScheme scheme) {
    return rows.stream().filter(x -> x.code.equals(code) && x.mix.equals(mix)
        && x.scheme == scheme).collect(java.util.stream.Collectors.toList());
  }

  /** The rows as a CSV: one line per replay. */
  static void writeCsv(Path csv, List<UpdateGrid.Row> rows) throws IOException {
    try (CsvWriter out = new CsvWriter(csv, "code", "mix", "repeat", "scheme", "updates",
        "update_mean_us", "update_mean_with_deferred_us", "deferred_ms", "update_p50_us",
        "update_p99_us", "parity_mean_us", "read_mean_us",
        "gets_per_update", "sets_per_update", "log_appends_per_update", "deletes_per_update",
        "throughput_ops", "wrong_reads", "data_bytes", "dram_bytes", "dram_bytes_after_gc")) {
      for (UpdateGrid.Row row : rows) {
        var updates = row.result.latencyMicros.get(KvOp.Kind.UPDATE);
        out.row(row.code, row.mix.toString(), row.repeat, row.scheme.id, updates.getTotalCount(),
            row.requestMeanMicros(), row.updateMeanMicros(), row.result.finishNanos / 1e6,
            updates.getValueAtPercentile(50),
            updates.getValueAtPercentile(99), row.result.parityMicros.getMean(),
            row.result.latencyMicros.get(KvOp.Kind.READ).getMean(),
            row.perUpdate(OpCounts.Kind.GET), row.perUpdate(OpCounts.Kind.SET),
            row.perUpdate(OpCounts.Kind.LOG_APPEND), row.perUpdate(OpCounts.Kind.DELETE),
            row.result.throughput(), row.result.wrongReads, row.dataBytes,
            row.result.dramBytesAfterRun, row.result.dramBytesAfterFinish);
      }
    }
  }
}
