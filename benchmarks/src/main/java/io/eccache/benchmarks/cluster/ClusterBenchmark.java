package io.eccache.benchmarks.cluster;

import alluxio.metrics.MetricsSystem;
import com.codahale.metrics.Counter;
import io.eccache.benchmarks.ComparedScheme;
import io.eccache.client.EcCacheClient;
import io.eccache.client.ObjectStat;
import io.eccache.client.PutOptions;
import io.eccache.client.RedundancyMaintainer;
import io.eccache.client.WriteMode;
import io.eccache.common.EcCacheMetrics;
import io.eccache.common.MasterKeys;
import io.eccache.common.RedundancyScheme;
import io.eccache.policy.ZipfSampler;
import io.eccache.testkit.LoopbackShaper;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * The DFS-Perf-style driver: stores one set of objects under every scheme compared, lets the
 * coordinator learn popularity from a first pass and re-tune (a maintainer moves the bytes), then
 * replays a Zipf request sequence from closed-loop clients. Every request reads its object from
 * every scheme in a random order, so the schemes share the machine's noise alike; each scheme has
 * its own client, so its bytes per worker are its own. The shaper's per-worker counters give a second,
 * independent count of the bytes served.
 */
public final class ClusterBenchmark {
  private final BenchCluster cluster;
  private final LoopbackShaper shaper;
  private final Consumer<String> progress;
  private final int settlePasses;
  /** Keys of this benchmark's runs start with it: runs against a shared cluster do not collide. */
  private final String runPrefix = "run-" + Long.toString(System.currentTimeMillis(), 36) + "-";
  private int runs;

  /**
   * @param shaper the per-worker link caps, or null when the run is unshaped
   * @param settlePasses re-tuning passes to wait for after learning at least: enough for one
   *     popularity period to end, so the learning reads are folded in
   */
  public ClusterBenchmark(BenchCluster cluster, LoopbackShaper shaper,
      Consumer<String> progress, int settlePasses) {
    this.cluster = cluster;
    this.shaper = shaper;
    this.progress = progress;
    this.settlePasses = settlePasses;
  }

  /** One scheme's measured phase. */
  public static final class SchemeResult {
    public final ComparedScheme scheme;
    public final Histogram latencyMicros = new Histogram(3_600_000_000L, 3);
    /** PUT latencies of storing the objects (paper Fig. 17). */
    public final Histogram putMicros = new Histogram(3_600_000_000L, 3);
    /** Time those PUTs spent encoding. */
    public long encodeNanos;
    public Map<String, Long> bytesByWorker = new TreeMap<>();
    public long usefulBytes;
    public long decodes;
    public long decodeNanos;
    public long fallbacks;
    /** Cache bytes over object bytes (1.0 = no redundancy). */
    public double memory;

    SchemeResult(ComparedScheme scheme) {
      this.scheme = scheme;
    }
  }

  /** Everything one run measured. */
  public static final class Outcome {
    public final BenchSettings settings;
    public final Map<ComparedScheme, SchemeResult> schemes = new LinkedHashMap<>();
    /** The kernel's count of bytes each worker address sent, background flows subtracted. */
    public Map<String, Long> shaperBytesByWorker = new TreeMap<>();
    public long backgroundBytes;
    public double seconds;
    /** Process CPU over wall time, as a share of all cores. */
    public double cpuShare;
    public boolean shaped;
    /**
     * The measured phase's split reads, all schemes together, as Alluxio's metrics system counted
     * them ({@link EcCacheMetrics}): used, cancelled by late binding, failed.
     */
    public long splitsRead;
    public long readsCancelled;
    public long readsFailed;

    Outcome(BenchSettings settings) {
      this.settings = settings;
    }
  }

