package io.eccache.benchmarks.logecmem;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Degraded reads as the paper's Exps. 1 and 6 make them: DRAM nodes SIGKILLed, then values whose
 * home was the first of them read again, each timed and compared with the bytes it had before the
 * kill, with the calls they took counted.
 */
final class DegradedReads {
  /** What the reads took. */
  static final class Result {
    /** Values read around the killed nodes. */
    int reads;
    /** Their mean latency, µs. */
    double meanMicros;
    /** DRAM gets and log-node parity reads they issued. */
    long gets;
    long logReads;

    double getsPerRead() {
      return reads == 0 ? 0 : gets / (double) reads;
    }

    double logReadsPerRead() {
      return reads == 0 ? 0 : logReads / (double) reads;
    }
  }

  private DegradedReads() {}

  /**
   * Reads up to {@code limit} of {@code keys} whose home is DRAM node {@code kill[0]}, SIGKILLs
   * every node of {@code kill}, reads them again and compares.
   *
   * @throws IOException if a read fails or returns other bytes than before the kill
   */
  static Result measure(Testbed bed, KvStore store, List<String> keys, int limit, int... kill)
      throws IOException {
    List<String> chosen = new ArrayList<>();
    for (String key : keys) {
      if (chosen.size() < limit && store.homeNode(key) == kill[0]) {
        chosen.add(key);
      }
    }
    Map<String, byte[]> before = new LinkedHashMap<>();
    for (String key : chosen) {
      before.put(key, store.read(key));
    }
    for (int node : kill) {
      bed.dram.get(node).kill();
    }
    long gets = store.counts().get(OpCounts.Kind.GET);
    long logReads = store.counts().get(OpCounts.Kind.LOG_READ);
    long total = 0;
    for (Map.Entry<String, byte[]> e : before.entrySet()) {
      long t0 = System.nanoTime();
      byte[] got = store.read(e.getKey());
      total += System.nanoTime() - t0;
      if (!Arrays.equals(got, e.getValue())) {
        throw new IOException(store.name() + ": a degraded read of " + e.getKey()
            + " returned other bytes than before the kill");
      }
    }
    Result result = new Result();
    result.reads = chosen.size();
    result.meanMicros = chosen.isEmpty() ? 0 : total / 1e3 / chosen.size();
    result.gets = store.counts().get(OpCounts.Kind.GET) - gets;
    result.logReads = store.counts().get(OpCounts.Kind.LOG_READ) - logReads;
    return result;
  }
}
