package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.client.file.FileSystem;
import alluxio.client.file.FileSystemContext;
import alluxio.conf.InstancedConfiguration;
import io.eccache.common.MasterKeys;
import io.eccache.common.WorkerKeys;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import io.eccache.common.proto.Stripe;
import io.eccache.localcluster.ProcessCluster;
import io.eccache.localcluster.ServerJvm;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Packed values under SIGKILL (separate JVMs, {@link ProcessCluster}): a client killed between its
 * delta sends and its commit, a log node killed with deltas only in its buffer (flushes every
 * hour), a data worker killed. Every acknowledged value reads back; a killed update leaves the
 * previous version; every parity, after the repairs, equals a fresh encode at the stripe's version.
 */
@Timeout(300)
class CrashPackedValuesTest {
  @RegisterExtension
  static final SharedCluster NO_SHARED_CLUSTER = SharedCluster.none();
  private static final int WORKERS = 6;
  private static ProcessCluster cluster;
  private static EcCacheClient cache;
  private static RedundancyMaintainer maintainer;
  private static FileSystem fs;
  private static PackedFixture packed;
  /** Acknowledged values, checked after every fault. */
  private static final Map<String, byte[]> acknowledged = new HashMap<>();

  @BeforeAll
  static void start() throws Exception {
    cluster = ProcessCluster.builder().workers(WORKERS).workerMemoryBytes(32L << 20)
        .workerTimeout("3s")
        .property(MasterKeys.PACKED_NAMESPACES.getName(), "kv=packed-3-2:1KB")
        .property(MasterKeys.PACKED_UPDATE_LEASE.getName(), "2s")
        .property(WorkerKeys.LOG_NODE_ENABLED.getName(), true)
        .property(WorkerKeys.LOG_NODE_FSYNC.getName(), false)
        .property(WorkerKeys.LOG_NODE_FLUSH_INTERVAL.getName(), "1h").start();
    InstancedConfiguration conf = (InstancedConfiguration) cluster.clientConfiguration();
    cache = EcCacheClient.create(conf);
    maintainer = RedundancyMaintainer.create(cache);
    fs = FileSystem.Factory.create(FileSystemContext.create(conf));
    packed = new PackedFixture(fs, name -> "crash/" + name, cache, maintainer);
    acknowledged.putAll(packed.putValues("kv", 60, 51));
    List<String> sealed = packed.seal(acknowledged);
    assertTrue(sealed.size() >= 12, "sealed: " + sealed.size());
  }

