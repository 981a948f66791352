package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.common.ClientKeys;
import io.eccache.common.MasterKeys;
import io.eccache.common.WorkerKeys;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Sealed packed values take (k + 1)/k of their bytes in Alluxio's tiers, counted by Alluxio itself
 * (the block master's used bytes), once their replicas are swept. A cluster of its own, holding
 * nothing else, with a short grace so the sweep removes the replicas by itself (named to run after
 * the classes sharing the five-worker cluster).
 */
@Timeout(180)
class SealedValueMemoryTest {
  private static final int K = 3;

  @RegisterExtension
  static final SharedCluster CLUSTER = SharedCluster.of(EmbeddedCluster.builder().workers(4)
      .workerMemoryBytes(16L << 20).workerTimeout("3s")
      .property(MasterKeys.RETIRED_GRACE, "1s").property(ClientKeys.LAYOUT_CACHE_TTL, "0ms")
      .property(MasterKeys.PACKED_NAMESPACES, "kvm=packed-3-2:1KB")
      .property(WorkerKeys.LOG_NODE_ENABLED, true).property(WorkerKeys.LOG_NODE_FSYNC, false));

  /** Values of 256 bytes fill 1 KiB units exactly. */
  @Test
  void sealedValuesTakeKPlusOneOverKOfTheirBytesInAlluxiosTiers() throws Exception {
    EmbeddedCluster cluster = CLUSTER.cluster();
    try (PackedFixture packed = PackedFixture.open(CLUSTER)) {
      long before = cluster.settledUsedBytes(1000);
      int n = 120;
      for (int i = 0; i < n; i++) {
        packed.cache().put("kvm/" + CLUSTER.key("m" + i), TestData.randomBytes(256, 500 + i));
      }
      for (int round = 0; round < 20 && packed.maintainer().runOnce() > 0; round++) {
        // until every submitted seal is done
      }
      long used = cluster.settledUsedBytes(1000) - before;
      CacheStats.PackedUsage usage = packed.cache().stats().packed().stream()
          .filter(p -> p.namespace.equals("kvm")).findFirst().orElseThrow();
      assertEquals(n, usage.values + usage.waitingValues);
      assertTrue(usage.values >= n / 2, "most are sealed: " + usage);
      double measured = (double) (used - usage.waitingBytes) / usage.valueBytes;
      System.out.printf("packed memory: %d bytes used in Alluxio's tiers, %d of them waiting"
          + " replicas, %d sealed value bytes: %.4fx (k + 1)/k = %.4f%n", used,
          usage.waitingBytes, usage.valueBytes, measured, (K + 1) / (double) K);
      assertEquals((K + 1) / (double) K, measured, 0.02, "Alluxio's used bytes beyond the"
          + " waiting replicas, per sealed byte (" + used + " used, " + usage + ")");
      assertEquals((K + 1) / (double) K, usage.memory(), 0.001, "stats: " + usage);
    }
  }
}
