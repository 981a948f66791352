package io.eccache.benchmarks.logecmem;

import io.eccache.benchmarks.kv.KvOp;
import io.eccache.benchmarks.kv.KvTrace;
import java.io.IOException;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * Replays a trace against one store, as one closed-loop client: the load phase's inserts, the
 * sealing of what waits, then the run phase, each request timed (microseconds). Every read is
 * checked against the value last written under its key (values are made from the key and its
 * version), so a scheme that returns a wrong byte fails the run rather than looking fast.
 */
final class KvRunner {
  /** What one replay measured. */
  static final class Result {
    final String scheme;
    final Map<KvOp.Kind, Histogram> latencyMicros = new EnumMap<>(KvOp.Kind.class);
    /** Updates' parity work alone (the artifact's timer), microseconds. */
    final Histogram parityMicros = histogram();
    Map<OpCounts.Kind, Long> runCounts;
    /** The calls of the measured requests, by the request's kind, then the call's kind. */
    final Map<KvOp.Kind, long[]> callsByRequest = new EnumMap<>(KvOp.Kind.class);
    long runRequests;
    long runNanos;
    long wrongReads;
    /** Work the scheme deferred to the end of the run ({@link KvStore#finishRun()}). */
    long finishNanos;
    /** The DRAM nodes' bytes after the run phase, before the deferred work; -1 if not probed. */
    long dramBytesAfterRun = -1;
    /** The DRAM nodes' bytes after the deferred work; -1 if not probed. */
    long dramBytesAfterFinish = -1;

    Result(String scheme) {
      this.scheme = scheme;
      for (KvOp.Kind kind : KvOp.Kind.values()) {
        latencyMicros.put(kind, histogram());
        callsByRequest.put(kind, new long[OpCounts.Kind.values().length]);
      }
    }

    /** The calls of {@code call} kind per measured request of {@code request} kind. */
    double callsPer(KvOp.Kind request, OpCounts.Kind call) {
      long n = latencyMicros.get(request).getTotalCount();
      return n == 0 ? 0 : callsByRequest.get(request)[call.ordinal()] / (double) n;
    }

    /**
     * The mean update latency with the deferred work spread over the measured updates, as the
     * paper's artifact averages FSMem's; microseconds.
     */
    double updateMeanWithDeferredMicros() {
      Histogram updates = latencyMicros.get(KvOp.Kind.UPDATE);
      long n = updates.getTotalCount();
      return n == 0 ? 0 : updates.getMean() + finishNanos / 1000.0 / n;
    }

    /** Requests per second of the run phase. */
    double throughput() {
      return runRequests / (runNanos / 1e9);
    }
  }

  private final int valueBytes;
  private final long seed;
  private final int warmup;

  /**
   * @param valueBytes every value's size
   * @param seed the values' seed
   * @param warmup run-phase requests done first and not recorded (JIT, connections)
   */
  KvRunner(int valueBytes, long seed, int warmup) {
    this.valueBytes = valueBytes;
    this.seed = seed;
    this.warmup = warmup;
  }

  static Histogram histogram() {
    return new Histogram(60_000_000L, 3);
  }

  /** The value of {@code key} at {@code version}: the same bytes whenever asked. */
  byte[] value(String key, int version) {
    byte[] v = new byte[valueBytes];
    new SplittableRandom(seed * 1_000_003L + key.hashCode() * 31L + version).nextBytes(v);
    return v;
  }

  /** What the memory of the store's nodes is now, in bytes. */
  interface MemoryProbe {
    long bytes() throws IOException;
  }

  /** Something done between the load phase and the run phase. */
  interface AfterLoad {
    void run() throws IOException;
  }

  private AfterLoad afterLoad = () -> { };

  /** Runs {@code action} once the load phase is sealed, before the run phase starts. */
  KvRunner afterLoad(AfterLoad action) {
    this.afterLoad = action;
    return this;
  }

  /**
   * Loads and runs {@code trace} on {@code store}; {@code progress} gets a line now and then.
   *
   * @throws IOException if a request fails
   */
  Result run(KvStore store, KvTrace trace, Consumer<String> progress) throws IOException {
    return run(store, trace, progress, null);
  }

  /** As {@link #run(KvStore, KvTrace, Consumer)}, with the memory probed at the run's end. */
  Result run(KvStore store, KvTrace trace, Consumer<String> progress, MemoryProbe memory)
      throws IOException {
    Result result = new Result(store.name());
    Map<String, Integer> versions = new HashMap<>();
    for (KvOp op : trace.load()) {
      store.insert(op.key(), value(op.key(), 0));
      versions.put(op.key(), 0);
    }
    store.finishLoad();
    afterLoad.run();
    Map<OpCounts.Kind, Long> before = store.counts().snapshot();
    long start = System.nanoTime();
    long done = 0;
    int seen = 0;
    for (KvOp op : trace.run()) {
      if (seen++ == warmup) {
        before = store.counts().snapshot();
        start = System.nanoTime();
        result.latencyMicros.values().forEach(Histogram::reset);
        result.parityMicros.reset();
        result.callsByRequest.values().forEach(a -> java.util.Arrays.fill(a, 0));
        done = 0;
      }
      long[] callsBefore = store.counts().values();
      long t0 = System.nanoTime();
      switch (op.kind()) {
        case READ: {
          byte[] got = store.read(op.key());
          record(result, op.kind(), t0);
          if (!java.util.Arrays.equals(got, value(op.key(), versions.get(op.key())))) {
            result.wrongReads++;
          }
          break;
        }
        case UPDATE: {
          int version = versions.merge(op.key(), 1, Integer::sum);
          store.update(op.key(), value(op.key(), version));
          record(result, op.kind(), t0);
          result.parityMicros.recordValue(Math.max(1, store.lastParityNanos() / 1000));
          break;
        }
        default: {
          versions.put(op.key(), 0);
          store.insert(op.key(), value(op.key(), 0));
          record(result, op.kind(), t0);
        }
      }
      long[] callsAfter = store.counts().values();
      long[] calls = result.callsByRequest.get(op.kind());
      for (int i = 0; i < calls.length; i++) {
        calls[i] += callsAfter[i] - callsBefore[i];
      }
      if (++done % 20_000 == 0) {
        progress.accept(store.name() + ": " + seen + " of " + trace.run().size() + " requests");
      }
    }
    result.runNanos = System.nanoTime() - start;
    result.runRequests = done;
    if (memory != null) {
      result.dramBytesAfterRun = memory.bytes();
    }
    result.finishNanos = store.finishRun();
    if (memory != null) {
      result.dramBytesAfterFinish = memory.bytes();
    }
    Map<OpCounts.Kind, Long> after = store.counts().snapshot();
    Map<OpCounts.Kind, Long> delta = new EnumMap<>(OpCounts.Kind.class);
    Map<OpCounts.Kind, Long> measuredFrom = before;
    after.forEach((kind, n) -> delta.put(kind, n - measuredFrom.get(kind)));
    result.runCounts = delta;
    return result;
  }

  private static void record(Result result, KvOp.Kind kind, long t0) {
    result.latencyMicros.get(kind).recordValue(Math.max(1, (System.nanoTime() - t0) / 1000));
  }
}
