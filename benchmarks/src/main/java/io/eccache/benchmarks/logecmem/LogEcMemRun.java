package io.eccache.benchmarks.logecmem;

import io.eccache.benchmarks.report.RunStamp;
import io.eccache.lognode.LogScheme;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/** What every figure of one evaluation run shares: settings, stamp, output, log nodes. */
final class LogEcMemRun implements AutoCloseable {
  final LogEcMemSettings settings;
  final RunStamp stamp;
  final Path out;
  final Path scratch;
  final Consumer<String> progress;
  private LogNodeFleet fleet;

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
        settings.issue, logNodes(), scratch.resolve("testbeds"));
  }

  @Override
  public void close() {
    if (fleet != null) {
      fleet.close();
    }
  }
}
