package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.AlluxioURI;
import io.eccache.common.MasterKeys;
import io.eccache.common.ObjectPaths;
import io.eccache.common.RedundancyScheme;
import io.eccache.coordinator.CoordinatorMaster;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.SharedCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
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
  /** As alluxio.master.eccache.popularity.period below: each re-tuning round moves the clock this much. */
  private static final Duration PERIOD = Duration.ofSeconds(1);
  /** The reads one round (one popularity period) waits for when there is a load. */
  private static final int READS_PER_PERIOD = 60;
  private static final int MAX_ROUNDS = 60;
  /**
   * Its own spec (8 workers; re-tuning runs only when a test ticks it): the popularity budget is
   * cluster-wide.
   */
  @RegisterExtension
  static final SharedCluster CLUSTER = SharedCluster.of(EmbeddedCluster.builder().workers(WORKERS)
      .workerMemoryBytes(96L << 20)
      .workerTimeout("3s")
      .property(MasterKeys.DEFAULT_K, 3).property(MasterKeys.DEFAULT_R, 1)
      .property(MasterKeys.CELL_SIZE, "64KB")
      // k = 3, r = 1 costs 33%; a 60% budget leaves room for extra parities.
      .property(MasterKeys.MEMORY_OVERHEAD, 0.6)
      .property(MasterKeys.POPULARITY_PERIOD, "1s")
      // Only the test's own passes run (see converge); the heartbeat thread would wait an hour.
      .property(MasterKeys.RETUNE_INTERVAL, "1h")
      .property(MasterKeys.NAMESPACE_SCHEMES, "sr=replica,sp=partition"));
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
    maintainer = RedundancyMaintainer.create(cache); // run by converge, in the test's thread
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
    final Semaphore readsDone = new Semaphore(0);
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
            readsDone.release();
          }
          return null;
        }));
      }
    }

    /** Waits for {@code n} reads from now (a popularity period's worth of load). */
    void awaitReads(int n) throws InterruptedException {
      readsDone.drainPermits();
      if (!readsDone.tryAcquire(n, 60, TimeUnit.SECONDS)) {
        throw new AssertionError("the readers did not read " + n + " times in 60 s");
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

  /**
   * Drives re-tuning and maintenance until {@code condition} holds, with no scheduler to wait for.
   * One round: {@code load} reads for a while (most GETs from cached layouts, their reads reported
   * before the clock moves), the coordinator's clock moves one popularity period
   * (so the pass folds that period and measures its request rate), one re-tuning pass runs, and the
   * maintainer carries out what it queued. Fails after {@value #MAX_ROUNDS} rounds, listing every
   * object's state and the coordinator's counters.
   */
  private static void converge(String what, Load load, BooleanSupplier condition)
      throws Exception {
    CoordinatorMaster coordinator = cluster.coordinator();
    for (int round = 0; !condition.getAsBoolean(); round++) {
      if (round == MAX_ROUNDS) {
        StringBuilder state = new StringBuilder();
        for (String key : new java.util.TreeSet<>(objects.keySet())) {
          state.append("\n  ").append(stat(key));
        }
        throw new AssertionError("not " + what + " after " + MAX_ROUNDS + " re-tuning rounds;"
            + " objects:" + state + "\n" + cache.stats());
      }
      if (load != null) {
        load.awaitReads(READS_PER_PERIOD);
      }
      // GETs served from cached layouts reach the coordinator in a report, every second in the
      // background: send it now, so this period counts them, as it counted lookups.
      cache.reportCachedReads();
      coordinator.clock().advance(PERIOD);
      coordinator.retuner().heartbeat(Long.MAX_VALUE);
      for (int batch = 0; batch < 50 && maintainer.runOnce() > 0; batch++) {
        // every task the pass queued, a batch per plan
      }
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
    assertEquals(1, parities("ec/o0"));
    assertTrue(stat("ec/o0").tuned());
    List<String> byRank = List.of("ec/o0", "ec/o1", "ec/o2", "ec/o3", "ec/o4", "ec/o5");
    // Zipf(1.1): per-split loads 1/4, 0.47/4, ... so the 4 extra splits the budget buys all go
    // to the hottest object before the second one's load is the highest.
    try (Load load = new Load(byRank, 1.1)) {
      converge("ec/o0 has extra parities", load, () -> parities("ec/o0") > 1);
      converge("ec/o0 reached its target", load,
          () -> stat("ec/o0").scheme().equals(stat("ec/o0").target()));
    }
    ObjectStat hot = stat("ec/o0");
    assertEquals(hot.scheme().splits(), hot.liveSplits(), "every new parity is live: " + hot);
    assertEquals(1, parities("ec/o5"), "the coldest object keeps the base parity");
    // Popularity moves to another object: the first cools and gives its parities back.
    try (Load load = new Load(List.of("ec/o5"))) {
      converge("ec/o5 has extra parities", load, () -> parities("ec/o5") > 1);
      converge("ec/o0 is back to the base parity", load, () -> parities("ec/o0") == 1);
    }
    for (String key : List.of("ec/o0", "ec/o5")) {
      assertArrayEquals(objects.get(key), cache.get(key, 0), key);
    }
    CacheStats stats = cache.stats();
    assertTrue(stats.splitsAdded() >= 2, stats.toString());
    assertTrue(stats.splitsDropped() >= 1, stats.toString());
    assertTrue(stats.maintenanceBytes() > 0, stats.toString());
  }

  @Test
  void selectiveReplicationAndSpCacheFollowPopularityToo() throws Exception {
    assertEquals(RedundancyScheme.replicated(1), stat("sr/o0").scheme(),
        "a tuned replicated object starts as one copy");
    assertEquals(RedundancyScheme.partitioned(1), stat("sp/o0").scheme(),
        "SP-Cache writes a new object unsplit");
    try (Load load = new Load(List.of("sr/o1", "sp/o1"))) {
      converge("sr/o1 has extra copies", load, () -> stat("sr/o1").scheme().copies() > 1);
      converge("sp/o1 is partitioned", load, () -> stat("sp/o1").scheme().dataSplits() > 1);
    }
    assertArrayEquals(objects.get("sp/o1"), cache.get("sp/o1"));
    assertArrayEquals(objects.get("sr/o1"), cache.get("sr/o1"));
    assertTrue(cache.stats().repartitions() >= 1);
  }

  @Test
  void lostSplitsAreRebuiltAndASecondFailureLosesNothing() throws Exception {
    List<String> ecKeys = new ArrayList<>();
    for (String key : objects.keySet()) {
      if (key.startsWith("ec/")) {
        ecKeys.add(key);
      }
    }
    // Placement is random: stop the workers that hold the most ec splits, so both failures
    // lose something (a worker holding none would leave nothing to rebuild).
    int first = busiestWorker(ecKeys, -1);
    cluster.stopWorker(first);
    cluster.awaitLiveWorkers(WORKERS - 1);
    converge("every ec object is back at full redundancy", null,
        () -> ecKeys.stream().allMatch(k -> {
          ObjectStat s = stat(k);
          return s.liveSplits() == s.scheme().splits();
        }));
    assertTrue(cache.stats().splitsRepaired() > 0);
    cluster.stopWorker(busiestWorker(ecKeys, first));
    cluster.awaitLiveWorkers(WORKERS - 2);
    cache.readStatistics().reset();
    for (String key : ecKeys) {
      assertArrayEquals(objects.get(key), cache.get(key), key);
    }
    assertEquals(0, cache.readStatistics().fallbacks(), "nothing came from S3: "
        + Arrays.toString(ecKeys.toArray()));
  }

  /** The running worker, other than {@code except}, holding the most splits of {@code keys}. */
  private static int busiestWorker(List<String> keys, int except) throws Exception {
    ObjectPaths paths = new ObjectPaths("/.eccache");
    int[] held = new int[WORKERS];
    for (String key : keys) {
      for (alluxio.client.file.URIStatus write : cluster.fileSystem()
          .listStatus(new AlluxioURI(paths.objectDirectory(key)))) {
        for (alluxio.client.file.URIStatus split : cluster.fileSystem()
            .listStatus(new AlluxioURI(write.getPath()))) {
          for (alluxio.wire.FileBlockInfo block : split.getFileBlockInfos()) {
            for (alluxio.wire.BlockLocation at : block.getBlockInfo().getLocations()) {
              held[cluster.workerIndex(at.getWorkerAddress().getHost())]++;
            }
          }
        }
      }
    }
    int busiest = except == 0 ? 1 : 0;
    for (int i = 0; i < WORKERS; i++) {
      if (i != except && held[i] > held[busiest]) {
        busiest = i;
      }
    }
    assertTrue(held[busiest] > 0, "no worker holds a split of " + keys);
    return busiest;
  }

  @Test
  void aLostTunedObjectComesBackFromS3WithTheRedundancyItEarned() throws Exception {
    String key = "sp/o2";
    byte[] data = objects.get(key);
    cache.put(key, data, PutOptions.defaults().writeMode(WriteMode.THROUGH));
    try (Load load = new Load(List.of(key))) {
      converge(key + " is partitioned", load, () -> stat(key).scheme().dataSplits() > 2);
    }
    RedundancyScheme earned = stat(key).scheme();
    // SP-Cache has no redundancy: one partition's worker gone and the GET reads S3's copy, then
    // stores the object again.
    String dir = new ObjectPaths("/.eccache").objectDirectory(key);
    String write = cluster.fileSystem().listStatus(new AlluxioURI(dir)).get(0).getPath();
    alluxio.client.file.URIStatus split =
        cluster.fileSystem().listStatus(new AlluxioURI(write)).get(0);
    cluster.stopWorker(cluster.workerIndex(split.getFileBlockInfos().get(0).getBlockInfo()
        .getLocations().get(0).getWorkerAddress().getHost()));
    cluster.awaitLiveWorkers(WORKERS - 1);
    cache.readStatistics().reset();
    assertArrayEquals(data, cache.get(key));
    assertEquals(1, cache.readStatistics().fallbacks());
    ObjectStat again = stat(key);
    // Not SP-Cache's one partition of a new write: the partitions its popularity earned, as many
    // as the live workers hold.
    assertEquals(earned.withRedundancy(Math.min(earned.redundancy(), WORKERS - 1)),
        again.scheme(), again.toString());
    assertTrue(again.tuned(), "still tuned: " + again);
    assertEquals(again.scheme().splits(), again.liveSplits(), again.toString());
    assertArrayEquals(data, cache.get(key));
    assertEquals(1, cache.readStatistics().fallbacks(), "the second GET is served by the cache");
  }

  @Test
  void readsServedFromCachedLayoutsCountAsPopularity() throws Exception {
    byte[] data = objects.get("ec/o4");
    long lookups = cache.stats().lookups();
    long reported = cache.stats().readsReported();
    int gets = 12;
    for (int i = 0; i < gets; i++) {
      assertArrayEquals(data, cache.get("ec/o4"));
    }
    cache.reportCachedReads();
    assertEquals(lookups + 1, cache.stats().lookups(), "one lookup, the other GETs cached");
    assertEquals(reported + gets - 1, cache.stats().readsReported());
    cluster.coordinator().clock().advance(PERIOD);
    cluster.coordinator().retuner().heartbeat(Long.MAX_VALUE);
    // Agar's EWMA with weight 0.8 over a key nobody read before: every GET counted once.
    assertEquals(0.8 * gets, stat("ec/o4").popularity(), 1e-9, stat("ec/o4").toString());
  }

  private static int parities(String key) {
    return stat(key).scheme().paritySplits();
  }
}
