package io.eccache.benchmarks.logecmem;

import io.eccache.benchmarks.kv.KvMix;
import io.eccache.benchmarks.kv.KvTrace;
import io.eccache.benchmarks.kv.KvWorkload;
import io.eccache.benchmarks.report.RunStamp;
import io.eccache.lognode.LogScheme;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/** What every figure of one evaluation run shares: settings, stamp, output, log nodes. */
final class LogEcMemRun implements AutoCloseable {
  final LogEcMemSettings settings;
  final RunStamp stamp;
  final Path out;
  final Path scratch;
  final Consumer<String> progress;
  private LogNodeFleet fleet;
  private boolean warm;
  private List<UpdateGrid.Row> grid;

  LogEcMemRun(LogEcMemSettings settings, RunStamp stamp, Path out, Path scratch,
      Consumer<String> progress) {
    this.settings = settings;
    this.stamp = stamp;
    this.out = out;
    this.scratch = scratch;
    this.progress = progress;
  }

  /** Three PLM log nodes (enough for r ≤ 4), started on first use and kept for the run. */
  LogNodeFleet logNodes() throws IOException {
    if (fleet == null) {
      fleet = settings.logNodeProcesses
          ? LogNodeFleet.processes(3, LogScheme.PLM, scratch.resolve("lognodes"))
          : LogNodeFleet.inProcess(3, LogScheme.PLM, scratch.resolve("lognodes"));
    }
    return fleet;
  }

  /** A store of {@code scheme} on a fresh testbed with as many DRAM nodes as it uses. */
  Testbed testbed(int k, int r) throws IOException {
    return Testbed.start(k, r, settings.valueBytes, k + r, settings.memcachedMiB(k),
        settings.issue, logNodes(), settings.wire, scratch.resolve("testbeds"));
  }

  /**
   * Once per run, before the first measured replay: every erasure-coded scheme replays a 50:50
   * trace unmeasured (8,000 requests, or twice a run's if fewer), so the proxy's and the log
   * nodes' JVMs have compiled their paths (the log nodes otherwise start cold while memcached is
   * native code) and connections are open.
   */
  void warmUp() throws IOException {
    if (warm) {
      return;
    }
    warm = true;
    long requests = Math.min(8_000, 2 * settings.operations);
    KvTrace trace = new KvWorkload(Math.min(1_000, settings.records), requests,
        KvMix.readUpdate(50, 50), 0).generate();
    for (KvScheme scheme : List.of(KvScheme.HYBRID, KvScheme.INPLACE, KvScheme.FULLSTRIPE)) {
      try (Testbed bed = testbed(6, 4)) {
        new KvRunner(settings.valueBytes, 0, 0).run(scheme.on(bed), trace, line -> { });
      }
    }
    progress.accept("warmed up: every scheme replayed " + requests + " requests unmeasured");
  }

  /** The replays of Figs. 11 and 12, run on first use. */
  List<UpdateGrid.Row> updateGrid() throws IOException {
    if (grid == null) {
      grid = UpdateGrid.run(this);
    }
    return grid;
  }

  @Override
  public void close() {
    if (fleet != null) {
      fleet.close();
    }
  }
}
