package io.eccache.client;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * What this client's transfers cost: bytes read from each worker, counted as they arrive (late
 * binding's extra reads included: they loaded the worker too), apart from them the unread rest of
 * reads stopped part-way (which Alluxio's block stream had usually sent already) and the bytes of
 * fallbacks to S3 (sent by a worker Alluxio does not name), decodes, and coding time (encoding is
 * its PUTs' and, for a maintainer sharing its context, repairs'). The load imbalance the paper
 * measures is computed from the bytes.
 */
public final class ReadStatistics {
  private final ConcurrentHashMap<String, LongAdder> bytesByWorker = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, LongAdder> unreadByWorker = new ConcurrentHashMap<>();
  private final LongAdder decodes = new LongAdder();
  private final LongAdder fallbacks = new LongAdder();
  private final LongAdder fallbackBytes = new LongAdder();
  private final LongAdder decodeNanos = new LongAdder();
  private final LongAdder encodeNanos = new LongAdder();
  private final LongAdder discarded = new LongAdder();
  private final LongAdder hedges = new LongAdder();
  private final LongAdder stalled = new LongAdder();
  private final LongAdder cancelled = new LongAdder();

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

  void addUnread(String workerHost, long bytes) {
    unreadByWorker.computeIfAbsent(workerHost, h -> new LongAdder()).add(bytes);
  }

  /**
   * Per worker host, the bytes of split ranges this client stopped reading part-way because k
   * others had arrived (late binding). Alluxio's block stream sends ahead of the reader, so the
   * worker has usually sent them already: they are bytes its link carried that
   * {@link #bytesByWorker()} does not count (at most, since the stream's buffer is finite).
   */
  public Map<String, Long> unreadBytesByWorker() {
    Map<String, Long> snapshot = new TreeMap<>();
    unreadByWorker.forEach((host, n) -> snapshot.put(host, n.sum()));
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

  void addHedge() {
    hedges.increment();
  }

  /**
   * Windows whose extra reads a {@code HEDGED} GET started because a data split was late (the
   * fraction of reads paying a hedge's delay and its extra bytes).
   */
  public long hedges() {
    return hedges.sum();
  }

  void addStalled(int reads) {
    stalled.add(reads);
    ClientMetrics.READS_STALLED.inc(reads);
  }

  /**
   * Split reads given up on because they sent nothing while their peers delivered (a hung,
   * partitioned or badly straggling worker), each replaced by another split.
   */
  public long stalledReads() {
    return stalled.sum();
  }

  void addCancelled() {
    cancelled.increment();
  }

  /** Split reads cancelled at their worker because their GET had its k without them. */
  public long cancelledReads() {
    return cancelled.sum();
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
    unreadByWorker.clear();
    decodes.reset();
    hedges.reset();
    stalled.reset();
    cancelled.reset();
    fallbacks.reset();
    fallbackBytes.reset();
    decodeNanos.reset();
    encodeNanos.reset();
    discarded.reset();
  }
}
