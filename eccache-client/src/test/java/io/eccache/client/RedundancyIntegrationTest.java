package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.common.EcCacheKeys;
import io.eccache.common.proto.StatsResponse;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.SharedCluster;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Popularity-driven redundancy end to end: the coordinator re-tunes from lookups, a maintainer in
 * this JVM (a client, not the master) moves the bytes, and readers keep getting the right bytes.
 */
class RedundancyIntegrationTest {
  private static final int WORKERS = 8;
  private static final int SIZE = 1_200_000;
  /** Its own spec (8 workers, re-tuning every second): the popularity budget is cluster-wide. */
  @RegisterExtension
  static final SharedCluster CLUSTER = SharedCluster.workers(WORKERS).workerMemoryBytes(96L << 20)
      .workerTimeout("3s")
      .property(EcCacheKeys.DEFAULT_K, 3).property(EcCacheKeys.DEFAULT_R, 1)
      .property(EcCacheKeys.CELL_SIZE, "64KB")
      // k = 3, r = 1 costs 33%; a 60% budget leaves room for extra parities.
      .property(EcCacheKeys.MEMORY_OVERHEAD, 0.6)
      .property(EcCacheKeys.POPULARITY_PERIOD, "1s")
      .property(EcCacheKeys.RETUNE_INTERVAL, "1s")
      .property(EcCacheKeys.NAMESPACE_SCHEMES, "sr=replica,sp=partition")
      .build();
  private static EmbeddedCluster cluster;
  private static EcCacheClient cache;
  private static RedundancyMaintainer maintainer;
  private static final Map<String, byte[]> objects = new HashMap<>();

  /**
   * Each test's own client, maintainer and objects: the same 18 keys, PUT fresh before the test and
   * deleted after it (a delete also forgets the key's popularity), so every test starts from new
   * objects nobody has read; the workers a test stops are started again after it (SharedCluster).
   */
  @BeforeEach
  void start() throws Exception {
    cluster = CLUSTER.cluster();
    cache = EcCacheClient.create(cluster.fileSystemContext());
    maintainer = RedundancyMaintainer.create(cache).start(200);
    for (String ns : new String[] {"ec", "sr", "sp"}) {
      for (int i = 0; i < 6; i++) {
        byte[] data = new byte[SIZE + i];
        new Random(ns.hashCode() * 31 + i).nextBytes(data);
        String key = ns + "/o" + i;
        objects.put(key, data);
        cache.put(key, data); // defaults: the namespace's scheme, tuned by the coordinator
      }
    }
  }

  @AfterEach
  void stop() throws Exception {
    try {
      maintainer.close();
      for (String key : objects.keySet()) {
        cache.delete(key);
      }
    } finally {
      cache.close();
    }
  }

  /** Readers that GET {@code hot} keys over and over, checking every byte, until stopped. */
  private static final class Load implements AutoCloseable {
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicLong reads = new AtomicLong();
    final ExecutorService threads = Executors.newFixedThreadPool(3);
    final List<Future<?>> running = new ArrayList<>();

    /** Uniform over {@code hot}. */
    Load(List<String> hot) {
      this(hot, 0);
    }

    /** Zipf({@code skew}) over {@code keys}, the first the most popular. */
    Load(List<String> keys, double skew) {
      double[] cumulative = new double[keys.size()];
      double sum = 0;
      for (int i = 0; i < keys.size(); i++) {
        sum += 1 / Math.pow(i + 1, skew);
        cumulative[i] = sum;
      }
      double total = sum;
      for (int t = 0; t < 3; t++) {
        running.add(threads.submit(() -> {
          Random random = new Random();
          while (!stop.get()) {
            double u = random.nextDouble() * total;
            int pick = 0;
            while (cumulative[pick] < u) {
              pick++;
            }
            String key = keys.get(pick);
            assertArrayEquals(objects.get(key), cache.get(key), key);
            reads.incrementAndGet();
          }
          return null;
        }));
      }
    }

    @Override
    public void close() throws Exception {
      stop.set(true);
      try {
        for (Future<?> f : running) {
          f.get(); // rethrows a wrong read
        }
      } finally {
        threads.shutdownNow();
      }
    }
  }

