package io.eccache.benchmarks.datapath;

import java.util.EnumMap;
import org.HdrHistogram.Histogram;

/** One variant's measurements in one round at one object size and thread count. */
public final class RoundResult {
  public final Variant variant;
  public final long sizeBytes;
  /** Client threads asked for. */
  public final int threads;
  /** Client threads that ran: fewer when threads x size would exceed the data cap. */
  public final int threadsRun;
  /** 1-based round. */
  public final int round;
  /** Position of this variant in the round's shuffled order, 1-based. */
  public final int order;
  /** Operations done (threads run x operations per thread). */
  public int ops;
  /** Object bytes moved (GET: returned; PUT: stored), not counting parities or Δ's extra reads. */
  public long bytes;
  /** Wall time of the steps, summed: from the start of a step's operations to the last's end. */
  public long wallNanos;
  /**
   * How long the round waited, before it started, for the workers to remove what earlier PUTs
   * deleted ({@link DatapathSettings#removalTimeoutMs}); in no measured span.
   */
  public long removalWaitNanos;
  /**
   * CPU of every thread of this process but the measuring one (client, master, workers, GC, JIT:
   * all run here) from the first step's start to the last one's end, nanoseconds, from Linux's
   * per-thread run times ({@link ProcessCpu}); elsewhere the same as {@link #processCpuNanos}.
   */
  public long cpuNanos;
  /**
   * {@link #cpuNanos} by the side of the cluster each thread works for ({@link CpuSide}); empty
   * where Linux's per-thread run times are not readable.
   */
  final EnumMap<CpuSide, Long> cpuNanosBySide = new EnumMap<>(CpuSide.class);
  /**
   * The same span from {@code OperatingSystemMXBean.getProcessCpuTime} less the measuring
   * thread's CPU: Linux counts it in 10 ms clock ticks, so it is off by up to a tick either way (and
   * can be negative for a tiny round); a cross-check.
   */
  public long processCpuNanos;
  /** Bytes compared with the data written (GETs); equals {@link #bytes} for a GET. */
  public long verifiedBytes;
  /** eccache GETs: windows decoded, and windows whose extra reads a late data split started. */
  public long decodes;
  public long hedges;
  /** Latency of every operation, microseconds. */
  public final Histogram latencyMicros = new Histogram(3);

  RoundResult(Variant variant, long sizeBytes, int threads, int threadsRun, int round, int order) {
    this.variant = variant;
    this.sizeBytes = sizeBytes;
    this.threads = threads;
    this.threadsRun = threadsRun;
    this.round = round;
    this.order = order;
  }

  /** Object MiB per second of wall time. */
  public double mibPerSecond() {
    return bytes / (double) DatapathSettings.MIB / (wallNanos / 1e9);
  }

  /** Process CPU milliseconds per object MiB moved. */
  public double cpuMsPerMib() {
    return cpuNanos / 1e6 / (bytes / (double) DatapathSettings.MIB);
  }

  /**
   * CPU milliseconds per object MiB of the threads on {@code side}; NaN when not measured by side.
   */
  double cpuMsPerMib(CpuSide side) {
    if (cpuNanosBySide.isEmpty()) {
      return Double.NaN;
    }
    return cpuNanosBySide.getOrDefault(side, 0L) / 1e6 / (bytes / (double) DatapathSettings.MIB);
  }

  /** Median operation latency, ms. */
  public double p50Ms() {
    return latencyMicros.getValueAtPercentile(50) / 1000.0;
  }

  /** 99th percentile operation latency, ms. */
  public double p99Ms() {
    return latencyMicros.getValueAtPercentile(99) / 1000.0;
  }

  /** Slowest operation, ms. */
  public double maxMs() {
    return latencyMicros.getMaxValue() / 1000.0;
  }
}
