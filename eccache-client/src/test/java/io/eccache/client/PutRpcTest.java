package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.metrics.MetricsSystem;
import com.codahale.metrics.Timer;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestData;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a PUT asks of the master, counted with Alluxio's own RPC timers ({@code AbstractClient}
 * times every client RPC under its name): a PUT of n splits makes one Allocate, one Commit, and per
 * split only the block id and the completion, 2n + 2 in all. The split files (and their directory)
 * are created by the coordinator in the Allocate, so the writer makes no CreateFile,
 * CreateDirectory or GetStatus call, and nothing else is asked one split at a time.
 */
class PutRpcTest {
  @RegisterExtension
  static final SharedCluster CLUSTER = ClientTestCluster.fiveWorkers();

  /** The file-system master's and the coordinator's client RPCs, by the names Alluxio times. */
  private static final Set<String> MASTER_RPCS = Set.of("Allocate", "Commit", "PlaceSplit",
      "Lookup", "CreateFile", "CreateDirectory", "GetNewBlockIdForFile", "CompleteFile",
      "GetStatus", "ListStatus", "Exists", "SetAttribute", "Delete", "Rename", "Mount",
      "ScheduleAsyncPersistence", "UpdateUfsMode", "GetMountTable");

  /** Calls per RPC name so far (the RPC timers' counts; UFS operations left out). */
  private static Map<String, Long> masterCalls() {
    Map<String, Long> counts = new HashMap<>();
    for (Map.Entry<String, Timer> e : MetricsSystem.METRIC_REGISTRY.getTimers().entrySet()) {
      String[] parts = e.getKey().split("\\.");
      // "<process>.<Rpc>.User:<name>"; the master's own calls to S3 carry a ".UFS:" tag
      if (parts.length >= 2 && MASTER_RPCS.contains(parts[1]) && !e.getKey().contains(".UFS:")) {
        counts.merge(parts[1], e.getValue().getCount(), Long::sum);
      }
    }
    return counts;
  }

  @Test
  void aPutOfNSplitsMakesTwoMasterCallsPerSplitAndTwoInAll() throws Exception {
    int puts = 3;
    int splits = 4; // RS(3,1)
    try (EcCacheClient cache = ClientTestCluster.client(CLUSTER.cluster())) {
      byte[] data = TestData.randomBytes(150_000, 1);
      cache.put(CLUSTER.key("warm"), data, PutOptions.code(3, 1)); // the worker list is cached
      Map<String, Long> before = masterCalls();
      for (int i = 0; i < puts; i++) {
        cache.put(CLUSTER.key("k" + i), data, PutOptions.code(3, 1));
      }
      Map<String, Long> after = masterCalls();
      Map<String, Long> made = new HashMap<>();
      for (Map.Entry<String, Long> e : after.entrySet()) {
        long d = e.getValue() - before.getOrDefault(e.getKey(), 0L);
        if (d > 0) {
          made.put(e.getKey(), d);
        }
      }
      // One Allocate per PUT; in one JVM the master's handlers time their side under the same
      // names, so every call may count twice: counts are taken per Allocate.
      long perCall = made.getOrDefault("Allocate", 0L) / puts;
      assertTrue(perCall == 1 || perCall == 2, "Allocate calls per PUT: " + made);
      long total = 0;
      for (long d : made.values()) {
        total += d;
      }
      assertEquals(0, made.getOrDefault("CreateFile", 0L), "split files are created by the"
          + " coordinator: " + made);
      assertEquals(0, made.getOrDefault("CreateDirectory", 0L) + made.getOrDefault("GetStatus",
          0L) + made.getOrDefault("SetAttribute", 0L), "nothing redundant: " + made);
      assertEquals((long) splits * puts * perCall, made.getOrDefault("GetNewBlockIdForFile", 0L),
          "one block per split: " + made);
      assertEquals((long) (2 * splits + 2) * puts * perCall, total, "2n + 2 master calls per"
          + " PUT of n splits: " + made);
      for (int i = 0; i < puts; i++) {
        assertArrayEquals(data, cache.get(CLUSTER.key("k" + i)));
      }
    }
  }
}
