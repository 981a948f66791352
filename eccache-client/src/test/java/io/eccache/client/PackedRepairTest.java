package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import io.eccache.common.proto.Stripe;
import io.eccache.coordinator.form.packed.PackedForm;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.SharedCluster;
import java.util.ArrayList;
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
 * Repair of packed stripes (REPAIR_STRIPE): once the master counts a worker lost, the stripes with
 * a unit or a log parity there are rebuilt elsewhere by a maintainer, at the same version; with two
 * data units lost the log node's parity is read (log-assisted repair). Afterwards every part is on
 * a live worker or node, every parity equals a fresh encode, and every value reads back.
 */
@Timeout(180)
class PackedRepairTest {
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

  /** Stops the workers on {@code hosts} and waits until the master counts them lost. */
  private void lose(Set<String> hosts) throws Exception {
    for (String host : hosts) {
      cluster.stopWorker(cluster.workerIndex(host));
    }
    long deadline = System.currentTimeMillis() + 30_000;
    while (cluster.blockMaster().getWorkerCount() > ClientTestCluster.WORKERS - hosts.size()) {
      assertTrue(System.currentTimeMillis() < deadline, "workers " + hosts + " not lost in 30 s");
      Thread.sleep(100);
    }
  }

  /**
   * Scans for lost parts and runs the maintainer until it has nothing left to do, a few times:
   * the master's own repair heartbeat may have planned a stripe's repair while only some of its
   * workers were lost yet, and that stripe is planned again once that repair is recorded.
   */
  private int repair() throws Exception {
    PackedForm form = cluster.coordinator().form(PackedForm.class).orElseThrow();
    int planned = 0;
    for (int pass = 0; pass < 3; pass++) {
      planned += form.scanForRepairs();
      for (int round = 0; round < 10 && maintainer.runOnce() > 0; round++) {
        // until the repairs are done
      }
    }
    return planned;
  }

  /** The stripe's parts are all on live workers and log nodes. */
  private void assertWhole(LookupResponse lookup, Set<String> lostHosts) {
    for (Split s : lookup.getSplitsList()) {
      assertTrue(s.getLive(), "unit " + s.getIndex() + " on a live worker: " + s.getPath());
      assertFalse(lostHosts.contains(s.getWorker().getHost()), s.getPath());
    }
    lookup.getStripe().getLogParitiesList().forEach(p -> assertFalse(
        lostHosts.contains(p.getLogNode().split(":")[0]), "log parity on " + p.getLogNode()));
  }

  private void checkValues(Map<String, byte[]> values, long stripe) throws Exception {
    for (Map.Entry<String, byte[]> e : values.entrySet()) {
      if (packed.lookup(e.getKey()).getLayout().getPacked().getStripe() == stripe) {
        assertArrayEquals(e.getValue(), cache.get(e.getKey()), e.getKey());
      }
    }
  }

  @Test
  void aLostWorkersUnitsAndLogParitiesAreRebuiltElsewhereAtTheSameVersion() throws Exception {
    Map<String, byte[]> values = packed.putValues(ClientTestCluster.PACKED, 60, 41);
    List<String> sealed = packed.seal(values);
    LookupResponse before = packed.lookup(sealed.get(0));
    Stripe stripe = before.getStripe();
    String host = before.getSplits(0).getWorker().getHost(); // data unit 0's worker
    lose(Set.of(host));

    repair();
    LookupResponse after = packed.lookup(sealed.get(0));
    assertEquals(stripe.getVersion(), after.getStripe().getVersion(), "a repair changes no byte");
    assertTrue(after.getStripe().getUnits(0).getPath().contains(".r"), "unit 0 rebuilt");
    assertWhole(after, Set.of(host));
    packed.checkParities(after.getStripe());
    checkValues(values, stripe.getId());
  }

  @Test
  void twoLostDataUnitsAreRebuiltWithTheLogNodesParity() throws Exception {
    Map<String, byte[]> values = packed.putValues(ClientTestCluster.PACKED, 60, 42);
    List<String> sealed = packed.seal(values);
    LookupResponse before = packed.lookup(sealed.get(0));
    Stripe stripe = before.getStripe();
    String logHost = stripe.getLogParities(0).getLogNode().split(":")[0];
    Set<String> lost = new HashSet<>();
    List<Integer> units = new ArrayList<>();
    for (int i = 0; i < stripe.getDataUnits() && lost.size() < 2; i++) {
      String host = before.getSplits(i).getWorker().getHost();
      if (!host.equals(logHost)) {
        lost.add(host);
        units.add(i);
      }
    }
    assertEquals(2, lost.size(), "two data units away from the log node");
    lose(lost);
    // Five workers: with two lost, three are left for four units. One comes back, empty.
    String back = lost.iterator().next();
    cluster.restartWorkerEmpty(cluster.workerIndex(back));
    cluster.awaitLiveWorkers(ClientTestCluster.WORKERS - 1);
    Set<String> stillLost = new HashSet<>(lost);
    stillLost.remove(back);

    repair();
    LookupResponse after = packed.lookup(sealed.get(0));
    assertEquals(stripe.getVersion(), after.getStripe().getVersion());
    for (int i : units) {
      assertTrue(after.getStripe().getUnits(i).getPath().contains(".r"), "unit " + i);
    }
    assertWhole(after, stillLost);
    packed.checkParities(after.getStripe());
    checkValues(values, stripe.getId());
  }
}
