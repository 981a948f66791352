package io.eccache.benchmarks.logecmem;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** The testbed's calls by kind: what an operation costs in round trips, counted as issued. */
final class OpCounts {
  /** A kind of call. */
  enum Kind {
    /** A chunk read from a DRAM node. */
    GET,
    /** A chunk written to a DRAM node. */
    SET,
    /** A chunk removed from a DRAM node (full-stripe's compaction). */
    DELETE,
    /** A data delta sent to a log node (acked once buffered). */
    LOG_APPEND,
    /** A stripe's parity row set on a log node at sealing. */
    LOG_BASE,
    /** A parity row read from a log node (degraded reads with two or more failures). */
    LOG_READ
  }

  private final Map<Kind, AtomicLong> counts = new LinkedHashMap<>();

  OpCounts() {
    for (Kind kind : Kind.values()) {
      counts.put(kind, new AtomicLong());
    }
  }

  void add(Kind kind, long n) {
    counts.get(kind).addAndGet(n);
  }

  long get(Kind kind) {
    return counts.get(kind).get();
  }

  /** The counts now, indexed by {@link Kind#ordinal()}. */
  long[] values() {
    long[] v = new long[Kind.values().length];
    counts.forEach((kind, n) -> v[kind.ordinal()] = n.get());
    return v;
  }

  /** A copy of the counts now. */
  Map<Kind, Long> snapshot() {
    Map<Kind, Long> copy = new LinkedHashMap<>();
    counts.forEach((kind, n) -> copy.put(kind, n.get()));
    return copy;
  }
}
