package io.eccache.client;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * What this client's transfers cost: bytes read from each worker, counted as they arrive (cancelled
 * reads included: they loaded the worker too), decodes, fallbacks to S3, and coding time (encoding
 * is its PUTs' and, for a maintainer sharing its context, repairs'). The load imbalance the paper
 * measures is computed from the bytes.
 */
public final class ReadStatistics {
  private final ConcurrentHashMap<String, LongAdder> bytesByWorker = new ConcurrentHashMap<>();
  private final LongAdder decodes = new LongAdder();
  private final LongAdder fallbacks = new LongAdder();
  private final LongAdder fallbackBytes = new LongAdder();
  private final LongAdder decodeNanos = new LongAdder();
  private final LongAdder encodeNanos = new LongAdder();
  private final LongAdder discarded = new LongAdder();

  void addBytes(String workerHost, long bytes) {
    bytesByWorker.computeIfAbsent(workerHost, h -> new LongAdder()).add(bytes);
    ClientMetrics.BYTES_READ.inc(bytes);
  }

  void addDecode(long nanos) {
    decodes.increment();
    decodeNanos.add(nanos);
    ClientMetrics.DECODE_TIME.update(nanos, TimeUnit.NANOSECONDS);
  }

  void addEncode(long nanos) {
    encodeNanos.add(nanos);
    ClientMetrics.ENCODE_TIME.update(nanos, TimeUnit.NANOSECONDS);
  }

  /** Time spent encoding parities (PUTs, and repairs through this context), in nanoseconds. */
  public long encodeNanos() {
    return encodeNanos.sum();
  }

  /** Time spent decoding, in nanoseconds (for the decode share of read time). */
  public long decodeNanos() {
    return decodeNanos.sum();
  }

  /** Bytes read per worker host since the last {@link #reset()}, sorted by host. */
  public Map<String, Long> bytesByWorker() {
    Map<String, Long> snapshot = new TreeMap<>();
    bytesByWorker.forEach((host, n) -> snapshot.put(host, n.sum()));
    return snapshot;
  }

  void addDiscarded() {
    discarded.increment();
    ClientMetrics.READS_DISCARDED.inc();
  }

  /**
   * Split reads read whole and thrown away because k others arrived first (late binding's extra
   * reads that finished within one slice of the cancellation check).
   */
  public long discardedReads() {
    return discarded.sum();
  }

  void addFallback() {
    fallbacks.increment();
    ClientMetrics.UNDER_STORE_FALLBACKS.inc();
  }

  /** GETs served from the under store (S3) because the cache could not serve them. */
  public long fallbacks() {
    return fallbacks.sum();
  }

  void addFallbackBytes(long bytes) {
    fallbackBytes.add(bytes);
  }

  /**
   * Bytes read from the under store's copy. Alluxio reads them from S3 through a worker it chooses
   * and does not say which, so they are in no worker's {@link #bytesByWorker()} count, though that
   * worker sent them.
   */
  public long fallbackBytes() {
    return fallbackBytes.sum();
  }

  /** Reads (windows of a GET) that had to decode a missing data split. */
  public long decodes() {
    return decodes.sum();
  }

  public void reset() {
    bytesByWorker.clear();
    decodes.reset();
    fallbacks.reset();
    fallbackBytes.reset();
    decodeNanos.reset();
    encodeNanos.reset();
    discarded.reset();
  }
}
