package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.conf.Configuration;
import alluxio.conf.InstancedConfiguration;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.NotFoundException;
import alluxio.exception.status.UnavailableException;
import io.eccache.common.ClientKeys;
import io.eccache.common.MasterKeys;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestData;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The client's layout cache over a real cluster ({@link ClientTestCluster}): a repeated GET costs
 * no lookup, the client's own changes are seen at once, another client's after the TTL and never
 * mixed, and a layout whose reads failed is looked up again. That the reads it served still count
 * as popularity: {@code RedundancyIntegrationTest} (a cluster whose re-tuning only tests run).
 */
class LayoutCacheTest {
  @RegisterExtension
  static final SharedCluster CLUSTER = ClientTestCluster.fiveWorkers();
  /** Objects of several stripes (64 KB cells, k = 3) and windows (400 KB), so a mix would show. */
  private static final int SIZE = 900_000;
  private EmbeddedCluster cluster;
  private EcCacheClient cache;

  @BeforeEach
  void start() throws Exception {
    cluster = CLUSTER.cluster();
    cache = ClientTestCluster.client(cluster);
  }

  @AfterEach
  void stop() {
    cache.close();
  }

  private static EcCacheClient withTtl(String ttl) {
    return withTtl(ttl, com.google.common.base.Ticker.systemTicker());
  }

  /** A client whose layouts age on {@code clock}. */
  private static EcCacheClient withTtl(String ttl, com.google.common.base.Ticker clock) {
    InstancedConfiguration conf = Configuration.copyGlobal();
    conf.set(ClientKeys.LAYOUT_CACHE_TTL, ttl);
    return EcCacheClient.create(conf, clock);
  }

  private long lookups() throws Exception {
    return cache.stats().lookups();
  }

  @Test
  void aRepeatedGetCostsNoLookupAndItsReadStillCounts() throws Exception {
    byte[] data = TestData.randomBytes(SIZE, 1);
    cache.put("lc/repeat", data, PutOptions.code(3, 1));
    long before = lookups();
    assertArrayEquals(data, cache.get("lc/repeat"));
    assertEquals(before + 1, lookups(), "the first GET looks the key up");
    long reported = cache.stats().readsReported();
    assertArrayEquals(data, cache.get("lc/repeat"));
    assertArrayEquals(data, cache.get("lc/repeat", 0));
    assertArrayEquals(java.util.Arrays.copyOfRange(data, 70_000, 80_000),
        cache.get("lc/repeat", 70_000, 10_000));
    try (InputStream in = cache.openStream("lc/repeat")) {
      assertArrayEquals(data, in.readAllBytes());
    }
    assertEquals(before + 1, lookups(), "GETs from the cached layout make no lookup");
    cache.reportCachedReads();
    assertEquals(reported + 4, cache.stats().readsReported(), "each cached GET was reported");
    cache.delete("lc/repeat");
  }

  @Test
  void theClientsOwnPutDeleteAndEvictAreSeenAtOnce() throws Exception {
    byte[] v1 = TestData.randomBytes(SIZE, 2);
    byte[] v2 = TestData.randomBytes(SIZE + 7, 3);
    cache.put("lc/own", v1, PutOptions.code(3, 1));
    assertArrayEquals(v1, cache.get("lc/own"));
    assertTrue(cache.context().layouts().holds("lc/own"));
    cache.put("lc/own", v2, PutOptions.code(2, 1));
    assertFalse(cache.context().layouts().holds("lc/own"), "a PUT drops the key's layout");
    assertArrayEquals(v2, cache.get("lc/own"));
    try (InputStream in = cache.openStream("lc/own")) {
      assertArrayEquals(v2, in.readAllBytes());
    }
    assertTrue(cache.delete("lc/own"));
    assertThrows(NotFoundException.class, () -> cache.get("lc/own"));
    cache.put("lc/own", v1, PutOptions.code(3, 1));
    assertArrayEquals(v1, cache.get("lc/own"));
    assertTrue(cache.evict("lc/own")); // cache only: S3 has no copy, so the key is gone
    assertThrows(NotFoundException.class, () -> cache.get("lc/own"));
  }

