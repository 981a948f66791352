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
  /** Fig. 14's fleets, one per log layout. */
  private final java.util.Map<LogScheme, LogNodeFleet> layoutFleets =
      new java.util.EnumMap<>(LogScheme.class);
  private boolean warm;
  private List<UpdateGrid.Row> grid;
  private List<UpdateGrid.Row> wideGrid;

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

  /**
   * Three log nodes of {@code layout}, PLM merging every 256 KB of log (so short runs merge, as
   * the paper's long ones do), warmed by an unmeasured hybrid replay; started on first use.
   */
  LogNodeFleet layoutFleet(LogScheme layout) throws IOException {
    LogNodeFleet f = layoutFleets.get(layout);
    if (f == null) {
      Path dir = scratch.resolve("lognodes-" + layout.name().toLowerCase(java.util.Locale.ROOT));
      f = settings.logNodeProcesses ? LogNodeFleet.processes(3, layout, 256 << 10, dir)
          : LogNodeFleet.inProcess(3, layout, 256 << 10, dir);
      layoutFleets.put(layout, f);
      long requests = Math.min(8_000, 2 * settings.operations);
      KvTrace trace = new KvWorkload(Math.min(1_000, settings.records), requests,
          KvMix.readUpdate(50, 50), 0).generate();
      try (Testbed bed = testbed(6, 4, f)) {
        new KvRunner(settings.valueBytes, 0, 0).run(KvScheme.HYBRID.on(bed), trace, line -> { });
      }
    }
    return f;
  }

  /** A fresh testbed with as many DRAM nodes as any scheme uses, on the run's log nodes. */
  Testbed testbed(int k, int r) throws IOException {
    return testbed(k, r, logNodes());
  }

  /** A fresh testbed on the log nodes {@code logs}. */
  Testbed testbed(int k, int r, LogNodeFleet logs) throws IOException {
    NodeMap nodes = NodeMap.of(k + r, settings.servers);
    return Testbed.start(k, r, settings.valueBytes, nodes, settings.memcachedMiB(k, nodes),
        settings.issue, logs, settings.wire, scratch.resolve("testbeds"));
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

  /** The replays of Figs. 11 and 12 (the run's codes), run on first use. */
  List<UpdateGrid.Row> updateGrid() throws IOException {
    if (grid == null) {
      grid = UpdateGrid.run(this, settings.codes, settings.records, settings.operations);
    }
    return grid;
  }

  /** The replays of Fig. 13 (the wide codes, at their sizes), run on first use. */
  List<UpdateGrid.Row> wideGrid() throws IOException {
    if (wideGrid == null) {
      wideGrid = UpdateGrid.run(this, settings.wideCodes, settings.wideRecords,
          settings.wideOperations);
    }
    return wideGrid;
  }

  @Override
  public void close() {
    if (fleet != null) {
      fleet.close();
    }
    layoutFleets.values().forEach(LogNodeFleet::close);
  }
}
