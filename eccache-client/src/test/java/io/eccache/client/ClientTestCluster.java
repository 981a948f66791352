package io.eccache.client;

import alluxio.conf.Configuration;
import alluxio.conf.InstancedConfiguration;
import alluxio.conf.PropertyKey;
import io.eccache.common.ClientKeys;
import io.eccache.common.MasterKeys;
import io.eccache.common.ReadChoice;
import io.eccache.common.WorkerKeys;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.SharedCluster;
import java.time.Duration;

/**
 * The cluster most client tests share (see {@link SharedCluster}): 5 workers of 128 MiB, lost after
 * 3 s of silence, RS(3,1) by default, 64 KB cells and 400 KB stream windows (so objects of a few MB
 * span many stripes and windows), an allocation timeout of 10 min (long, so a slow first PUT on a
 * loaded machine is never abandoned; the sweep test moves the coordinator's clock past it instead)
 * and a retired-version grace of 60 s (longer than any read here), and Alluxio's audit log on.
 * Classes that need another worker count or master settings declare their own spec.
 */
final class ClientTestCluster {
  static final int WORKERS = 5;
  static final Duration ALLOCATION_TIMEOUT = Duration.ofMinutes(10);
  /** The packed namespace: RS(3, 2) stripes of 1 KiB units. */
  static final String PACKED = "kv";
  /** The packed namespace updated in place (IPMem): RS(2, 2), every parity in the cache. */
  static final String PACKED_INPLACE = "kvi";
  /**
   * A packed namespace as {@link #PACKED}, for the tests that need its stripes to hold their
   * values alone (compaction; the memory test, on a cluster of its own).
   */
  static final String PACKED_MEMORY = "kvm";

  private ClientTestCluster() {}

  /** The shared spec; classes that register it share one cluster in a JVM. */
  static SharedCluster fiveWorkers() {
    return SharedCluster.of(EmbeddedCluster.builder().workers(WORKERS)
        .workerMemoryBytes(128L << 20).workerTimeout("3s")
        .property(MasterKeys.DEFAULT_K, 3).property(MasterKeys.DEFAULT_R, 1)
        .property(MasterKeys.CELL_SIZE, "64KB").property(ClientKeys.STREAM_WINDOW, "400KB")
        .property(MasterKeys.ALLOCATION_TIMEOUT, ALLOCATION_TIMEOUT.toMillis() + "ms")
        .property(MasterKeys.RETIRED_GRACE, "60s")
        // The paper's random k + delta whatever this machine's load: the default (ADAPTIVE) hedges
        // while the CPU is busy, as it often is under the suite, and these tests count late
        // binding's extra reads.
        .property(ClientKeys.READ_CHOICE, ReadChoice.RANDOM)
        // Alluxio's audit log, so PermissionTest sees eccache's lines in it.
        .property(PropertyKey.MASTER_AUDIT_LOGGING_ENABLED, true)
        // A log node on every worker, and packed namespaces (PackedValuesTest, PackedUpdatesTest):
        // units of 1 KiB, so a few values seal a stripe; hybrid and in-place updates.
        .property(WorkerKeys.LOG_NODE_ENABLED, true).property(WorkerKeys.LOG_NODE_FSYNC, false)
        .property(MasterKeys.PACKED_NAMESPACES, PACKED + "=packed-3-2:1KB,"
            + PACKED_INPLACE + "=packed-2-2:inplace:1KB," + PACKED_MEMORY + "=packed-3-2:1KB"));
  }

  /** A client sharing the cluster's Alluxio context (close it after the test). */
  static EcCacheClient client(EmbeddedCluster cluster) {
    return EcCacheClient.create(cluster.fileSystemContext());
  }

  /** A client with its own context and a client-side property of its own, e.g. a stream window. */
  static EcCacheClient client(EmbeddedCluster cluster, PropertyKey key, Object value) {
    InstancedConfiguration conf = Configuration.copyGlobal();
    conf.set(key, value);
    return EcCacheClient.create(conf);
  }
}
