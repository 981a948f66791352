package io.eccache.common;

/**
 * The name of every eccache metric, in one place. They live in Alluxio's metrics system
 * ({@code alluxio.metrics.MetricsSystem}), so they reach whatever sinks the Alluxio user configured
 * in {@code metrics.properties} (JMX, Prometheus, CSV, console, Graphite). Alluxio prefixes each with
 * the process type: {@code Master.EcCache...} in the master (the coordinator), {@code
 * Client.EcCache...} in a client. docs/metrics.md describes each.
 */
public final class EcCacheMetrics {
  private EcCacheMetrics() {}

  // Client: timers are in nanoseconds and count events; counters count events or bytes.
  /** Timer: one GET (byte array) or one whole-stream read, from lookup to last byte. */
  public static final String GET_LATENCY = "EcCacheGetLatency";
  /** Timer: one PUT, from allocation to commit. */
  public static final String PUT_LATENCY = "EcCachePutLatency";
  /** Counter: split (or copy, partition) reads that arrived intact and were used. */
  public static final String SPLITS_READ = "EcCacheSplitsRead";
  /**
   * Counter: late binding's extra reads stopped part-way because k splits had arrived first. A read
   * stops only between slices (1 MiB), so a split range no longer than a slice is never stopped:
   * it is read whole and counted in {@link #READS_DISCARDED}.
   */
  public static final String READS_STOPPED_EARLY = "EcCacheSplitReadsStoppedEarly";
  /**
   * Counter: late binding's extra reads that were read whole after k others had arrived and were
   * thrown away; their bytes are in {@link #BYTES_READ} (the paper's overhead of Δ/k).
   */
  public static final String READS_DISCARDED = "EcCacheSplitReadsDiscarded";
  /** Counter: split reads that failed (dead worker, corrupt cell) and were replaced or given up. */
  public static final String READS_FAILED = "EcCacheSplitReadsFailed";
  /**
   * Counter: split reads given up on because they sent nothing while their peers delivered (a
   * hung, partitioned or straggling worker), each replaced by a split not yet asked for.
   */
  public static final String READS_STALLED = "EcCacheSplitReadsStalled";
  /** Counter: bytes read from workers, extra reads included. */
  public static final String BYTES_READ = "EcCacheBytesRead";
  /** Counter: bytes of splits written (parities included). */
  public static final String BYTES_WRITTEN = "EcCacheBytesWritten";
  /** Splits a PUT wrote again on another worker because theirs failed during the write. */
  public static final String SPLITS_REPLACED = "EcCacheSplitsReplaced";
  /** Timer: decoding missing data splits of one read window. */
  public static final String DECODE_TIME = "EcCacheDecodeTime";
  /** Timer: encoding the parities of one stripe. */
  public static final String ENCODE_TIME = "EcCacheEncodeTime";
  /** Counter: reads served from the under store (S3) because the cache could not. */
  public static final String UNDER_STORE_FALLBACKS = "EcCacheUnderStoreFallbacks";
  /** Counter: maintenance tasks (add, repair, repartition) a client carried out. */
  public static final String MAINTENANCE_TASKS = "EcCacheMaintenanceTasks";
  /** Counter: PUTs that updated a packed value where it is (not written anew). */
  public static final String UPDATES_IN_PLACE = "EcCacheUpdatesInPlace";
  /**
   * Timers {@code EcCacheUpdatePhase.<PHASE>}: one phase of a committed update in place (LEASE,
   * READ_UNITS, COMPUTE, WRITE_UNITS, LOG_ACKS, COMMIT, DECIDE).
   */
  public static final String UPDATE_PHASE = "EcCacheUpdatePhase";

  // Coordinator (master): gauges over its counters and its last re-tuning pass.
  /** Gauge: objects stored. */
  public static final String OBJECTS = "EcCacheObjects";
  /** Gauge: lookups served (a GET whose client had not cached the key's layout). */
  public static final String LOOKUPS = "EcCacheLookups";
  /** Gauge: GETs clients served from cached layouts, as they reported them (ReportReads). */
  public static final String READS_REPORTED = "EcCacheReadsReported";
  /** Gauge: splits (parities, copies) added for popular objects. */
  public static final String SPLITS_ADDED = "EcCacheSplitsAdded";
  /** Gauge: splits dropped from objects that cooled. */
  public static final String SPLITS_DROPPED = "EcCacheSplitsDropped";
  /** Gauge: splits rebuilt after their worker was lost. */
  public static final String SPLITS_REPAIRED = "EcCacheSplitsRepaired";
  /** Gauge: SP-Cache objects repartitioned. */
  public static final String REPARTITIONS = "EcCacheRepartitions";
  /** Gauge: maintenance tasks queued or leased. */
  public static final String TASKS_PENDING = "EcCacheMaintenanceTasksPending";
  /** Gauge: workers lost since the master started. */
  public static final String WORKERS_LOST = "EcCacheWorkersLost";

  /** Gauge per kind of scheme (ec, replica, partition): bytes its objects take in the cache. */
  public static String cachedBytes(RedundancyScheme.Kind kind) {
    return "EcCacheCachedBytes." + kind.label();
  }

  /** Gauge per kind: bytes of its objects themselves (memory overhead = cached / this - 1). */
  public static String objectBytes(RedundancyScheme.Kind kind) {
    return "EcCacheObjectBytes." + kind.label();
  }
}
