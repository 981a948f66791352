package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.exception.status.NotFoundException;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Stripe;
import io.eccache.coordinator.form.packed.PackedForm;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestData;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Packed values (LogECMem) end to end on the shared five-worker cluster, whose namespace "kv" packs
 * values up to 1 KiB into RS(3, 2) stripes: a value waits as three replicas, a maintainer seals
 * full units into stripes (k data units and P1 in the cache, P2 on a log node, each equal to a
 * fresh encode), a sealed value is read from its slot, and around lost units: with P1 for one,
 * with the log node's parity for two.
 */
@Timeout(180)
class PackedValuesTest {
  private static final int K = 3;
  private static final int R = 2;
  private static final int UNIT = 1024;

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

  private Map<String, byte[]> putValues(int n, long seed) throws Exception {
    return packed.putValues(ClientTestCluster.PACKED, n, seed);
  }

  private LookupResponse lookup(String key) throws Exception {
    return packed.lookup(key);
  }

  @Test
  void valuesWaitAsReplicasUntilSealedAndEveryParityIsAFreshEncode() throws Exception {
    Map<String, byte[]> values = putValues(60, 1);
    for (Map.Entry<String, byte[]> e : values.entrySet()) {
      Layout layout = lookup(e.getKey()).getLayout();
      assertTrue(layout.hasPacked() && layout.getPacked().getStripe() == 0, e.getKey());
      assertEquals(RedundancyScheme.replicated(R + 1), SchemeProtos.of(layout));
      assertArrayEquals(e.getValue(), cache.get(e.getKey()), e.getKey());
    }

    List<String> sealed = packed.seal(values);
    // 60 values of about 250 bytes fill about 15 units of 1 KiB over 5 queues: 2 or more stripes.
    assertTrue(sealed.size() >= 2 * K * 2, "sealed: " + sealed.size() + " of 60");
    Set<Long> stripes = new HashSet<>();
    for (String key : sealed) {
      LookupResponse lookup = lookup(key);
      assertEquals(RedundancyScheme.erasureCoded(K, R), SchemeProtos.of(lookup.getLayout()));
      assertEquals(K + 1, lookup.getSplitsCount(), "k data units and P1");
      if (stripes.add(lookup.getStripe().getId())) {
        packed.checkParities(lookup.getStripe());
      }
    }
    for (Map.Entry<String, byte[]> e : values.entrySet()) {
      assertArrayEquals(e.getValue(), cache.get(e.getKey()), e.getKey()); // sealed or waiting
    }
    String first = sealed.get(0);
    byte[] whole = values.get(first);
    assertArrayEquals(java.util.Arrays.copyOfRange(whole, 10, 60), cache.get(first, 10, 50),
        "a range of a packed value");
  }

  @Test
  void aSealedValueIsReadAroundOneLostUnitWithP1AndTwoWithTheLogNode() throws Exception {
    Map<String, byte[]> values = putValues(60, 2);
    List<String> sealed = packed.seal(values);
    assertFalse(sealed.isEmpty());
    // A value whose unit's worker does not host the stripe's log node.
    String key = null;
    LookupResponse lookup = null;
    for (String k : sealed) {
      lookup = lookup(k);
      String unitHost = lookup.getSplits(lookup.getLayout().getPacked().getUnit()).getWorker()
          .getHost();
      if (!lookup.getStripe().getLogParities(0).getLogNode().startsWith(unitHost + ":")) {
        key = k;
        break;
      }
    }
    assertTrue(key != null, "a sealed value away from its log node");
    int unit = lookup.getLayout().getPacked().getUnit();
    String logHost = lookup.getStripe().getLogParities(0).getLogNode().split(":")[0];
    cluster.stopWorker(cluster.workerIndex(lookup.getSplits(unit).getWorker().getHost()));
    assertArrayEquals(values.get(key), cache.get(key), "one unit lost: rebuilt with P1");

    String second = null;
    for (int i = 0; i < K; i++) {
      String host = lookup.getSplits(i).getWorker().getHost();
      if (i != unit && !host.equals(logHost)) {
        second = host;
        break;
      }
    }
    assertTrue(second != null);
    cluster.stopWorker(cluster.workerIndex(second));
    assertArrayEquals(values.get(key), cache.get(key), "two units lost: rebuilt with P2");
  }