  @AfterAll
  static void stop() throws Exception {
    if (fs != null) {
      fs.close();
    }
    if (maintainer != null) {
      maintainer.close();
    }
    if (cache != null) {
      cache.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static void assertEveryAcknowledgedValueReads() throws Exception {
    for (Map.Entry<String, byte[]> e : acknowledged.entrySet()) {
      assertArrayEquals(e.getValue(), cache.get(e.getKey()), e.getKey());
    }
  }

  /** Stripes a test used already: each test faults a stripe of its own. */
  private static final Set<Long> used = new HashSet<>();

  /** A sealed key, whole, of a stripe no other test used. */
  private static LookupResponse sealedOne() throws Exception {
    for (String key : acknowledged.keySet()) {
      LookupResponse lookup = packed.lookup(key);
      long stripe = lookup.getLayout().getPacked().getStripe();
      if (stripe != 0 && !used.contains(stripe)
          && lookup.getSplitsList().stream().allMatch(Split::getLive)) {
        used.add(stripe);
        return lookup;
      }
    }
    throw new AssertionError("no sealed key left in a whole stripe of its own");
  }

  /** Waits until the master counts {@code n} live workers (a killed one lost, or back). */
  private static void awaitLiveWorkers(int n) throws Exception {
    long deadline = System.currentTimeMillis() + 60_000;
    while (cache.stats().liveWorkers() != n) {
      assertTrue(System.currentTimeMillis() < deadline, "not " + n + " live workers in 60 s");
      Thread.sleep(200);
    }
  }

  private static int workerOf(String host) {
    for (int i = 0; i < WORKERS; i++) {
      if (cluster.workerHost(i).equals(host)) {
        return i;
      }
    }
    throw new AssertionError("no worker on " + host);
  }

  /** Runs the maintainer until the stripe's parts are all on live workers and log nodes. */
  private static Stripe awaitRepaired(String key) throws Exception {
    long deadline = System.currentTimeMillis() + 60_000;
    while (true) {
      maintainer.runOnce();
      LookupResponse lookup = packed.lookup(key);
      boolean whole = lookup.getSplitsList().stream().allMatch(Split::getLive)
          && cache.stats().logNodes().containsAll(lookup.getStripe().getLogParitiesList()
              .stream().map(p -> p.getLogNode()).collect(java.util.stream.Collectors.toList()));
      if (whole) {
        return lookup.getStripe();
      }
      assertTrue(System.currentTimeMillis() < deadline, "stripe of " + key + " not repaired in"
          + " 60 s: " + lookup.getStripe());
      Thread.sleep(500);
    }
  }

  @Test
  void aClientKilledBetweenItsDeltasAndItsCommitLeavesThePreviousVersion() throws Exception {
    LookupResponse lookup = sealedOne();
    String key = lookup.getLayout().getKey();
    byte[] next = TestData.randomBytes(acknowledged.get(key).length, 52);
    Path dir = Files.createTempDirectory(cluster.directory(), "killer");
    Process client = new ServerJvm(dir, cluster.confDirectory(), false).launch("killer",
        PackedUpdateKiller.class.getName(),
        List.of(key, Base64.getEncoder().encodeToString(next)), ProcessCluster.TEST_JVM_OPTIONS);
    Path out = dir.resolve("logs").resolve("killer.out");
    long deadline = System.currentTimeMillis() + 60_000;
    while (!(Files.exists(out) && Files.readString(out).contains(PackedUpdateKiller.MARK))) {
      assertTrue(client.isAlive(), "the client ended early: " + (Files.exists(out)
          ? Files.readString(out) : "no output"));
      assertTrue(System.currentTimeMillis() < deadline, "the client did not reach its commit");
      Thread.sleep(50);
    }
    client.destroyForcibly().waitFor(); // SIGKILL: between the delta sends and the commit
    assertArrayEquals(acknowledged.get(key), cache.get(key), "the previous version stays");
    assertEquals(lookup.getStripe().getVersion(), packed.lookup(key).getStripe().getVersion());

    // Once the dead update's lease expires (2 s here), the value is updated again, and the
    // stripe's parities, the log node's included, are a fresh encode of the new data.
    Thread.sleep(2500);
    cache.put(key, next);
    acknowledged.put(key, next);
    LookupResponse after = packed.lookup(key);
    assertEquals(lookup.getStripe().getVersion() + 1, after.getStripe().getVersion());
    packed.checkParities(after.getStripe());
    assertEveryAcknowledgedValueReads();
  }

  @Test
  void aLogNodeKilledWithDeltasOnlyInItsBufferIsRebuiltNeverWrong() throws Exception {
    LookupResponse lookup = sealedOne();
    String key = lookup.getLayout().getKey();
    byte[] next = TestData.randomBytes(acknowledged.get(key).length, 53);
    cache.put(key, next); // its delta is in the log node's buffer (flushes every hour)
    acknowledged.put(key, next);
    Stripe stripe = packed.lookup(key).getStripe();
    String node = stripe.getLogParities(0).getLogNode();
    int worker = workerOf(node.split(":")[0]);
    cluster.killWorker(worker);
    assertEveryAcknowledgedValueReads();
    awaitLiveWorkers(WORKERS - 1);
    cluster.startWorker(worker); // a new log node, without the killed one's buffer
    awaitLiveWorkers(WORKERS);
    long deadline = System.currentTimeMillis() + 60_000;
    while (cache.stats().logNodes().contains(node)) {
      assertTrue(System.currentTimeMillis() < deadline, "the killed log node is still listed");
      Thread.sleep(200);
    }
    Stripe repaired = awaitRepaired(key);
    assertEquals(stripe.getVersion(), repaired.getVersion());
    assertTrue(!repaired.getLogParities(0).getLogNode().equals(node), "rebuilt elsewhere");
    packed.checkParities(repaired);
    assertEveryAcknowledgedValueReads();
  }

  @Test
  void aDataWorkerKilledCostsNoValueAndItsUnitsAreRebuilt() throws Exception {
    LookupResponse lookup = sealedOne();
    String key = lookup.getLayout().getKey();
    Split unit = lookup.getSplits(lookup.getLayout().getPacked().getUnit());
    int worker = workerOf(unit.getWorker().getHost());
    cluster.killWorker(worker);
    assertEveryAcknowledgedValueReads(); // degraded: the unit rebuilt from the others and P1
    awaitLiveWorkers(WORKERS - 1);
    Stripe repaired = awaitRepaired(key);
    packed.checkParities(repaired);
    cluster.startWorker(worker);
    awaitLiveWorkers(WORKERS);
    assertEveryAcknowledgedValueReads();
  }
}
