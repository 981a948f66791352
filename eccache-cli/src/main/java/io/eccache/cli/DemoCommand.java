package io.eccache.cli;

import io.eccache.benchmarks.cluster.ZipfSampler;
import io.eccache.benchmarks.report.LoadImbalance;

import io.eccache.client.EcCacheClient;
import io.eccache.client.ObjectStat;
import io.eccache.client.PutOptions;
import io.eccache.client.RedundancyMaintainer;
import io.eccache.common.EcCacheKeys;
import io.eccache.common.proto.StatsResponse;
import io.eccache.testkit.EmbeddedCluster;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Starts an in-process cluster and stores one set of objects four ways: EC-Cache (k data + r parity
 * splits, extra parities for popular objects), selective replication and SP-Cache's selective
 * partition at the same memory budget, and a single whole copy on one random worker. It replays a
 * Zipf read sequence once so the coordinator learns popularity and re-tunes (a maintainer in this
 * process moves the bytes), then replays it against each scheme and prints latency percentiles,
 * memory and the load imbalance λ side by side.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Run EC-Cache against selective replication, SP-Cache and a single copy on an "
        + "in-process cluster.")
final class DemoCommand implements Callable<Integer> {
  @Option(names = "--workers", description = "Alluxio workers (default ${DEFAULT-VALUE}).")
  int workers = 15;

  @Option(names = "-k", description = "Data splits per object (default ${DEFAULT-VALUE}).")
  int k = 10;

  @Option(names = "-r", description = "Parity splits per object (default ${DEFAULT-VALUE}).")
  int r = 1;

  @Option(names = "--delta", description = "Extra splits read per GET (default ${DEFAULT-VALUE}).")
  int delta = 1;

  @Option(names = "--objects", description = "Objects stored (default ${DEFAULT-VALUE}).")
  int objects = 40;

  @Option(names = "--object-mb", description = "Object size in MiB (default ${DEFAULT-VALUE}).")
  int objectMiB = 8;

  @Option(names = "--reads", description = "GETs per scheme (default ${DEFAULT-VALUE}).")
  int reads = 400;

  @Option(names = "--threads", description = "Concurrent readers (default ${DEFAULT-VALUE}).")
  int threads = 4;

  @Option(names = "--zipf", description = "Zipf skew of object popularity (default ${DEFAULT-VALUE}).")
  double zipf = 0.9;

  @Option(names = "--seed", description = "Random seed (default ${DEFAULT-VALUE}).")
  long seed = 1;

  @Option(names = "--overhead", description = "Memory overhead budget of EC-Cache and selective "
      + "replication (default ${DEFAULT-VALUE}, the paper's 15%%).")
  double overhead = 0.15;

  /** Namespaces of the schemes compared, with how the coordinator stores them. */
  private static final String SCHEMES = "sr=replica,sp=partition";

  private final PrintStream progress = System.err;

  /** One scheme's measured read phase. */
  static final class Result {
    final String scheme;
    final Histogram latencyMicros = new Histogram(3_600_000_000L, 3);
    double memory;
    double lambda;
    long bytes;
    double seconds;
    long decodes;

    String namespace;

    Result(String scheme) {
      this.scheme = scheme;
    }

    Result namespace(String ns) {
      this.namespace = ns;
      return this;
    }
  }

