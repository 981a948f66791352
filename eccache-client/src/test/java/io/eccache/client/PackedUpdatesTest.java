package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Stripe;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Updates of packed values where they are (a PUT of a sealed key with the same size): hybrid
 * (LogECMem: the data unit and P1 rewritten, the delta logged at the log node) and in-place
 * (IPMem: the data unit and every parity rewritten), with their exact operation counts; every
 * parity, the log node's after it merged the delta, equals a fresh encode of the new data; updates
 * of values sharing a stripe are serialized by its lease and all land.
 */
@Timeout(180)
class PackedUpdatesTest {
  @RegisterExtension
  static final SharedCluster CLUSTER = ClientTestCluster.fiveWorkers();

  private EmbeddedCluster cluster;
  private EcCacheClient cache;
  private RedundancyMaintainer maintainer;
  private PackedFixture packed;

  @BeforeEach
  void start() throws Exception {
    cluster = CLUSTER.cluster();
    packed = PackedFixture.open(CLUSTER);
    cache = packed.cache();
    maintainer = packed.maintainer();
  }

  @AfterEach
  void stop() {
    packed.close();
  }

  /** Operation counts of one PUT: {file reads, file writes, delta sends}. */
  private long[] counted(String key, byte[] value) throws Exception {
    ClientFormIo io = cache.context().formIo();
    long reads = io.fileReads();
    long writes = io.fileWrites();
    long deltas = cache.context().logNodes().deltasSent();
    cache.put(key, value);
    return new long[] {io.fileReads() - reads, io.fileWrites() - writes,
        cache.context().logNodes().deltasSent() - deltas};
  }

  @Test
  void aHybridUpdateReadsTwoUnitsWritesTwoAndLogsOneDelta() throws Exception {
    Map<String, byte[]> values = packed.putValues(ClientTestCluster.PACKED, 60, 11);
    List<String> sealed = packed.seal(values);
    String key = sealed.get(0);
    LookupResponse before = packed.lookup(key);
    byte[] next = TestData.randomBytes(values.get(key).length, 12);

    assertArrayEquals(new long[] {2, 2, 1}, counted(key, next),
        "RS(3, 2) hybrid: old unit and P1 read, both written, the delta sent to r - 1 = 1 node");
    LookupResponse after = packed.lookup(key);
    Layout layout = after.getLayout();
    assertEquals(before.getLayout().getPacked(), layout.getPacked(), "the same slot");
    assertTrue(!layout.getWriteId().equals(before.getLayout().getWriteId()), "a new version");
    assertEquals(before.getStripe().getVersion() + 1, after.getStripe().getVersion());
    assertArrayEquals(next, cache.get(key));
    packed.checkParities(after.getStripe());
    for (String other : sealed.subList(1, sealed.size())) {
      assertArrayEquals(values.get(other), cache.get(other), other);
    }

    // Read around the updated unit's worker and another data unit's: P1 and the log node's
    // parity at the new version rebuild it.
    int unit = layout.getPacked().getUnit();
    String logHost = after.getStripe().getLogParities(0).getLogNode().split(":")[0];
    String unitHost = after.getSplits(unit).getWorker().getHost();
    if (!unitHost.equals(logHost)) {
      cluster.stopWorker(cluster.workerIndex(unitHost));
      for (int i = 0; i < after.getStripe().getDataUnits(); i++) {
        String host = after.getSplits(i).getWorker().getHost();
        if (i != unit && !host.equals(logHost)) {
          cluster.stopWorker(cluster.workerIndex(host));
          break;
        }
      }
      try (EcCacheClient fresh = ClientTestCluster.client(cluster)) {
        assertArrayEquals(next, fresh.get(key), "rebuilt at the new version");
      }
    }
  }

  @Test
  void anInPlaceUpdateReadsAndWritesTheUnitAndEveryParity() throws Exception {
    Map<String, byte[]> values = packed.putValues(ClientTestCluster.PACKED_INPLACE, 40, 21);
    List<String> sealed = packed.seal(values);
    String key = sealed.get(0);
    Stripe stripe = packed.lookup(key).getStripe();
    assertEquals(4, stripe.getUnitsCount(), "RS(2, 2) in place: every parity in the cache");
    assertTrue(stripe.getLogParitiesList().isEmpty());
    byte[] next = TestData.randomBytes(values.get(key).length, 22);

    assertArrayEquals(new long[] {3, 3, 0}, counted(key, next),
        "in place: the unit and r = 2 parities read and written, no log node");
    assertArrayEquals(next, cache.get(key));
    packed.checkParities(packed.lookup(key).getStripe());
  }

  @Test
  void updatesOfValuesSharingAStripeAreSerializedAndAllLand() throws Exception {
    Map<String, byte[]> values = packed.putValues(ClientTestCluster.PACKED, 60, 31);
    List<String> sealed = packed.seal(values);
    // The stripe holding most of this test's values (values other tests left waiting in the
    // namespace's queues may share stripes with them).
    Map<Long, List<String>> byStripe = new java.util.HashMap<>();
    for (String key : sealed) {
      byStripe.computeIfAbsent(packed.lookup(key).getStripe().getId(), id -> new ArrayList<>())
          .add(key);
    }
    List<String> same = byStripe.values().stream().max(java.util.Comparator.comparingInt(
        List::size)).orElseThrow();
    long stripe = packed.lookup(same.get(0)).getStripe().getId();
    assertTrue(same.size() >= 4, "values of one stripe: " + same.size());
    Map<String, byte[]> last = new ConcurrentHashMap<>();
    ExecutorService writers = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        String key = same.get(t);
        int seed = t;
        done.add(writers.submit(() -> {
          for (int i = 0; i < 10; i++) {
            byte[] next = TestData.randomBytes(values.get(key).length, 1000 * seed + i);
            cache.put(key, next);
            last.put(key, next);
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      writers.shutdownNow();
    }
    int inPlace = 0;
    for (String key : last.keySet()) {
      assertArrayEquals(last.get(key), cache.get(key), key);
      if (packed.lookup(key).getLayout().getPacked().getStripe() == stripe) {
        inPlace++;
      }
    }
    Stripe now = packed.lookup(same.get(0)).getStripe();
    if (now.getId() == stripe) {
      packed.checkParities(now);
    }
    assertTrue(inPlace >= 1, "most updates land in place; " + inPlace + " of 4 keys still do");
  }
}