  @Test
  void aPutOfASealedKeyStoresANewVersionAndADeleteRemovesIt() throws Exception {
    Map<String, byte[]> values = putValues(60, 3);
    List<String> sealed = packed.seal(values);
    String key = sealed.get(0);
    byte[] next = TestData.randomBytes(400, 99); // another size than any packed: a new version
    cache.put(key, next);
    assertEquals(0, lookup(key).getLayout().getPacked().getStripe(), "waits for a new stripe");
    assertArrayEquals(next, cache.get(key));

    String other = sealed.get(1);
    assertTrue(cache.delete(other));
    assertThrows(NotFoundException.class, () -> cache.get(other));
    // Its neighbours in the stripe are untouched.
    for (String k : sealed.subList(2, sealed.size())) {
      assertArrayEquals(values.get(k), cache.get(k), k);
    }

    String large = ClientTestCluster.PACKED + "/" + CLUSTER.key("large");
    byte[] big = TestData.randomBytes(5 * UNIT, 7);
    cache.put(large, big);
    assertFalse(lookup(large).getLayout().hasPacked(), "larger than a unit: striped");
    assertArrayEquals(big, cache.get(large));
  }

  @Test
  void aSparseStripeIsCompactedThenDroppedAndItsLiveValueStaysReadable() throws Exception {
    Map<String, byte[]> values = packed.putValues(ClientTestCluster.PACKED_MEMORY, 40, 71);
    List<String> sealed = packed.seal(values);
    Stripe stripe = lookup(sealed.get(0)).getStripe();
    List<String> inStripe = new java.util.ArrayList<>();
    for (int u = 0; u < stripe.getDataUnits(); u++) {
      stripe.getUnits(u).getSlotsList().forEach(slot -> inStripe.add(slot.getKey()));
    }
    String survivor = inStripe.get(0);
    for (String key : inStripe.subList(1, inStripe.size())) {
      assertTrue(cache.delete(key), key);
    }
    PackedForm form = cluster.coordinator().form(PackedForm.class).orElseThrow();
    long logStripes = logStripes();

    // The coordinator's own compaction heartbeat (every 30 s) may plan the stripe before this
    // scan does, and then the scan finds it under way: what counts is that it is carried out.
    form.scanForCompactions();
    assertTrue(drain() >= 1, "the stripe is sparse: compacted");
    Layout moved = lookup(survivor).getLayout();
    assertTrue(moved.getPacked().getStripe() != stripe.getId(), "written anew: " + moved);
    assertArrayEquals(values.get(survivor), cache.get(survivor), "the same bytes");

    // Empty now: dropped (the heartbeat may have planned and the drain above run the drop).
    form.scanForCompactions();
    drain();
    assertEquals(logStripes - 1, logStripes(), "dropped: its log node forgot it");
    for (String key : inStripe.subList(1, inStripe.size())) {
      assertThrows(NotFoundException.class, () -> cache.get(key));
    }
    for (String key : sealed) {
      if (!inStripe.contains(key)) {
        assertArrayEquals(values.get(key), cache.get(key), "other stripes' values: " + key);
      }
    }
    assertArrayEquals(values.get(survivor), cache.get(survivor));
  }

  /** Runs the maintainer until it finds nothing to do; how many tasks it carried out. */
  private int drain() throws Exception {
    int done = 0;
    for (int round = 0; round < 20; round++) {
      int ran = maintainer.runOnce(); // what the coordinator submitted
      if (ran <= 0) {
        break;
      }
      done += ran;
    }
    return done;
  }

  /** Stripes the log nodes hold for the namespace of this test's values. */
  private long logStripes() throws Exception {
    long stripes = 0;
    for (io.eccache.common.proto.LogNodeStatusResponse node
        : maintainer.logNodeStatus().values()) {
      for (io.eccache.common.proto.LogStatus log : node.getLogsList()) {
        if (log.getLog().getNamespace().equals(ClientTestCluster.PACKED_MEMORY)) {
          stripes += log.getStripes();
        }
      }
    }
    return stripes;
  }
}