  @Override
  public Integer call() throws Exception {
    if (k + r > workers) {
      throw new IllegalArgumentException("k + r = " + (k + r) + " needs at least that many workers;"
          + " use --workers " + (k + r) + " or a smaller k or r");
    }
    int size = objectMiB << 20;
    long perWorker = Math.max(256L << 20, 4L * objects * size / workers);
    progress.printf("eccache demo: starting %d workers (k=%d, r=%d, delta=%d)...%n", workers, k, r,
        delta);
    try (EmbeddedCluster cluster = EmbeddedCluster.builder().workers(workers)
        .workerMemoryBytes(perWorker)
        .property(EcCacheKeys.DEFAULT_K, k).property(EcCacheKeys.DEFAULT_R, r)
        .property(EcCacheKeys.MEMORY_OVERHEAD, overhead)
        .property(EcCacheKeys.NAMESPACE_SCHEMES, SCHEMES)
        .property(EcCacheKeys.POPULARITY_PERIOD, "1s").property(EcCacheKeys.RETUNE_INTERVAL, "1s")
        .start();
        EcCacheClient cache = EcCacheClient.create(cluster.fileSystemContext());
        RedundancyMaintainer maintainer = RedundancyMaintainer.create(cache)) {
      Random random = new Random(seed);
      List<byte[]> data = new ArrayList<>();
      for (int i = 0; i < objects; i++) {
        byte[] b = new byte[size];
        random.nextBytes(b);
        data.add(b);
      }
      // Same objects, same memory budget: the namespace says which scheme stores them.
      for (String ns : List.of("ec", "sr", "sp")) {
        put(cache, data, ns, PutOptions.defaults());
      }
      put(cache, data, "single", PutOptions.code(1, 0));
      List<Result> results;

      ZipfSampler zipfSampler = new ZipfSampler(objects, zipf);
      int[] sequence = new int[reads];
      for (int i = 0; i < reads; i++) {
        sequence[i] = zipfSampler.next(random);
      }
      // Learning pass (also JIT and connection warm-up): the coordinator counts these reads and
      // re-tunes every scheme from them; the maintainer carries the changes out. Schemes are read
      // interleaved, request by request, so all stay equally warm (popularity decays within
      // seconds here) and share the machine's noise alike.
      maintainer.start(200);
      List<String> namespaces = List.of("ec", "sr", "sp", "single");
      Map<String, Result> learning = new LinkedHashMap<>();
      for (String ns : namespaces) {
        learning.put(ns, new Result("learning").namespace(ns));
      }
      Map<String, EcCacheClient> readers = new LinkedHashMap<>();
      try {
        for (String ns : namespaces) {
          // One client per scheme: each counts its own bytes per worker.
          readers.put(ns, EcCacheClient.create(cluster.fileSystemContext()));
        }
        read(readers, data, sequence, learning, "learning");
        awaitSettled(cache, maintainer);
        Map<String, Result> measured = new LinkedHashMap<>();
        measured.put("ec", new Result("EC-Cache RS(" + k + "," + r + "+), delta " + delta));
        measured.put("sr", new Result("selective replication"));
        measured.put("sp", new Result("SP-Cache partition"));
        measured.put("single", new Result("single copy"));
        for (Map.Entry<String, Result> e : measured.entrySet()) {
          e.getValue().namespace(e.getKey()).memory = memory(cache, e.getKey());
        }
        read(readers, data, sequence, measured, "measured");
        results = new ArrayList<>(measured.values());
      } finally {
        for (EcCacheClient reader : readers.values()) {
          reader.close();
        }
      }
      print(System.out, results, size);
    }
    return 0;
  }

  /** Waits (at most a minute) until every object has the redundancy the coordinator wants. */
  private void awaitSettled(EcCacheClient cache, RedundancyMaintainer maintainer)
      throws Exception {
    long deadline = System.currentTimeMillis() + 60_000;
    // Two passes at least, so the learning reads have been folded into popularity.
    long passes = cache.stats().getRetunePasses() + 2;
    while (System.currentTimeMillis() < deadline) {
      int unsettled = 0;
      // SP-Cache repartitions only on a real change (its targets jitter), so its objects count
      // as settled once no task is pending.
      for (String ns : List.of("ec", "sr")) {
        for (String key : cache.list(ns + "/")) {
          ObjectStat s = cache.stat(key);
          unsettled += s.current() == s.target() ? 0 : 1;
        }
      }
      StatsResponse stats = cache.stats();
      progress.printf("\rre-tuning: %d objects to change, %d tasks pending, %d done", unsettled,
          stats.getTasksPending(), maintainer.tasksDone());
      if (unsettled == 0 && stats.getTasksPending() == 0 && stats.getRetunePasses() >= passes) {
        progress.println();
        return;
      }
      Thread.sleep(250);
    }
    progress.printf("%nre-tuning did not settle within a minute; measuring as it is%n");
  }

