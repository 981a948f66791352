package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import alluxio.metrics.MetricsSystem;
import com.codahale.metrics.Timer;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestData;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PutRpcTest {
  @RegisterExtension
  static final SharedCluster CLUSTER = ClientTestCluster.fiveWorkers();

  private static Map<String, Long> rpcs() {
    Map<String, Long> counts = new TreeMap<>();
    for (Map.Entry<String, Timer> e : MetricsSystem.METRIC_REGISTRY.getTimers().entrySet()) {
      counts.put(e.getKey(), e.getValue().getCount());
    }
    return counts;
  }

  @Test
  void diagnose() throws Exception {
    try (EcCacheClient cache = ClientTestCluster.client(CLUSTER.cluster())) {
      byte[] data = TestData.randomBytes(150_000, 1);
      cache.put(CLUSTER.key("warm"), data, PutOptions.code(3, 1));
      for (int round = 0; round < 8; round++) {
        Map<String, Long> before = rpcs();
        long t = System.nanoTime();
        cache.put(CLUSTER.key("k" + round), data, PutOptions.code(3, 1));
        long ms = (System.nanoTime() - t) / 1_000_000;
        Map<String, Long> after = rpcs();
        StringBuilder sb = new StringBuilder("PUT " + ms + " ms:");
        for (Map.Entry<String, Long> e : after.entrySet()) {
          long d = e.getValue() - before.getOrDefault(e.getKey(), 0L);
          if (d != 0) {
            sb.append("\n  ").append(e.getKey()).append(" +").append(d);
          }
        }
        System.out.println(sb);
        assertArrayEquals(data, cache.get(CLUSTER.key("k" + round)));
      }
    }
  }
}
