package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.AlluxioURI;
import alluxio.client.file.URIStatus;
import alluxio.conf.PropertyKey;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.NotFoundException;
import io.eccache.common.ClientKeys;
import io.eccache.common.MasterKeys;
import io.eccache.common.ReadChoice;
import io.eccache.common.RegionMounts;
import io.eccache.common.UnderStorePaths;
import io.eccache.coordinator.CoordinatorMaster;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.LoopbackRegions;
import io.eccache.testkit.LoopbackRegions.RunningRegion;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestData;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Regional objects (Agar's backing store, docs/agar.md) on a real cluster over three loopback S3
 * regions, each behind its own delay: RS(4,2), two splits per region. A PUT writes every split
 * through to its region and caches none; a GET reads the k nearest; a region down is read around;
 * a replaced or deleted version's splits leave the regions after the grace.
 */
@Timeout(180)
class RegionalObjectsTest {
  private static final List<LoopbackRegions.Spec> SPECS = List.of(
      new LoopbackRegions.Spec("near", Duration.ofMillis(10), 0),
      new LoopbackRegions.Spec("mid", Duration.ofMillis(30), 0),
      new LoopbackRegions.Spec("far", Duration.ofMillis(90), 0));
  private static final Duration ALLOCATION_TIMEOUT = Duration.ofMinutes(10);
  private static final Duration GRACE = Duration.ofSeconds(60);

  @RegisterExtension
  static final SharedCluster CLUSTER = SharedCluster.of(EmbeddedCluster.builder().workers(3)
      .workerMemoryBytes(64L << 20).workerTimeout("3s")
      .property(MasterKeys.CELL_SIZE, "64KB")
      .property(MasterKeys.ALLOCATION_TIMEOUT, ALLOCATION_TIMEOUT.toMillis() + "ms")
      .property(MasterKeys.RETIRED_GRACE, GRACE.toMillis() + "ms")
      // The paper's random k + delta whatever this machine's load (ADAPTIVE would hedge while
      // the CPU is busy): these tests count which splits were read.
      .property(ClientKeys.READ_CHOICE, ReadChoice.RANDOM)
      .property(MasterKeys.REGIONAL_NAMESPACES, "agar")
      .property(MasterKeys.REGIONAL_SCHEME, "rs-4-2")
      // Agar over 4 splits; periods only when a test runs one (CoordinatorMaster#regionalCache).
      .property(MasterKeys.REGIONAL_POLICY, "agar")
      .property(MasterKeys.REGIONAL_CACHE_SPLITS, 4)
      .property(MasterKeys.REGIONAL_PERIOD, "1h")
      .property(MasterKeys.REGIONS, "near=/eccache-regions/near@10ms,"
          + "mid=/eccache-regions/mid@30ms,far=/eccache-regions/far@90ms"));


  /** The regional code: two splits per region. */
  private static final io.eccache.common.RedundancyScheme CODE =
      io.eccache.common.RedundancyScheme.erasureCoded(4, 2);

  private static LoopbackRegions regions;
  private EmbeddedCluster cluster;
  private EcCacheClient cache;

  @BeforeAll
  static void mountRegions() throws Exception {
    regions = LoopbackRegions.start(null, SPECS);
    regions.mount(CLUSTER.cluster().fileSystem(), LoopbackRegions.FAIL_FAST);
    List<alluxio.wire.WorkerNetAddress> workers = new ArrayList<>();
    for (int i = 0; i < CLUSTER.cluster().workerCount(); i++) {
      workers.add(CLUSTER.cluster().workerAddress(i));
    }
    regions.warm(CLUSTER.cluster().fileSystem(), workers); // see LoopbackRegions#warm
  }

  @AfterAll
  static void unmountRegions() throws Exception {
    if (regions != null) {
      try {
        regions.unmount(CLUSTER.cluster().fileSystem());
      } finally {
        regions.close();
      }
    }
  }

  @BeforeEach
  void start() throws Exception {
    cluster = CLUSTER.cluster();
    // A read from a region that is down fails in well under a second, not after the testkit's
    // 10 s of block read retries: late binding then asks the next nearest region.
    cache = ClientTestCluster.client(cluster, PropertyKey.USER_BLOCK_READ_RETRY_MAX_DURATION,
        "300ms");
  }

  @AfterEach
  void stop() throws Exception {
    cache.close();
    for (RunningRegion r : regions.regions()) {
      r.proxy().setDown(false);
    }
  }

  /** The split files of {@code key} in {@code region}'s mount (any write). */
  private List<URIStatus> splitsIn(RunningRegion region, String key) throws Exception {
    String prefix = UnderStorePaths.nameWithin(key, RegionMounts.MAX_KEY_NAME_BYTES) + ".";
    List<URIStatus> found = new ArrayList<>();
    for (URIStatus s : cluster.fileSystem().listStatus(new AlluxioURI(region.mountPoint()))) {
      if (s.getName().startsWith(prefix)) {
        found.add(s);
      }
    }
    return found;
  }

  @Test
  void aPutWritesEverySplitThroughToItsRegionAndCachesNone() throws Exception {
    String key = "agar/written";
    byte[] data = TestData.randomBytes(300_000, 1);
    cache.put(key, data);
    for (RunningRegion region : regions.regions()) {
      List<URIStatus> splits = splitsIn(region, key);
      assertEquals(2, splits.size(), "RS(4,2) over 3 regions: two splits in " + region.slug());
      for (URIStatus s : splits) {
        assertTrue(s.isPersisted() && s.isCompleted(), s.getPath());
        assertEquals(0, s.getInAlluxioPercentage(), s.getPath() + " is not cached");
        assertTrue(Files.isRegularFile(region.objectFile(s.getPath())),
            s.getPath() + " is in the region's bucket");
      }
    }
    assertArrayEquals(data, cache.get(key, 0));
  }

  /** A long key's split files are named by its hash, which fits the regions' S3 servers. */
  @Test
  void aLongKeysSplitsReachTheirRegions() throws Exception {
    String key = "agar/" + "région €/".repeat(30);
    byte[] data = TestData.randomBytes(100_000, 8);
    cache.put(key, data);
    for (RunningRegion region : regions.regions()) {
      List<URIStatus> splits = splitsIn(region, key);
      assertEquals(2, splits.size(), region.slug());
      for (URIStatus s : splits) {
        assertTrue(s.getName().contains(UnderStorePaths.HASH_MARKER), s.getName());
        assertTrue(Files.isRegularFile(region.objectFile(s.getPath())), s.getPath());
      }
    }
    assertArrayEquals(data, cache.get(key, 0));
    assertEquals(List.of(key), cache.list("agar/région"));
    assertTrue(cache.delete(key));
    assertThrows(NotFoundException.class, () -> cache.get(key));
  }

  @Test
  void aGetReadsTheKNearestSplits() throws Exception {
    String key = "agar/nearest";
    byte[] data = TestData.randomBytes(200_000, 2);
    cache.put(key, data);
    cache.readStatistics().reset();
    assertArrayEquals(data, cache.get(key, 0));
    Map<String, Long> bytes = cache.readStatistics().bytesByWorker();
    assertTrue(bytes.getOrDefault("region:near", 0L) > 0, bytes.toString());
    assertTrue(bytes.getOrDefault("region:mid", 0L) > 0, bytes.toString());
    assertFalse(bytes.containsKey("region:far"), "the farthest region is not read: " + bytes);
    // Splits 0, 3 are near's, 1, 4 mid's, 2, 5 far's: data split 2 is rebuilt from parity 4.
    assertEquals(1, cache.readStatistics().decodes(), "far's data split is decoded");
  }

  @Test
  void aRegionDownIsReadAround() throws Exception {
    String key = "agar/outage";
    byte[] data = TestData.randomBytes(250_000, 3);
    cache.put(key, data);
    regions.setDown("near", true);
    cache.readStatistics().reset();
    assertArrayEquals(data, cache.get(key, 0));
    Map<String, Long> bytes = cache.readStatistics().bytesByWorker();
    assertFalse(bytes.containsKey("region:near"), bytes.toString());
    assertTrue(bytes.getOrDefault("region:far", 0L) > 0, "far stood in for near: " + bytes);
    assertEquals(1, cache.readStatistics().decodes(), "near's data splits were rebuilt");
  }

  /**
   * Partial caching with an outage: near's data split 0 and far's data split 2 are cached, then
   * near goes down. The cache still serves split 0; near's uncached data split 3 fails and mid's
   * parity 4 takes its place (late binding across tiers), and far's region is not needed.
   */
  @Test
  void aGetMixesCachedSplitsWithRegionsAroundOneThatIsDown() throws Exception {
    String key = "agar/mixed";
    byte[] data = TestData.randomBytes(240_000, 4);
    cache.put(key, data);
    for (int i : new int[] {0, 2}) {
      for (RunningRegion region : regions.regions()) {
        for (URIStatus s : splitsIn(region, key)) {
          if (s.getName().endsWith("." + CODE.splitName(i))) {
            try (alluxio.client.file.FileInStream in = cluster.fileSystem().openFile(s,
                alluxio.grpc.OpenFilePOptions.newBuilder()
                    .setReadType(alluxio.grpc.ReadPType.CACHE).build())) {
              in.readAllBytes(); // cached by the worker that reads it from the region
            }
          }
        }
      }
    }
    awaitCached(key, List.of(0, 2));
    regions.setDown("near", true);
    // A new client: the PUT's own layout (nothing cached) is not reused.
    try (EcCacheClient reader = ClientTestCluster.client(cluster,
        PropertyKey.USER_BLOCK_READ_RETRY_MAX_DURATION, "300ms")) {
      assertArrayEquals(data, reader.get(key, 0));
      Map<String, Long> bytes = reader.readStatistics().bytesByWorker();
      long fromCache = bytes.entrySet().stream().filter(e -> !e.getKey().startsWith("region:"))
          .mapToLong(Map.Entry::getValue).sum();
      assertEquals(2 * 60_000, fromCache, "splits 0 and 2 from the cache: " + bytes);
      assertFalse(bytes.containsKey("region:near"), "near is down: " + bytes);
      assertFalse(bytes.containsKey("region:far"), "far's split 2 is cached: " + bytes);
      assertEquals(2 * 60_000, bytes.getOrDefault("region:mid", 0L), "mid's 1 and 4: " + bytes);
      assertEquals(1, reader.readStatistics().decodes(), "near's data split 3 was rebuilt");
    }
  }

  @Test
  void aRegionalObjectKeepsItsCode() throws Exception {
    String key = "agar/coded";
    InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
        () -> cache.put(key, new byte[1000], PutOptions.code(3, 1)));
    assertTrue(e.getMessage().contains("regional"), e.getMessage());
    cache.put(key, new byte[1000]);
    assertThrows(InvalidArgumentException.class, () -> cache.evict(key));
    assertEquals(1000, cache.get(key).length, "a refused evict leaves the object");
  }

  /** Indexes of {@code key}'s splits a worker caches now, per the master. */
  private List<Integer> cachedSplits(String key) throws Exception {
    List<Integer> cached = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      for (RunningRegion region : regions.regions()) {
        for (URIStatus s : splitsIn(region, key)) {
          if (s.getName().endsWith("." + CODE.splitName(i)) && !s.getFileBlockInfos().isEmpty()
              && !s.getFileBlockInfos().get(0).getBlockInfo().getLocations().isEmpty()) {
            cached.add(i);
          }
        }
      }
    }
    return cached;
  }

  /**
   * Waits (at most 20 s: the master learns of a cached or freed block at its worker's next
   * heartbeat) until exactly {@code expected} of {@code key}'s splits are cached.
   */
  private void awaitCached(String key, List<Integer> expected) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!cachedSplits(key).equals(expected)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(key + " has splits " + cachedSplits(key) + " cached, not "
            + expected);
      }
      Thread.sleep(100);
    }
  }

  @Test
  void agarCachesTheSplitsOfWhatIsReadAndMovesThemWhenPopularityChanges() throws Exception {
    // RS(4,2) over near, mid, far: a read waits for near's splits 0, 3 and mid's 1, 4 (far's 2
    // and 5 are the two never read). Four splits of cache hold one object's read set whole.
    CoordinatorMaster coordinator = cluster.coordinator();
    String hot = "agar/hot";
    String later = "agar/later";
    byte[] hotData = TestData.randomBytes(200_000, 7);
    byte[] laterData = TestData.randomBytes(200_000, 8);
    cache.put(hot, hotData);
    cache.put(later, laterData);
    coordinator.regionalCache().heartbeat(Long.MAX_VALUE); // what other tests read is folded in
    for (int i = 0; i < 10; i++) {
      assertArrayEquals(hotData, cache.get(hot, 0));
    }
    coordinator.regionalCache().heartbeat(Long.MAX_VALUE);
    try (RedundancyMaintainer maintainer = RedundancyMaintainer.create(cache)) {
      assertEquals(1, maintainer.runOnce(), "one load: the hot object's splits");
      assertEquals(List.of(0, 1, 3, 4), cachedSplits(hot), "its whole read set is cached");
      assertEquals(List.of(), cachedSplits(later));
      cache.readStatistics().reset();
      assertArrayEquals(hotData, cache.get(hot, 0));
      for (String worker : cache.readStatistics().bytesByWorker().keySet()) {
        assertFalse(worker.startsWith("region:"), "read from the cache alone: "
            + cache.readStatistics().bytesByWorker());
      }
      // Popularity moves: the other object is read now, the hot one no more.
      for (int i = 0; i < 20; i++) {
        assertArrayEquals(laterData, cache.get(later, 0));
      }
      coordinator.regionalCache().heartbeat(Long.MAX_VALUE);
      // The hot object's splits are freed, and removed from their workers by a maintainer too:
      // Alluxio's free alone often leaves them cached.
      assertEquals(2, maintainer.runOnce(),
          "two tasks: the newly popular object's load, the old one's removal");
      assertEquals(List.of(0, 1, 3, 4), cachedSplits(later));
      awaitCached(hot, List.of()); // freed: the regions keep them
      assertArrayEquals(hotData, cache.get(hot, 0), "read from its regions again");
    }
  }

  @Test
  void replacedAndDeletedVersionsLeaveTheRegionsAfterTheGrace() throws Exception {
    String replaced = "agar/replaced";
    String deleted = "agar/deleted";
    byte[] second = TestData.randomBytes(100_000, 5);
    cache.put(replaced, TestData.randomBytes(120_000, 4));
    cache.put(replaced, second);
    cache.put(deleted, TestData.randomBytes(90_000, 6));
    assertTrue(cache.delete(deleted));
    assertArrayEquals(second, cache.get(replaced));
    assertThrows(NotFoundException.class, () -> cache.get(deleted));
    assertEquals(4, splitsIn(regions.region("near"), replaced).size(), "both versions, for now");
    CoordinatorMaster coordinator = cluster.coordinator();
    coordinator.sweep().heartbeat(Long.MAX_VALUE);
    assertEquals(4, splitsIn(regions.region("near"), replaced).size(),
        "nothing goes before the grace and the allocation timeout");
    Duration past = ALLOCATION_TIMEOUT.plus(GRACE).plusMinutes(1);
    coordinator.clock().advance(past);
    try {
      coordinator.sweep().heartbeat(Long.MAX_VALUE);
    } finally {
      coordinator.clock().advance(past.negated()); // the cluster's time as it was
    }
    for (RunningRegion region : regions.regions()) {
      assertEquals(2, splitsIn(region, replaced).size(), "only the current version stays");
      assertEquals(0, splitsIn(region, deleted).size(), "the deleted object is gone");
    }
    assertArrayEquals(second, cache.get(replaced));
  }
}
