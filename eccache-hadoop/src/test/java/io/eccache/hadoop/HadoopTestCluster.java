package io.eccache.hadoop;

import alluxio.conf.Configuration;
import alluxio.conf.PropertyKey;
import io.eccache.common.MasterKeys;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.SharedCluster;
import java.net.URI;

/**
 * The cluster this module's tests share: 4 workers of 64 MiB, RS(2,1) by default and 64 KB cells,
 * so files of a few hundred KB span several stripes.
 */
final class HadoopTestCluster {
  private HadoopTestCluster() {}

  static SharedCluster fourWorkers() {
    return SharedCluster.of(EmbeddedCluster.builder().workers(4).workerMemoryBytes(64L << 20)
        .property(MasterKeys.DEFAULT_K, 2).property(MasterKeys.DEFAULT_R, 1)
        .property(MasterKeys.CELL_SIZE, "64KB"));
  }

  /** {@code eccache://host:port/}: the running cluster's master, named in the URI. */
  static URI uri() {
    return URI.create(EcCacheFileSystem.SCHEME + "://"
        + Configuration.getString(PropertyKey.MASTER_HOSTNAME) + ":"
        + Configuration.getInt(PropertyKey.MASTER_RPC_PORT) + "/");
  }
}
