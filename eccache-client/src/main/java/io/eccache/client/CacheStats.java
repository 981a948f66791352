package io.eccache.client;

import io.eccache.common.SchemeProtos;
import io.eccache.common.proto.SchemeStats;
import io.eccache.common.proto.StatsResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The coordinator's counters at one moment: workers, objects, the write and read protocol, what
 * re-tuning and maintenance did, and memory per kind of scheme against its budget. Counters run
 * from the coordinator's start (they are soft state: a restarted master starts them again).
 */
public final class CacheStats {
  private final StatsResponse stats;
  private final List<SchemeUsage> schemes;

  private CacheStats(StatsResponse stats) {
    this.stats = stats;
    List<SchemeUsage> usage = new ArrayList<>();
    for (SchemeStats s : stats.getSchemesList()) {
      usage.add(new SchemeUsage(SchemeProtos.fromProto(s.getKind()), s.getObjects(),
          s.getObjectBytes(), s.getCachedBytes(), s.getBudgetBytes()));
    }
    this.schemes = Collections.unmodifiableList(usage);
  }

  static CacheStats of(StatsResponse stats) {
    return new CacheStats(stats);
  }

  /** Workers the master counts as alive. */
  public int liveWorkers() {
    return stats.getLiveWorkers();
  }

  /** Objects cached now. */
  public long objects() {
    return stats.getObjects();
  }

  public long allocations() {
    return stats.getAllocations();
  }

  public long commits() {
    return stats.getCommits();
  }

  /** Lookups counted as reads: a GET makes one unless its client had the key's layout cached. */
  public long lookups() {
    return stats.getLookups();
  }

  /** GETs clients served from cached layouts (no lookup), as they reported them. */
  public long readsReported() {
    return stats.getReadsReported();
  }

  public long workersLost() {
    return stats.getWorkersLost();
  }

  /** Parities or copies added to popular objects. */
  public long splitsAdded() {
    return stats.getSplitsAdded();
  }

  /** Parities or copies dropped from objects that cooled down. */
  public long splitsDropped() {
    return stats.getSplitsDropped();
  }

  /** Splits rebuilt after their worker was lost. */
  public long splitsRepaired() {
    return stats.getSplitsRepaired();
  }

  /** Partitioned objects stored again with another number of partitions. */
  public long repartitions() {
    return stats.getRepartitions();
  }

  /** Bytes maintainers read and wrote. */
  public long maintenanceBytes() {
    return stats.getMaintenanceBytes();
  }

  /** Maintenance tasks queued or leased, not done yet. */
  public long tasksPending() {
    return stats.getTasksPending();
  }

  public long tasksFailed() {
    return stats.getTasksFailed();
  }

  /** Re-tuning passes run so far. */
  public long retunePasses() {
    return stats.getRetunePasses();
  }

  /** The live log nodes of packed namespaces (host:port). */
  public List<String> logNodes() {
    return stats.getLogNodesList();
  }

  /** Memory of each packed namespace (docs/packed.md). */
  public List<PackedUsage> packed() {
    List<PackedUsage> out = new ArrayList<>();
    for (io.eccache.common.proto.PackedStats p : stats.getPackedList()) {
      out.add(new PackedUsage(p.getNamespace(), p.getValues(), p.getValueBytes(), p.getStripes(),
          p.getStripeBytes(), p.getWaitingValues(), p.getWaitingBytes()));
    }
    return out;
  }

  /** One packed namespace's values and the memory they take. */
  public static final class PackedUsage {
    public final String namespace;
    /** Sealed values, and their bytes. */
    public final long values;
    public final long valueBytes;
    /** Stripes holding them, and their cached units' bytes. */
    public final long stripes;
    public final long stripeBytes;
    /** Values waiting for their stripe, and the bytes of all their replicas. */
    public final long waitingValues;
    public final long waitingBytes;

    PackedUsage(String namespace, long values, long valueBytes, long stripes, long stripeBytes,
        long waitingValues, long waitingBytes) {
      this.namespace = namespace;
      this.values = values;
      this.valueBytes = valueBytes;
      this.stripes = stripes;
      this.stripeBytes = stripeBytes;
      this.waitingValues = waitingValues;
      this.waitingBytes = waitingBytes;
    }

    /** Cached bytes per byte of sealed value ((k + 1)/k when units are full). */
    public double memory() {
      return valueBytes == 0 ? 0 : (double) stripeBytes / valueBytes;
    }

    @Override
    public String toString() {
      return namespace + ": " + values + " values in " + stripes + " stripes ("
          + String.format("%.2fx", memory()) + "), " + waitingValues + " waiting";
    }
  }

  /** Memory per kind of scheme, one entry per kind in use. */
  public List<SchemeUsage> schemes() {
    return schemes;
  }

  @Override
  public String toString() {
    return "CacheStats{liveWorkers=" + liveWorkers() + ", objects=" + objects() + ", lookups="
        + lookups() + ", readsReported=" + readsReported() + ", commits=" + commits() + ", workersLost=" + workersLost()
        + ", splitsAdded=" + splitsAdded() + ", splitsDropped=" + splitsDropped()
        + ", splitsRepaired=" + splitsRepaired() + ", repartitions=" + repartitions()
        + ", tasksPending=" + tasksPending() + ", tasksFailed=" + tasksFailed()
        + ", retunePasses=" + retunePasses() + ", schemes=" + schemes + "}";
  }
}