  /** Runs {@code s}: stores, learns, measures, and removes its objects again. */
  public Outcome run(BenchSettings s) throws Exception {
    if (s.clientProcesses > 0 && s.arrivalsPerSecond > 0) {
      throw new IllegalArgumentException("reader processes run closed loops: use either client "
          + "processes or Poisson arrivals");
    }
    if (!cluster.isInProcess() && (s.deadWorkers > 0 || s.backgroundFraction > 0)) {
      throw new IllegalArgumentException("dead workers and background flows need the in-process "
          + "cluster (they stop workers and send from their addresses): run without --master");
    }
    String run = runPrefix + (++runs);
    Random random = new Random(s.seed);
    List<byte[]> data = new ArrayList<>();
    for (int i = 0; i < s.objects; i++) {
      byte[] b = new byte[Math.toIntExact(s.objectBytes)];
      random.nextBytes(b);
      data.add(b);
    }
    ZipfSampler zipf = new ZipfSampler(s.objects, s.zipf);
    int[] learning = new int[s.learning];
    for (int i = 0; i < learning.length; i++) {
      learning[i] = zipf.next(random);
    }
    int[] sequence = new int[s.requests];
    for (int i = 0; i < sequence.length; i++) {
      sequence[i] = zipf.next(random);
    }
    Map<ComparedScheme, EcCacheClient> clients = new LinkedHashMap<>();
    List<Integer> stopped = new ArrayList<>();
    Outcome outcome = new Outcome(s);
    outcome.shaped = shaper != null;
    try (EcCacheClient admin = EcCacheClient.create(cluster.context())) {
      for (ComparedScheme ns : s.schemes) {
        EcCacheClient client = EcCacheClient.create(cluster.context());
        clients.put(ns, client);
        SchemeResult r = new SchemeResult(ns);
        outcome.schemes.put(ns, r);
        for (int i = 0; i < data.size(); i++) {
          long t0 = System.nanoTime();
          client.put(key(ns, run, i), data.get(i), options(ns, s, i));
          r.putMicros.recordValue(Math.max(1, (System.nanoTime() - t0) / 1000));
          progress.accept(String.format("PUT %s %d/%d", ns, i + 1, data.size()));
        }
        r.encodeNanos = client.readStatistics().encodeNanos();
        checkScheme(admin, ns, key(ns, run, 0));
      }
      try (RedundancyMaintainer maintainer = RedundancyMaintainer.create(admin).start(200)) {
        read(clients, run, learning, s, null, "learning");
        awaitSettled(admin, s, run);
      }
      for (int i = 0; i < s.deadWorkers; i++) {
        cluster.stopWorker(i);
        stopped.add(i);
      }
      for (ComparedScheme ns : s.schemes) {
        outcome.schemes.get(ns).memory = memory(admin, ns, run, s.objects);
      }
      BackgroundLoad background = startBackground(s, random);
      Map<String, Long> tcBefore = shaper == null ? Map.of() : shaper.bytesSent();
      Map<String, Long> bgBefore = background == null ? Map.of() : background.bytesSent();
      long cpuBefore = processCpuNanos();
      long[] metricsBefore = readMetrics();
      long start = System.nanoTime();
      try {
        read(clients, run, sequence, s, outcome, "measured");
      } finally {
        outcome.seconds = (System.nanoTime() - start) / 1e9;
        long[] metricsAfter = readMetrics();
        // Reader processes (if any) added their own counts already.
        outcome.splitsRead += metricsAfter[0] - metricsBefore[0];
        outcome.readsCancelled += metricsAfter[1] - metricsBefore[1];
        outcome.readsFailed += metricsAfter[2] - metricsBefore[2];
        outcome.cpuShare = (processCpuNanos() - cpuBefore) / 1e9 / outcome.seconds
            / Runtime.getRuntime().availableProcessors();
        if (background != null) {
          Map<String, Long> bgAfter = background.bytesSent();
          background.close();
          for (Map.Entry<String, Long> e : bgAfter.entrySet()) {
            outcome.backgroundBytes += e.getValue() - bgBefore.getOrDefault(e.getKey(), 0L);
          }
          bgBefore = delta(bgBefore, bgAfter);
        }
        if (shaper != null) {
          Map<String, Long> tc = delta(tcBefore, shaper.bytesSent());
          for (Map.Entry<String, Long> e : tc.entrySet()) {
            long bg = bgBefore.getOrDefault(e.getKey(), 0L);
            outcome.shaperBytesByWorker.put(e.getKey(), Math.max(0, e.getValue() - bg));
          }
        }
      }
      for (ComparedScheme ns : s.schemes) {
        for (int i = 0; i < data.size(); i++) {
          admin.delete(key(ns, run, i));
        }
      }
    } finally {
      for (EcCacheClient c : clients.values()) {
        c.close();
      }
      for (int i : stopped) {
        cluster.startWorker(i);
      }
    }
    return outcome;
  }

  /** A master whose namespaces map to other kinds would compare nothing: refused. */
  private static void checkScheme(EcCacheClient admin, ComparedScheme ns, String key)
      throws Exception {
    RedundancyScheme.Kind actual = admin.stat(key).scheme().kind();
    if (ns.tuned() && ns.kind() != actual) {
      throw new IllegalStateException("the coordinator stores " + ns.label() + "/ objects as '"
          + actual + "', not '" + ns.kind() + "': set " + MasterKeys.NAMESPACE_SCHEMES.getName()
          + "=sr=replica,sp=partition in the master's alluxio-site.properties");
    }
  }

  private static String key(ComparedScheme ns, String run, int i) {
    return ns.label() + "/" + run + "/" + i;
  }