  private static void await(String what, BooleanSupplier condition) throws Exception {
    // (the failure message lists every object's state and the coordinator's counters)
    long deadline = System.currentTimeMillis() + 60_000;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        StringBuilder state = new StringBuilder();
        for (String key : new java.util.TreeSet<>(objects.keySet())) {
          state.append("\n  ").append(stat(key));
        }
        throw new AssertionError("timed out waiting until " + what + "; objects:" + state
            + "\n" + cache.stats());
      }
      Thread.sleep(200);
    }
  }

  private static ObjectStat stat(String key) {
    try {
      return cache.stat(key);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aHotObjectGainsParitiesAndLosesThemWhenItCools() throws Exception {
    assertEquals(1, stat("ec/o0").r());
    assertTrue(stat("ec/o0").tuned());
    List<String> byRank = List.of("ec/o0", "ec/o1", "ec/o2", "ec/o3", "ec/o4", "ec/o5");
    // Zipf(1.1): per-split loads 1/4, 0.47/4, ... so the 4 extra splits the budget buys all go
    // to the hottest object before the second one's load is the highest.
    try (Load load = new Load(byRank, 1.1)) {
      await("ec/o0 has extra parities", () -> stat("ec/o0").r() > 1);
      await("ec/o0 reached its target", () -> stat("ec/o0").r() == stat("ec/o0").target());
    }
    ObjectStat hot = stat("ec/o0");
    assertEquals(3 + hot.r(), hot.liveSplits(), "every new parity is live: " + hot);
    assertEquals(1, stat("ec/o5").r(), "the coldest object keeps the base parity");
    // Popularity moves to another object: the first cools and gives its parities back.
    try (Load load = new Load(List.of("ec/o5"))) {
      await("ec/o5 has extra parities", () -> stat("ec/o5").r() > 1);
      await("ec/o0 is back to the base parity", () -> stat("ec/o0").r() == 1);
    }
    for (String key : List.of("ec/o0", "ec/o5")) {
      assertArrayEquals(objects.get(key), cache.get(key, 0), key);
    }
    StatsResponse stats = cache.stats();
    assertTrue(stats.getSplitsAdded() >= 2, stats.toString());
    assertTrue(stats.getSplitsDropped() >= 1, stats.toString());
    assertTrue(stats.getMaintenanceBytes() > 0, stats.toString());
  }

  @Test
  void selectiveReplicationAndSpCacheFollowPopularityToo() throws Exception {
    assertEquals("replica", stat("sr/o0").scheme());
    assertEquals(0, stat("sr/o0").r(), "a tuned replicated object starts as one copy");
    assertEquals("partition", stat("sp/o0").scheme());
    assertEquals(1, stat("sp/o0").k(), "SP-Cache writes a new object unsplit");
    try (Load load = new Load(List.of("sr/o1", "sp/o1"))) {
      await("sr/o1 has extra copies", () -> stat("sr/o1").r() > 0);
      await("sp/o1 is partitioned", () -> stat("sp/o1").k() > 1);
    }
    assertArrayEquals(objects.get("sp/o1"), cache.get("sp/o1"));
    assertArrayEquals(objects.get("sr/o1"), cache.get("sr/o1"));
    assertTrue(cache.stats().getRepartitions() >= 1);
  }

  @Test
  void lostSplitsAreRebuiltAndASecondFailureLosesNothing() throws Exception {
    List<String> ecKeys = new ArrayList<>();
    for (String key : objects.keySet()) {
      if (key.startsWith("ec/")) {
        ecKeys.add(key);
      }
    }
    cluster.stopWorker(0);
    cluster.awaitLiveWorkers(WORKERS - 1);
    await("every ec object is back at full redundancy", () -> ecKeys.stream().allMatch(k -> {
      ObjectStat s = stat(k);
      return s.liveSplits() == s.k() + s.r();
    }));
    assertTrue(cache.stats().getSplitsRepaired() > 0);
    cluster.stopWorker(1);
    cluster.awaitLiveWorkers(WORKERS - 2);
    cache.readStatistics().reset();
    for (String key : ecKeys) {
      assertArrayEquals(objects.get(key), cache.get(key), key);
    }
    assertEquals(0, cache.readStatistics().fallbacks(), "nothing came from S3: "
        + Arrays.toString(ecKeys.toArray()));
  }
}