  /** Cache memory of a namespace's objects over one copy of each (1.0 = no redundancy). */
  private static double memory(EcCacheClient cache, String ns) throws Exception {
    long cached = 0;
    long size = 0;
    for (String key : cache.list(ns + "/")) {
      ObjectStat s = cache.stat(key);
      cached += s.cachedBytes();
      size += s.size();
    }
    return size == 0 ? 0 : (double) cached / size;
  }

  private void put(EcCacheClient cache, List<byte[]> data, String prefix, PutOptions options)
      throws Exception {
    long start = System.nanoTime();
    for (int i = 0; i < data.size(); i++) {
      cache.put(prefix + "/" + i, data.get(i), options);
      progress.printf("\rPUT %-6s %3d/%d", prefix, i + 1, data.size());
    }
    double s = (System.nanoTime() - start) / 1e9;
    progress.printf("  %.1f s, %.0f MB/s%n", s, data.size() * (double) data.get(0).length / 1e6 / s);
  }

  /**
   * Replays {@code sequence} against every scheme: each request reads the object from all of them,
   * in a random order, so no scheme gets a quieter machine than another.
   */
  private void read(Map<String, EcCacheClient> clients, List<byte[]> data, int[] sequence,
      Map<String, Result> results, String phase) throws Exception {
    for (EcCacheClient c : clients.values()) {
      c.readStatistics().reset();
    }
    List<String> namespaces = new ArrayList<>(results.keySet());
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    long start = System.nanoTime();
    try {
      List<Future<?>> readers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        readers.add(pool.submit(() -> {
          for (int i = next.getAndIncrement(); i < sequence.length; i = next.getAndIncrement()) {
            int object = sequence[i];
            List<String> order = new ArrayList<>(namespaces);
            Collections.shuffle(order, new Random(seed * 31 + i));
            for (String ns : order) {
              long t0 = System.nanoTime();
              byte[] got = clients.get(ns).get(ns + "/" + object, ns.equals("ec") ? delta : 0);
              long micros = (System.nanoTime() - t0) / 1000;
              if (got.length != data.get(object).length) {
                throw new IllegalStateException("GET " + ns + "/" + object + " returned "
                    + got.length + " bytes");
              }
              Result result = results.get(ns);
              synchronized (result) {
                result.latencyMicros.recordValue(Math.max(1, micros));
              }
            }
            int done = i + 1;
            if (done % 20 == 0 || done == sequence.length) {
              progress.printf("\rGET (%s, every scheme) %4d/%d", phase, done, sequence.length);
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
    double seconds = (System.nanoTime() - start) / 1e9;
    progress.println();
    for (Map.Entry<String, Result> e : results.entrySet()) {
      Result result = e.getValue();
      EcCacheClient client = clients.get(e.getKey());
      Map<String, Long> served = client.readStatistics().bytesByWorker();
      result.seconds = seconds;
      // The paper's λ: against the useful bytes (whole objects requested) spread evenly.
      result.lambda = LoadImbalance.lambdaPercent(served, workers,
          (long) sequence.length * data.get(0).length);
      result.bytes = served.values().stream().mapToLong(Long::longValue).sum();
      result.decodes = client.readStatistics().decodes();
    }
  }

  private void print(PrintStream out, List<Result> results, int size) {
    out.printf(Locale.ROOT, "%n%d objects of %d MiB, %d GETs per scheme (interleaved), Zipf(%.2f),"
        + " %d readers, %d workers (in-process, unshaped loopback), memory budget %.0f%%%n%n",
        objects, size >> 20, reads, zipf, threads, workers, overhead * 100);
    out.println("| scheme | memory | mean ms | median ms | p99 ms | p99.9 ms | λ (load imbalance) | "
        + "MB read | reads decoded |");
    out.println("|---|---|---|---|---|---|---|---|---|");
    for (Result r : results) {
      Histogram h = r.latencyMicros;
      out.printf(Locale.ROOT, "| %s | %.2fx | %.1f | %.1f | %.1f | %.1f | %.1f%% | %.0f | %d |%n",
          r.scheme, r.memory, h.getMean() / 1000, h.getValueAtPercentile(50) / 1000.0,
          h.getValueAtPercentile(99) / 1000.0, h.getValueAtPercentile(99.9) / 1000.0, r.lambda,
          r.bytes / 1e6, r.decodes);
    }
  }
}
