package io.eccache.client;

import alluxio.conf.Configuration;
import alluxio.conf.InstancedConfiguration;
import alluxio.conf.PropertyKey;
import io.eccache.common.EcCacheKeys;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.SharedCluster;

/**
 * The cluster most client tests share (see {@link SharedCluster}): 5 workers of 128 MiB, lost after
 * 3 s of silence, RS(3,1) by default, 64 KB cells and 400 KB stream windows (so objects of a few MB
 * span many stripes and windows), an allocation timeout of 6 s (so the sweep of abandoned PUTs is
 * seen within a test) and a retired-version grace of 60 s (longer than any read here).
 * Classes that need another worker count or master settings declare their own spec.
 */
final class ClientTestCluster {
  static final int WORKERS = 5;

  private ClientTestCluster() {}

  /** The shared spec; classes that register it share one cluster in a JVM. */
  static SharedCluster fiveWorkers() {
    return SharedCluster.workers(WORKERS).workerMemoryBytes(128L << 20).workerTimeout("3s")
        .property(EcCacheKeys.DEFAULT_K, 3).property(EcCacheKeys.DEFAULT_R, 1)
        .property(EcCacheKeys.CELL_SIZE, "64KB").property(EcCacheKeys.USER_STREAM_WINDOW, "400KB")
        .property(EcCacheKeys.ALLOCATION_TIMEOUT, "6s").property(EcCacheKeys.RETIRED_GRACE, "60s")
        .build();
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