  private static PutOptions options(ComparedScheme ns, BenchSettings s, int rank) {
    PutOptions options;
    if (!ns.tuned()) {
      options = PutOptions.code(1, 0);
    } else if (ns == ComparedScheme.SR && s.hotReplicaFraction > 0) {
      // SP-Cache's baseline: a fixed number of copies for the hottest objects (rank 0 is hottest).
      boolean hot = rank < Math.ceil(s.hotReplicaFraction * s.objects);
      options = PutOptions.replicas(hot ? s.hotReplicas : 1);
    } else if (!s.tuned && ns == ComparedScheme.EC) {
      options = PutOptions.code(s.k, s.r);
    } else {
      options = PutOptions.defaults(); // the namespace's scheme, tuned by the coordinator
    }
    return options.writeMode(s.persisted ? WriteMode.THROUGH : WriteMode.CACHE_ONLY);
  }

  private static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Long> d = new TreeMap<>();
    for (Map.Entry<String, Long> e : after.entrySet()) {
      d.put(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L));
    }
    return d;
  }

  private BackgroundLoad startBackground(BenchSettings s, Random random) throws IOException {
    if (s.backgroundFraction <= 0) {
      return null;
    }
    List<Integer> live = new ArrayList<>();
    for (int i = 0; i < cluster.workerCount(); i++) {
      if (cluster.isWorkerRunning(i)) {
        live.add(i);
      }
    }
    Collections.shuffle(live, random);
    int loaded = Math.max(1, (int) Math.round(s.backgroundFraction * live.size()));
    Map<String, Integer> flows = new HashMap<>();
    for (int i = 0; i < loaded; i++) {
      // Skewed: the first loaded worker carries the most flows, as a shuffle's hot spot would.
      flows.put(cluster.workerHost(live.get(i)), Math.max(1, s.backgroundFlows * (loaded - i)
          / loaded));
    }
    return new BackgroundLoad(flows);
  }

  /** Waits (at most 90 s) until the tuned schemes' objects have their target redundancy. */
  private void awaitSettled(EcCacheClient admin, BenchSettings s, String run) throws Exception {
    if (!s.tuned) {
      return;
    }
    long deadline = System.currentTimeMillis() + 90_000;
    long passes = admin.stats().retunePasses() + settlePasses;
    while (System.currentTimeMillis() < deadline) {
      int unsettled = 0;
      for (ComparedScheme ns : s.schemes) {
        if (ns == ComparedScheme.SP || !ns.tuned()) {
          continue; // SP-Cache repartitions only on a real change; single is fixed
        }
        for (int i = 0; i < s.objects; i++) {
          ObjectStat stat = admin.stat(key(ns, run, i));
          unsettled += stat.scheme().equals(stat.target()) ? 0 : 1;
        }
      }
      var stats = admin.stats();
      progress.accept(String.format("re-tuning: %d objects to change, %d tasks pending",
          unsettled, stats.tasksPending()));
      if (unsettled == 0 && stats.tasksPending() == 0 && stats.retunePasses() >= passes) {
        return;
      }
      Thread.sleep(250);
    }
    progress.accept("re-tuning did not settle within 90 s; measuring as it is");
  }

  private static double memory(EcCacheClient admin, ComparedScheme ns, String run, int objects)
      throws Exception {
    long cached = 0;
    long size = 0;
    for (int i = 0; i < objects; i++) {
      ObjectStat stat = admin.stat(key(ns, run, i));
      cached += stat.cachedBytes();
      size += stat.size();
    }
    return size == 0 ? 0 : (double) cached / size;
  }

  /** Replays {@code sequence}; records into {@code outcome} when it is not null. */
  private void read(Map<ComparedScheme, EcCacheClient> clients, String run, int[] sequence,
      BenchSettings s, Outcome outcome, String phase) throws Exception {
    for (EcCacheClient c : clients.values()) {
      c.readStatistics().reset();
    }
    if (s.arrivalsPerSecond > 0) {
      readOpenLoop(clients, run, sequence, s, outcome, phase);
    } else if (s.clientProcesses > 0 && outcome != null) {
      ReaderProcess.readMeasured(cluster.context().getClusterConf(), run, sequence, s, outcome,
          progress);
      return; // the reader processes counted the bytes
    } else {
      int[] all = new int[sequence.length];
      Arrays.setAll(all, i -> i);
      readClosedLoop(clients, run, sequence, all, s, outcome, phase, progress);
    }
    if (outcome != null) {
      for (Map.Entry<ComparedScheme, EcCacheClient> e : clients.entrySet()) {
        SchemeResult r = outcome.schemes.get(e.getKey());
        r.bytesByWorker = e.getValue().readStatistics().bytesByWorker();
        r.decodes = e.getValue().readStatistics().decodes();
        r.decodeNanos = e.getValue().readStatistics().decodeNanos();
        r.fallbacks = e.getValue().readStatistics().fallbacks();
      }
    }
  }

  /** One GET of {@code object} from scheme {@code ns}, recorded from {@code issuedNanos}. */
  private static void get(EcCacheClient client, ComparedScheme ns, String run, int object,
      BenchSettings s, Outcome outcome, long issuedNanos) throws IOException {
    byte[] got = client.get(key(ns, run, object), ns == ComparedScheme.EC ? s.delta : 0);
    long micros = (System.nanoTime() - issuedNanos) / 1000;
    if (got.length != s.objectBytes) {
      throw new IllegalStateException("GET " + key(ns, run, object) + " returned " + got.length
          + " bytes");
    }
    if (outcome != null) {
      SchemeResult r = outcome.schemes.get(ns);
      synchronized (r) {
        r.latencyMicros.recordValue(Math.max(1, micros));
        r.usefulBytes += got.length;
      }
    }
  }

  /**
   * Poisson arrivals at {@code s.arrivalsPerSecond}: each request is read from every scheme at once,
   * and its latency runs from its arrival, so time spent waiting behind earlier requests counts, as
   * in SP-Cache's evaluation.
   */
  private void readOpenLoop(Map<ComparedScheme, EcCacheClient> clients, String run, int[] sequence,
      BenchSettings s, Outcome outcome, String phase) throws Exception {
    Random gaps = new Random(s.seed * 17 + sequence.length);
    ExecutorService pool = Executors.newCachedThreadPool();
    List<Future<?>> inFlight = new ArrayList<>();
    long start = System.nanoTime();
    double at = 0;
    try {
      for (int i = 0; i < sequence.length; i++) {
        at += -Math.log(1 - gaps.nextDouble()) / s.arrivalsPerSecond;
        long arrival = start + (long) (at * 1e9);
        long wait = arrival - System.nanoTime();
        if (wait > 0) {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
        int object = sequence[i];
        for (Map.Entry<ComparedScheme, EcCacheClient> e : clients.entrySet()) {
          inFlight.add(pool.submit(() -> {
            get(e.getValue(), e.getKey(), run, object, s, outcome, arrival);
            return null;
          }));
        }
        if ((i + 1) % 10 == 0 || i + 1 == sequence.length) {
          progress.accept(String.format("GET (%s, Poisson %.1f/s) %d/%d", phase,
              s.arrivalsPerSecond, i + 1, sequence.length));
        }
      }
      for (Future<?> f : inFlight) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Closed loop: {@code s.clients} readers take the requests at {@code positions} of
   * {@code sequence} in turn, each reading the object from every scheme in a random order (seeded by
   * the request's position, so every process and run orders alike).
   */
  static void readClosedLoop(Map<ComparedScheme, EcCacheClient> clients, String run, int[] sequence,
      int[] positions, BenchSettings s, Outcome outcome, String phase, Consumer<String> progress)
      throws Exception {
    List<ComparedScheme> schemes = new ArrayList<>(clients.keySet());
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(s.clients);
    try {
      List<Future<?>> readers = new ArrayList<>();
      for (int t = 0; t < s.clients; t++) {
        readers.add(pool.submit(() -> {
          for (int n = next.getAndIncrement(); n < positions.length; n = next.getAndIncrement()) {
            int i = positions[n];
            int object = sequence[i];
            List<ComparedScheme> order = new ArrayList<>(schemes);
            Collections.shuffle(order, new Random(s.seed * 31 + i));
            for (ComparedScheme ns : order) {
              get(clients.get(ns), ns, run, object, s, outcome, System.nanoTime());
            }
            int done = n + 1;
            if (done % 10 == 0 || done == positions.length) {
              progress.accept(String.format("GET (%s) %d/%d", phase, done, positions.length));
            }
          }
          return null;
        }));
      }
      for (Future<?> f : readers) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** This process's split-read counters from Alluxio's metrics system: used, cancelled, failed. */
  static long[] readMetrics() {
    String[] names = {EcCacheMetrics.SPLITS_READ, EcCacheMetrics.READS_CANCELLED,
        EcCacheMetrics.READS_FAILED};
    long[] values = new long[names.length];
    for (int i = 0; i < names.length; i++) {
      String name = names[i];
      // Alluxio prefixes the process type (and client tags): match the name inside.
      values[i] = MetricsSystem.METRIC_REGISTRY.getCounters((n, m) -> n.contains(name)).values()
          .stream().mapToLong(Counter::getCount).sum();
    }
    return values;
  }

  private static long processCpuNanos() {
    java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean) {
      return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
    }
    return 0;
  }
}