  @Test
  void anotherClientsOverwriteIsSeenAfterTheTtlAndNeverMixed() throws Exception {
    byte[] v1 = TestData.randomBytes(SIZE, 4);
    byte[] v2 = TestData.randomBytes(SIZE, 5);
    byte[] v3 = TestData.randomBytes(SIZE, 6);
    cache.put("lc/other", v1, PutOptions.code(3, 1));
    // Layouts age on a clock the test moves. A TTL longer than the clock moves here: the
    // previous version, whole.
    FakeTicker clock = new FakeTicker();
    try (EcCacheClient slow = withTtl("45s", clock); EcCacheClient quick = withTtl("300ms", clock)) {
      assertArrayEquals(v1, slow.get("lc/other"));
      cache.put("lc/other", v2, PutOptions.code(2, 1));
      assertArrayEquals(v1, slow.get("lc/other"), "the cached layout's version, whole");
      assertArrayEquals(java.util.Arrays.copyOfRange(v1, 300_000, 700_000),
          slow.get("lc/other", 300_000, 400_000));
      try (InputStream in = slow.openStream("lc/other")) {
        assertArrayEquals(v1, in.readAllBytes());
      }
      assertArrayEquals(v2, quick.get("lc/other"));
      cache.put("lc/other", v3, PutOptions.code(3, 1));
      assertArrayEquals(v2, quick.get("lc/other"), "within the TTL: the cached version");
      clock.advanceMs(400); // past the quick client's TTL: its next GET looks the key up
      assertArrayEquals(v3, quick.get("lc/other"), "after the TTL: the new version");
      cache.delete("lc/other");
      assertArrayEquals(v1, slow.get("lc/other"), "a deleted version stays readable in the grace");
      clock.advanceMs(400);
      assertThrows(NotFoundException.class, () -> quick.get("lc/other"));
    }
  }

  @Test
  void aLayoutReadPastHalfItsTtlIsRefreshedInTheBackgroundAndAnOverwriteStillShowsInTheTtl()
      throws Exception {
    byte[] v1 = TestData.randomBytes(SIZE, 11);
    byte[] v2 = TestData.randomBytes(SIZE, 12);
    cache.put("lc/hot", v1, PutOptions.code(3, 1));
    FakeTicker clock = new FakeTicker();
    try (EcCacheClient hot = withTtl("2s", clock)) {
      long before = lookups();
      assertArrayEquals(v1, hot.get("lc/hot"));
      assertEquals(before + 1, lookups(), "the first GET looks the key up");
      clock.advanceMs(900);
      assertArrayEquals(v1, hot.get("lc/hot"));
      LayoutCache layouts = hot.context().layouts();
      assertEquals(0, layouts.refreshes(), "within half the TTL: no refresh");
      clock.advanceMs(200);
      assertArrayEquals(v1, hot.get("lc/hot")); // past half the TTL: starts a refresh
      for (long end = System.nanoTime() + 10_000_000_000L; layouts.refreshes() == 0; ) {
        assertTrue(System.nanoTime() < end, "no background refresh within 10 s");
        Thread.sleep(10); // polls the refresh thread's work: no time of the cache's passes
      }
      clock.advanceMs(1_200); // past the first lookup's TTL, within the refresh's
      assertArrayEquals(v1, hot.get("lc/hot"));
      assertEquals(before + 1, lookups(), "no GET looked the key up on its own thread again");

      cache.put("lc/hot", v2, PutOptions.code(2, 1));
      long sinceMs = 0;
      boolean sawNew = false;
      while (!sawNew) {
        byte[] got = hot.get("lc/hot");
        sawNew = java.util.Arrays.equals(v2, got);
        assertTrue(sawNew || java.util.Arrays.equals(v1, got), "a whole version, never a mix");
        assertTrue(sawNew || sinceMs < 2_000, "the overwrite unseen " + sinceMs + " ms later");
        clock.advanceMs(100);
        sinceMs += 100;
      }
    }
    cache.delete("lc/hot");
  }

