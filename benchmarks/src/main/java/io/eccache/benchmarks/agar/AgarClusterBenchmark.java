package io.eccache.benchmarks.agar;

import alluxio.AlluxioURI;
import alluxio.client.block.stream.BlockWorkerClient;
import alluxio.client.file.FileSystem;
import alluxio.client.file.URIStatus;
import alluxio.conf.PropertyKey;
import alluxio.exception.AlluxioException;
import alluxio.grpc.FreePOptions;
import alluxio.grpc.RemoveBlockRequest;
import alluxio.resource.CloseableResource;
import alluxio.wire.BlockLocation;
import alluxio.wire.FileBlockInfo;
import alluxio.wire.WorkerNetAddress;
import io.eccache.benchmarks.sim.agar.CachePolicySpec;
import io.eccache.client.EcCacheClient;
import io.eccache.client.RedundancyMaintainer;
import io.eccache.common.ClientKeys;
import io.eccache.common.MasterKeys;
import io.eccache.coordinator.CoordinatorMaster;
import io.eccache.policy.ZipfSampler;
import io.eccache.policy.agar.AgarRegions;
import io.eccache.policy.agar.Region;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.LoopbackRegions;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * Agar's evaluation (ICDCS'17, Fig. 8a and 8b) on a real cluster: regional objects (RS(9,3) over
 * Table I's six regions, scaled, each a loopback S3 server behind its own delay, docs/agar.md), the
 * coordinator's regional cache running one policy at a time (Agar, LFU-c, LRU-c or none) at the
 * same capacity, closed-loop clients reading Zipf-distributed keys with Δ = 0 (Agar reads k).
 *
 * <p>Alone mode: each policy is measured on its own, one after the other, over the same objects
 * and the same request sequence per seed, from an empty cache. The benchmark drives the periods
 * (the coordinator's regional-cache heartbeat, then maintainers loading what it planned) on its own
 * clock, so a period is the same length for every policy. A read counts as a hit when at least one
 * of its splits came from a worker (the paper's partial hit), and as a full hit when none came
 * from a region.
 */
public final class AgarClusterBenchmark {
  /** Where the benchmark's keys live: the regional namespace. */
  static final String NAMESPACE = "agar";
  private static final int MAINTAINERS = 4;
  private static final long STEP_TIMEOUT_MS = 600_000;
  private static final int MAX_WARMUP_READS = 100_000;

  private final AgarClusterSettings s;
  private final Consumer<String> progress;

  public AgarClusterBenchmark(AgarClusterSettings settings, Consumer<String> progress) {
    this.s = settings;
    this.progress = progress;
  }

  /** One policy's run at one point and seed. */
  public static final class RunResult {
    public final AgarClusterSettings.Point point;
    public final long seed;
    public final String policy;
    public final int capacitySplits;
    /** Latency of every measured read, microseconds. */
    public final Histogram latencyMicros = new Histogram(3);
    public long sumMicros;
    public int reads;
    public int hits;
    public int fullHits;
    /** Splits a worker held when the run ended. */
    public int cachedSplits;
    /** Freed splits still cached before the run, removed by their worker when asked directly. */
    public int splitsRemovedOnWorkers;
    /** Workers restarted empty before the run because freed splits stayed cached even so. */
    public int workersRestarted;

    RunResult(AgarClusterSettings.Point point, long seed, String policy, int capacitySplits) {
      this.point = point;
      this.seed = seed;
      this.policy = policy;
      this.capacitySplits = capacitySplits;
    }

    public double meanMs() {
      return reads == 0 ? 0 : sumMicros / 1000.0 / reads;
    }

    public double medianMs() {
      return latencyMicros.getValueAtPercentile(50) / 1000.0;
    }

    public double p99Ms() {
      return latencyMicros.getValueAtPercentile(99) / 1000.0;
    }

    public double hitRatio() {
      return reads == 0 ? 0 : hits / (double) reads;
    }

    public double fullHitRatio() {
      return reads == 0 ? 0 : fullHits / (double) reads;
    }
  }

  /** The policy as the master key names it. */
  static String masterSpec(CachePolicySpec p) {
    switch (p.kind()) {
      case AGAR:
        return "agar";
      case LFU:
        return "lfu-" + p.chunks();
      case LRU:
        return "lru-" + p.chunks();
      default:
        return "none";
    }
  }

  /** Runs every point, seed and policy; returns the runs in the order they ran. */
  public List<RunResult> run() throws IOException, InterruptedException {
    List<Region> table = AgarRegions.fromFrankfurt(s.latencyScale);
    List<LoopbackRegions.Spec> specs = LoopbackRegions.specs(table, 0);
    try (LoopbackRegions regions = LoopbackRegions.start(null, specs)) {
      StringBuilder spec = new StringBuilder();
      for (LoopbackRegions.RunningRegion r : regions.regions()) {
        spec.append(spec.length() == 0 ? "" : ",").append(r.slug()).append('=')
            .append(r.mountPoint()).append('@').append(r.spec().readLatency().toMillis())
            .append("ms");
      }
      EmbeddedCluster.Builder builder = EmbeddedCluster.builder().workers(s.workers)
          .workerMemoryBytes(s.workerMemoryBytes)
          .property(MasterKeys.REGIONS, spec.toString())
          .property(MasterKeys.REGIONAL_NAMESPACES, NAMESPACE)
          .property(MasterKeys.REGIONAL_SCHEME, "rs-" + s.k + "-" + s.m)
          .property(MasterKeys.REGIONAL_POLICY, "none")
          // The benchmark runs the periods itself, on its own clock.
          .property(MasterKeys.REGIONAL_PERIOD, "0")
          .property(MasterKeys.RETUNE_INTERVAL, "0")
          .property(MasterKeys.CELL_SIZE, String.valueOf(Math.max(1, s.objectBytes / s.k + 1)))
          .property(PropertyKey.USER_BLOCK_READ_RETRY_MAX_DURATION, "2s");
      progress.accept("starting " + s.workers + " workers and " + specs.size()
          + " regions (" + spec + ")");
      try (EmbeddedCluster cluster = builder.start()) {
        regions.mount(cluster.fileSystem(), Map.of(
            PropertyKey.UNDERFS_S3_MAX_ERROR_RETRY.getName(), "3",
            PropertyKey.UNDERFS_S3_SOCKET_TIMEOUT.getName(), "10s",
            PropertyKey.UNDERFS_S3_REQUEST_TIMEOUT.getName(), "10s"));
        List<WorkerNetAddress> workers = new ArrayList<>();
        for (int i = 0; i < cluster.workerCount(); i++) {
          workers.add(cluster.workerAddress(i));
        }
        regions.warm(cluster.fileSystem(), workers); // around an Alluxio 2.9.6 race, see there
        List<EcCacheClient> clients = new ArrayList<>();
        try {
          for (int i = 0; i < s.clients; i++) {
            clients.add(EcCacheClient.create(cluster.fileSystemContext()));
          }
          byte[][] data = store(clients.get(0));
          return measure(cluster, regions, clients, data);
        } finally {
          for (EcCacheClient c : clients) {
            c.close();
          }
          regions.unmount(cluster.fileSystem());
        }
      }
    }
  }

  static String key(int object) {
    return NAMESPACE + "/o" + object;
  }

  /** PUTs every object (several at once: each split's write waits on its region). */
  private byte[][] store(EcCacheClient client) throws IOException, InterruptedException {
    byte[][] data = new byte[s.objects][];
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> puts = new ArrayList<>();
      AtomicInteger done = new AtomicInteger();
      for (int i = 0; i < s.objects; i++) {
        int object = i;
        data[i] = new byte[s.objectBytes];
        new Random(object).nextBytes(data[i]);
        puts.add(pool.submit(() -> {
          client.put(key(object), data[object]);
          int n = done.incrementAndGet();
          if (n % 25 == 0 || n == s.objects) {
            progress.accept("stored " + n + "/" + s.objects + " objects in the regions");
          }
          return null;
        }));
      }
      awaitAll(puts, "storing the objects");
    } finally {
      pool.shutdownNow();
    }
    return data;
  }

  private List<RunResult> measure(EmbeddedCluster cluster, LoopbackRegions regions,
      List<EcCacheClient> clients, byte[][] data) throws IOException, InterruptedException {
    List<RunResult> results = new ArrayList<>();
    int total = 0;
    for (AgarClusterSettings.Point point : s.points) {
      total += point.policies.size() * point.seeds;
    }
    int n = 0;
    long began = System.nanoTime();
    for (AgarClusterSettings.Point point : s.points) {
      for (int r = 0; r < point.seeds; r++) {
        long seed = s.seed + r;
        // The policies of one point and seed in a shuffled order, so none always runs first.
        List<CachePolicySpec> order = new ArrayList<>(point.policies);
        java.util.Collections.shuffle(order, new Random(seed * 31 + point.toString().hashCode()));
        for (CachePolicySpec policy : order) {
          n++;
          int capacity = s.capacitySplits(point.cacheMb);
          progress.accept(String.format(java.util.Locale.ROOT,
              "run %d/%d: %s, cache %.0f MB-eq (%d splits), Zipf %.1f, seed %d", n, total,
              policy.name(), point.cacheMb, capacity, point.skew, seed));
          long start = System.nanoTime();
          RunResult result = runOne(cluster, regions, clients, data, point, seed, policy,
              capacity);
          long now = System.nanoTime();
          progress.accept(String.format(java.util.Locale.ROOT,
              "  mean %.1f ms, median %.1f, p99 %.1f, hits %.0f%% (full %.0f%%), %d splits"
                  + " cached; run took %.0f s, about %.0f min left", result.meanMs(),
              result.medianMs(), result.p99Ms(), 100 * result.hitRatio(),
              100 * result.fullHitRatio(), result.cachedSplits, (now - start) / 1e9,
              (now - began) / 60e9 / n * (total - n)));
          results.add(result);
        }
      }
    }
    return results;
  }

  private RunResult runOne(EmbeddedCluster cluster, LoopbackRegions regions,
      List<EcCacheClient> clients, byte[][] data, AgarClusterSettings.Point point, long seed,
      CachePolicySpec policy, int capacity) throws IOException, InterruptedException {
    CoordinatorMaster coordinator = cluster.coordinator();
    coordinator.useRegionalPolicy(masterSpec(policy), capacity);
    RunResult result = new RunResult(point, seed, policy.name(), capacity);
    emptyCache(cluster, regions, result);
    // One request sequence per point and seed, the same for every policy: read i is by client
    // i mod clients, so each client's own sequence is fixed too.
    ZipfSampler zipf = new ZipfSampler(s.objects, point.skew);
    Random random = new Random(seed);
    // Long enough for any warm-up: reads go on in sequence order until the measured ones are in.
    int[] sequence = new int[s.measuredReads + MAX_WARMUP_READS];
    // A fixed random relabelling, so the hottest object is not always object 0.
    int[] label = new int[s.objects];
    for (int i = 0; i < label.length; i++) {
      label[i] = i;
    }
    for (int i = label.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = label[i];
      label[i] = label[j];
      label[j] = t;
    }
    for (int i = 0; i < sequence.length; i++) {
      sequence[i] = label[zipf.next(random)];
    }
    AtomicInteger next = new AtomicInteger();
    AtomicInteger measuredStarted = new AtomicInteger();
    AtomicBoolean stop = new AtomicBoolean();
    // Every policy gets the same number of whole periods before its reads are measured.
    long measureFrom = System.nanoTime() + s.period.toNanos() * s.warmupPeriods;
    ExecutorService pool = Executors.newFixedThreadPool(clients.size() + 1);
    try (RedundancyMaintainer maintainer = RedundancyMaintainer.create(clients.get(0))) {
      List<Future<?>> running = new ArrayList<>();
      running.add(pool.submit(() -> {
        periods(coordinator, maintainer, stop);
        return null;
      }));
      List<Future<?>> readers = new ArrayList<>();
      for (EcCacheClient client : clients) {
        readers.add(pool.submit(() -> {
          read(client, data, sequence, next, measuredStarted, measureFrom, result);
          return null;
        }));
      }
      awaitAll(readers, policy.name() + "'s reads");
      stop.set(true);
      awaitAll(running, policy.name() + "'s periods");
    } finally {
      pool.shutdownNow();
    }
    result.cachedSplits = cachedSplits(cluster.fileSystem(), regions);
    return result;
  }

  /** Every period: the coordinator reconfigures, then maintainers load what it planned. */
  private void periods(CoordinatorMaster coordinator, RedundancyMaintainer maintainer,
      AtomicBoolean stop) throws Exception {
    long periodNanos = s.period.toNanos();
    long next = System.nanoTime() + periodNanos;
    while (!stop.get()) {
      long wait = next - System.nanoTime();
      if (wait > 0) {
        TimeUnit.NANOSECONDS.sleep(Math.min(wait, TimeUnit.MILLISECONDS.toNanos(50)));
        continue;
      }
      next += periodNanos;
      coordinator.regionalCache().heartbeat(Long.MAX_VALUE);
      // Several leases at once: each load waits a round trip to a distant region.
      ExecutorService loaders = Executors.newFixedThreadPool(MAINTAINERS);
      try {
        List<Future<?>> rounds = new ArrayList<>();
        for (int i = 0; i < MAINTAINERS; i++) {
          rounds.add(loaders.submit(() -> {
            while (!stop.get() && maintainer.runOnce() > 0) {
              // until nothing is left to hand out
            }
            return null;
          }));
        }
        awaitAll(rounds, "the period's loads");
      } finally {
        loaders.shutdownNow();
      }
    }
  }

  /**
   * One client's closed loop over the shared sequence: reads that start after the warm-up are
   * measured, until {@code measuredReads} have started.
   */
  private void read(EcCacheClient client, byte[][] data, int[] sequence, AtomicInteger next,
      AtomicInteger measuredStarted, long measureFrom, RunResult result) throws IOException {
    while (measuredStarted.get() < s.measuredReads) {
      int i = next.getAndIncrement();
      if (i >= sequence.length) {
        throw new IOException("the warm-up took more than " + MAX_WARMUP_READS + " reads: use"
            + " fewer warm-up periods or a shorter period");
      }
      int object = sequence[i];
      Map<String, Long> before = client.readStatistics().bytesByWorker();
      long began = System.nanoTime();
      boolean measured = began - measureFrom >= 0
          && measuredStarted.incrementAndGet() <= s.measuredReads;
      byte[] got = client.get(key(object), 0);
      long micros = Math.max(1, (System.nanoTime() - began) / 1000);
      if (!java.util.Arrays.equals(got, data[object])) {
        throw new IOException("GET of " + key(object) + " returned other bytes than were PUT");
      }
      Map<String, Long> after = client.readStatistics().bytesByWorker();
      long cached = 0;
      long regional = 0;
      for (Map.Entry<String, Long> e : after.entrySet()) {
        long delta = e.getValue() - before.getOrDefault(e.getKey(), 0L);
        if (e.getKey().startsWith("region:")) {
          regional += delta;
        } else {
          cached += delta;
        }
      }
      if (!measured) {
        continue;
      }
      synchronized (result) {
        result.latencyMicros.recordValue(micros);
        result.sumMicros += micros;
        result.reads++;
        if (cached > 0) {
          result.hits++;
        }
        if (regional == 0) {
          result.fullHits++;
        }
      }
    }
  }

  /**
   * Empties the cache before a run: frees every cached regional split. Alluxio 2.9.6 leaves a few
   * freed blocks cached on some runs here: the master lists the block on one worker, that worker
   * serves it with its region down, and its block removers are idle (docs/agar.md). Splits still
   * cached 10 s later are removed by asking their worker directly (Alluxio's RemoveBlock, as its
   * evict job does); a worker that holds some even then is restarted empty (and its region
   * clients warmed again). Both are counted in {@code result}.
   */
  private static void emptyCache(EmbeddedCluster cluster, LoopbackRegions regions,
      RunResult result) throws IOException {
    FileSystem fs = cluster.fileSystem();
    try {
      freeAll(fs, regions, 10);
      return;
    } catch (StillCachedException e) {
      result.splitsRemovedOnWorkers = removeOnHolders(cluster, holders(fs, regions));
    }
    try {
      freeAll(fs, regions, 10);
      return;
    } catch (StillCachedException e) {
      Set<String> hosts = new TreeSet<>();
      for (WorkerNetAddress w : holders(fs, regions).keySet()) {
        hosts.add(w.getHost());
      }
      List<WorkerNetAddress> restarted = new ArrayList<>();
      for (String host : hosts) {
        int i = cluster.workerIndex(host);
        cluster.restartWorkerEmpty(i);
        restarted.add(cluster.workerAddress(i));
      }
      cluster.awaitLiveWorkers(cluster.workerCount());
      regions.warm(fs, restarted);
      freeAll(fs, regions, 60);
      result.workersRestarted = restarted.size();
    }
  }

  /** The blocks of cached regional splits, by the worker the master lists them on. */
  private static Map<WorkerNetAddress, List<Long>> holders(FileSystem fs,
      LoopbackRegions regions) throws IOException {
    Map<WorkerNetAddress, List<Long>> held = new HashMap<>();
    for (String path : cachedSplitPaths(fs, regions)) {
      try {
        for (FileBlockInfo b : fs.getStatus(new AlluxioURI(path))
            .getFileBlockInfos()) {
          for (BlockLocation l : b.getBlockInfo().getLocations()) {
            held.computeIfAbsent(l.getWorkerAddress(), w -> new ArrayList<>())
                .add(b.getBlockInfo().getBlockId());
          }
        }
      } catch (AlluxioException gone) {
        // removed meanwhile
      }
    }
    return held;
  }

  /** Asks each worker to remove the blocks it holds; returns how many it removed. */
  private static int removeOnHolders(EmbeddedCluster cluster,
      Map<WorkerNetAddress, List<Long>> held) {
    int removed = 0;
    for (Map.Entry<WorkerNetAddress, List<Long>> e : held.entrySet()) {
      try (CloseableResource<BlockWorkerClient> w =
          cluster.fileSystemContext().acquireBlockWorkerClient(e.getKey())) {
        for (long blockId : e.getValue()) {
          try {
            w.get().removeBlock(RemoveBlockRequest.newBuilder().setBlockId(blockId)
                .build());
            removed++;
          } catch (RuntimeException notRemoved) {
            // gone meanwhile, or refused: the restart below handles what stays
          }
        }
      } catch (IOException notReached) {
        // the restart below handles it
      }
    }
    return removed;
  }

  /** Cached splits that a free did not remove in time. */
  private static final class StillCachedException extends IOException {
    StillCachedException(String message) {
      super(message);
    }
  }

  /**
   * Frees every cached regional split, file by file, and waits (at most {@code seconds}, freeing
   * again every 2 s) until no worker holds one.
   *
   * @throws StillCachedException when some are still cached then
   */
  private static void freeAll(FileSystem fs, LoopbackRegions regions, int seconds)
      throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    try {
      List<String> cached = cachedSplitPaths(fs, regions);
      while (!cached.isEmpty()) {
        if (System.nanoTime() > deadline) {
          throw new StillCachedException(cached.size() + " regional splits were still cached "
              + seconds + " s after freeing them (e.g. " + cached.get(0) + ")");
        }
        for (String path : cached) {
          fs.free(new AlluxioURI(path), FreePOptions.newBuilder().setForced(true).build());
        }
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (System.nanoTime() < until && !(cached = cachedSplitPaths(fs, regions)).isEmpty()) {
          Thread.sleep(100);
        }
      }
    } catch (AlluxioException e) {
      throw new IOException("freeing the regional splits failed: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while freeing the regional splits", e);
    }
  }

  /** How many regional split files have a block a worker holds. */
  static int cachedSplits(FileSystem fs, LoopbackRegions regions) throws IOException {
    return cachedSplitPaths(fs, regions).size();
  }

  /** The regional split files whose block a worker holds. */
  private static List<String> cachedSplitPaths(FileSystem fs, LoopbackRegions regions)
      throws IOException {
    List<String> cached = new ArrayList<>();
    try {
      for (LoopbackRegions.RunningRegion r : regions.regions()) {
        for (URIStatus st : fs.listStatus(new AlluxioURI(r.mountPoint()))) {
          if (!st.getFileBlockInfos().isEmpty()
              && !st.getFileBlockInfos().get(0).getBlockInfo().getLocations().isEmpty()) {
            cached.add(st.getPath());
          }
        }
      }
    } catch (AlluxioException e) {
      throw new IOException("listing the regions failed: " + e.getMessage(), e);
    }
    return cached;
  }

  private static void awaitAll(List<? extends Future<?>> futures, String what)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STEP_TIMEOUT_MS);
    for (Future<?> f : futures) {
      try {
        f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (java.util.concurrent.ExecutionException e) {
        Throwable c = e.getCause();
        throw c instanceof IOException ? (IOException) c
            : new IOException(what + " failed: " + c, c);
      } catch (TimeoutException e) {
        throw new IOException(what + " took more than " + STEP_TIMEOUT_MS / 1000 + " s: a"
            + " region or worker is stuck; a jstack of this process shows where");
      }
    }
  }
}
