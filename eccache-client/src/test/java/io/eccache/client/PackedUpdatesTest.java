package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.client.form.UpdatePhases;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Stripe;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestData;
import io.eccache.testkit.TestUsers;
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
    return counted(cache, key, value);
  }

  /** Operation counts of one PUT by {@code client}: {file reads, file writes, delta sends}. */
  private static long[] counted(EcCacheClient client, String key, byte[] value)
      throws Exception {
    ClientFormIo io = client.context().formIo();
    long reads = io.fileReads();
    long writes = io.fileWrites();
    long deltas = client.context().logNodes().deltasSent();
    client.put(key, value);
    return new long[] {io.fileReads() - reads, io.fileWrites() - writes,
        client.context().logNodes().deltasSent() - deltas};
  }

  @Test
  void aHybridUpdateReadsTwoUnitsWritesTwoAndLogsOneDelta() throws Exception {
    Map<String, byte[]> values = packed.putValues(ClientTestCluster.PACKED, 60, 11);
    List<String> sealed = packed.seal(values);
    String key = sealed.get(0);
    LookupResponse before = packed.lookup(key);
    byte[] next = TestData.randomBytes(values.get(key).length, 12);

    UpdatePhases.Snapshot phasesBefore = cache.updatePhases().snapshot();
    assertArrayEquals(new long[] {2, 2, 1}, counted(key, next),
        "RS(3, 2) hybrid: old unit and P1 read, both written, the delta sent to r - 1 = 1 node");
    UpdatePhases.Snapshot phases = cache.updatePhases().snapshot().since(phasesBefore);
    assertEquals(1, phases.updates(), "one update timed");
    for (UpdatePhases.Phase phase : UpdatePhases.Phase.values()) {
      assertTrue(phases.meanMicros(phase) > 0, "hybrid goes through " + phase);
    }
    LookupResponse after = packed.lookup(key);
    Layout layout = after.getLayout();
    assertEquals(before.getLayout().getPacked(), layout.getPacked(), "the same slot");
    assertTrue(!layout.getWriteId().equals(before.getLayout().getWriteId()), "a new version");
    assertEquals(before.getStripe().getVersion() + 1, after.getStripe().getVersion());
    assertArrayEquals(next, cache.get(key));
    packed.checkParities(after.getStripe());
    assertEquals(List.of(), maintainer.scrub(key), "the maintainer's scrub agrees");
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
  void aUserUpdatesHerOwnValuesWhereTheyAreAndNoOneElseCan() throws Exception {
    // alice's 700 directory in the packed namespace; eccache's own directories are closed to her.
    String dir = ClientTestCluster.PACKED + "/" + CLUSTER.key("alice");
    TestUsers.directory(cluster.fileSystem(), "/" + dir, TestUsers.ALICE, 0700);
    try (EcCacheClient alice = EcCacheClient.create(TestUsers.as(TestUsers.ALICE));
        EcCacheClient bob = EcCacheClient.create(TestUsers.as(TestUsers.BOB))) {
      Map<String, byte[]> values = new java.util.LinkedHashMap<>();
      for (int i = 0; i < 40; i++) {
        byte[] value = TestData.randomBytes(150 + 5 * i, 41_000 + i);
        alice.put(dir + "/v" + i, value);
        values.put(dir + "/v" + i, value);
      }
      List<String> sealed = packed.seal(values);
      assertTrue(!sealed.isEmpty(), "the administrator's maintainer sealed alice's values");
      String key = sealed.get(0);
      long version = packed.lookup(key).getStripe().getVersion();
      byte[] next = TestData.randomBytes(values.get(key).length, 42);

      assertArrayEquals(new long[] {2, 2, 1}, counted(alice, key, next),
          "a hybrid update in place: into the unit files the coordinator made hers");
      assertEquals(version + 1, packed.lookup(key).getStripe().getVersion());
      assertArrayEquals(next, alice.get(key));
      packed.checkParities(packed.lookup(key).getStripe());

      assertThrows(alluxio.exception.status.PermissionDeniedException.class,
          () -> bob.put(key, TestData.randomBytes(next.length, 43)), "bob may not update it");
      assertThrows(alluxio.exception.status.PermissionDeniedException.class,
          () -> bob.get(key), "nor read it");
      assertEquals(version + 1, packed.lookup(key).getStripe().getVersion(), "nothing changed");
      assertArrayEquals(next, alice.get(key));
    }
  }

  @Test
  void aScrubFindsAParityThatDisagreesWithTheData() throws Exception {
    Map<String, byte[]> values = packed.putValues(ClientTestCluster.PACKED, 40, 51);
    String key = packed.seal(values).get(0);
    LookupResponse lookup = packed.lookup(key);
    Stripe stripe = lookup.getStripe();
    int p1 = stripe.getDataUnits();
    alluxio.AlluxioURI path = new alluxio.AlluxioURI(stripe.getUnits(p1).getPath());
    byte[] good = new byte[(int) stripe.getUnitSize()];
    try (alluxio.client.file.FileInStream in = cluster.fileSystem().openFile(path)) {
      assertEquals(good.length, in.read(good));
    }
    assertEquals(List.of(), maintainer.scrub(key));
    byte[] bad = good.clone();
    bad[7] ^= 1;
    replace(path, lookup.getSplits(p1).getWorker(), bad);
    try {
      List<String> found = maintainer.scrub(key);
      assertEquals(2, found.size(), "its checksum and its encode: " + found);
      assertTrue(found.get(0).contains("unit " + p1) && found.get(0).contains("CRC32C"), found
          .toString());
      assertTrue(found.get(1).contains("cached parity row 0 differs"), found.toString());
    } finally {
      replace(path, lookup.getSplits(p1).getWorker(), good); // the stripe whole again
    }
    assertEquals(List.of(), maintainer.scrub(key));
    String large = ClientTestCluster.PACKED + "/" + CLUSTER.key("large");
    cache.put(large, TestData.randomBytes(5000, 52)); // above the unit: a striped object
    assertThrows(alluxio.exception.status.UnimplementedException.class,
        () -> maintainer.scrub(large), "no scrub for other forms yet");
  }

  /** Puts {@code bytes} in place of the file at {@code path}, cached on {@code worker}. */
  private void replace(alluxio.AlluxioURI path, alluxio.grpc.WorkerNetAddress worker,
      byte[] bytes) throws Exception {
    cluster.fileSystem().delete(path);
    try (alluxio.client.file.FileOutStream out = cluster.fileSystem().createFile(path,
        alluxio.grpc.CreateFilePOptions.newBuilder().setWriteType(alluxio.grpc.WritePType
            .MUST_CACHE).setWorkerLocation(worker).setBlockSizeBytes(bytes.length).build())) {
      out.write(bytes);
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

    UpdatePhases.Snapshot phasesBefore = cache.updatePhases().snapshot();
    assertArrayEquals(new long[] {3, 3, 0}, counted(key, next),
        "in place: the unit and r = 2 parities read and written, no log node");
    UpdatePhases.Snapshot phases = cache.updatePhases().snapshot().since(phasesBefore);
    assertEquals(1, phases.updates(), "one update timed");
    assertTrue(phases.meanMicros(UpdatePhases.Phase.WRITE_UNITS)
        > phases.meanMicros(UpdatePhases.Phase.LOG_ACKS), "no log node to wait for: " + phases);
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