  @Test
  void aZeroTtlLooksUpEveryGetAndATtlAsLongAsTheGraceIsRefused() throws Exception {
    byte[] data = TestData.randomBytes(1000, 7);
    cache.put("lc/zero", data, PutOptions.code(2, 1));
    try (EcCacheClient off = withTtl("0")) {
      long before = lookups();
      assertArrayEquals(data, off.get("lc/zero"));
      assertArrayEquals(data, off.get("lc/zero"));
      assertEquals(before + 2, lookups());
    }
    cache.delete("lc/zero");
    InstancedConfiguration conf = Configuration.copyGlobal();
    conf.set(ClientKeys.LAYOUT_CACHE_TTL, conf.getMs(MasterKeys.RETIRED_GRACE) + "ms");
    IllegalArgumentException tooLong =
        assertThrows(IllegalArgumentException.class, () -> EcCacheClient.create(conf));
    assertTrue(tooLong.getMessage().contains(MasterKeys.RETIRED_GRACE.getName()),
        tooLong.getMessage());
    conf.set(ClientKeys.LAYOUT_CACHE_TTL, "1s");
    conf.set(ClientKeys.LAYOUT_CACHE_MAX_ENTRIES, -1);
    assertThrows(IllegalArgumentException.class, () -> EcCacheClient.create(conf));
  }

  @Test
  void aBadReadReportIsRefusedWholeBeforeAnythingCounts() throws Exception {
    long reported = cache.stats().readsReported();
    var coordinator = cache.context().coordinator();
    Map<String, Long> badCount = new LinkedHashMap<>();
    badCount.put("lc/fine", 3L);
    badCount.put("lc/zero", 0L);
    assertThrows(InvalidArgumentException.class, () -> coordinator.reportReads(badCount));
    assertThrows(InvalidArgumentException.class,
        () -> coordinator.reportReads(Map.of("lc/fine", 3L, "", 1L)));
    assertEquals(reported, cache.stats().readsReported(), "nothing of a refused report counts");
    coordinator.reportReads(Map.of("lc/fine", 3L));
    assertEquals(reported + 3, cache.stats().readsReported());
  }

  @Test
  void aGetWhoseCachedLayoutIsOutOfDateReadsTheSameWriteFromANewLookup() throws Exception {
    byte[] data = TestData.randomBytes(SIZE, 10);
    cache.put("lc/moved", data, PutOptions.code(2, 1)); // cache only: no S3 copy to fall to
    // A cached layout of the same write that no longer says where its splits are: here two of
    // three marked not live (as after a repair moved them), so it cannot give k = 2.
    LookupResponse current = cache.context().coordinator().lookup("lc/moved", true);
    LookupResponse.Builder stale = current.toBuilder();
    stale.setSplits(0, stale.getSplits(0).toBuilder().setLive(false));
    stale.setSplits(1, stale.getSplits(1).toBuilder().setLive(false));
    cache.context().layouts().putForTest(stale.build());
    cache.readStatistics().reset();
    long before = lookups();
    assertArrayEquals(data, cache.get("lc/moved"), "read again from the new lookup, whole");
    assertArrayEquals(java.util.Arrays.copyOfRange(data, 1000, 2000),
        cache.get("lc/moved", 1000, 1000));
    assertEquals(before + 1, lookups(), "the next GET looked the key up (counted once)");
    assertEquals(0, cache.readStatistics().fallbacks(), "nothing from S3 (it has no copy)");
    cache.delete("lc/moved");
  }

  @Test
  void aLayoutWhoseReadsFailedIsLookedUpAgain() throws Exception {
    byte[] data = TestData.randomBytes(SIZE, 8);
    cache.put("lc/failing", data, PutOptions.code(3, 1)); // cache only: no S3 copy to fall to
    assertArrayEquals(data, cache.get("lc/failing"));
    assertTrue(cache.context().layouts().holds("lc/failing"));
    // Two of the four splits' workers stop: the cached layout cannot give k = 3.
    Set<Integer> holders = new LinkedHashSet<>();
    LookupResponse lookup = cache.context().coordinator().lookup("lc/failing", true);
    for (Split s : lookup.getSplitsList()) {
      holders.add(cluster.workerIndex(s.getWorker().getHost()));
    }
    Integer[] stop = holders.toArray(new Integer[0]);
    try {
      cluster.stopWorker(stop[0]);
      cluster.stopWorker(stop[1]);
      assertThrows(UnavailableException.class, () -> cache.get("lc/failing"));
      assertFalse(cache.context().layouts().holds("lc/failing"), "a failed layout is dropped");
      long before = lookups();
      assertThrows(UnavailableException.class, () -> cache.get("lc/failing"));
      assertEquals(before + 1, lookups(), "the next GET looks the key up again");
    } finally {
      cluster.startWorker(stop[0]);
      cluster.startWorker(stop[1]);
      cluster.awaitLiveWorkers(ClientTestCluster.WORKERS);
    }
    cache.delete("lc/failing");
  }
}
