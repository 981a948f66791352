package io.eccache.cli;

import io.eccache.client.EcCacheClient;
import io.eccache.client.PutOptions;
import io.eccache.testkit.EmbeddedCluster;
import java.io.PrintStream;
import java.util.ArrayList;
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
 * Starts an in-process cluster, stores a set of objects twice (EC-Cache with k data + r parity splits,
 * and a single whole copy on one random worker), replays one Zipf read sequence against each, and
 * prints latency percentiles and the load imbalance λ side by side.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Run EC-Cache against a single-copy baseline on an in-process cluster.")
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

  private final PrintStream progress = System.err;

  /** One scheme's measured read phase. */
  static final class Result {
    final String scheme;
    final Histogram latencyMicros = new Histogram(3_600_000_000L, 3);
    double lambda;
    long bytes;
    double seconds;
    long decodes;

    Result(String scheme) {
      this.scheme = scheme;
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
        .workerMemoryBytes(perWorker).start();
        EcCacheClient cache = EcCacheClient.create(cluster.fileSystemContext())) {
      Random random = new Random(seed);
      List<byte[]> data = new ArrayList<>();
      for (int i = 0; i < objects; i++) {
        byte[] b = new byte[size];
        random.nextBytes(b);
        data.add(b);
      }
      put(cache, data, "ec", PutOptions.code(k, r));
      put(cache, data, "single", PutOptions.code(1, 0));

      ZipfSampler zipfSampler = new ZipfSampler(objects, zipf);
      int[] sequence = new int[reads];
      for (int i = 0; i < reads; i++) {
        sequence[i] = zipfSampler.next(random);
      }
      // Warm-up: JIT and connections, so the first scheme measured has no handicap.
      read(cache, data, "ec", sequence, Math.min(reads, 40), new Result("warmup"));
      read(cache, data, "single", sequence, Math.min(reads, 40), new Result("warmup"));
      Result ec = read(cache, data, "ec", sequence, reads,
          new Result("EC-Cache RS(" + k + "," + r + "), delta " + delta));
      Result single = read(cache, data, "single", sequence, reads, new Result("single copy"));
      print(System.out, List.of(ec, single), size);
    }
    return 0;
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

  private Result read(EcCacheClient cache, List<byte[]> data, String prefix, int[] sequence,
      int count, Result result) throws Exception {
    cache.readStatistics().reset();
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    long start = System.nanoTime();
    try {
      List<Future<?>> readers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        readers.add(pool.submit(() -> {
          for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
            int object = sequence[i];
            long t0 = System.nanoTime();
            byte[] got = prefix.equals("ec") ? cache.get(prefix + "/" + object, delta)
                : cache.get(prefix + "/" + object, 0);
            long micros = (System.nanoTime() - t0) / 1000;
            if (got.length != data.get(object).length) {
              throw new IllegalStateException("GET " + prefix + "/" + object + " returned "
                  + got.length + " bytes");
            }
            synchronized (result) {
              result.latencyMicros.recordValue(Math.max(1, micros));
            }
            int done = i + 1;
            if (done % 20 == 0 || done == count) {
              progress.printf("\rGET %-6s %4d/%d", prefix, done, count);
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
    result.seconds = (System.nanoTime() - start) / 1e9;
    progress.println();
    Map<String, Long> served = cache.readStatistics().bytesByWorker();
    result.lambda = LoadImbalance.percent(served.values(), workers);
    result.bytes = served.values().stream().mapToLong(Long::longValue).sum();
    result.decodes = cache.readStatistics().decodes();
    return result;
  }

  private void print(PrintStream out, List<Result> results, int size) {
    out.printf(Locale.ROOT, "%n%d objects of %d MiB, %d GETs per scheme, Zipf(%.2f), %d readers,"
        + " %d workers (in-process, unshaped loopback)%n%n", objects, size >> 20, reads, zipf,
        threads, workers);
    out.println("| scheme | mean ms | median ms | p99 ms | p99.9 ms | λ (load imbalance) | "
        + "read MB/s | GETs decoded |");
    out.println("|---|---|---|---|---|---|---|---|");
    for (Result r : results) {
      Histogram h = r.latencyMicros;
      out.printf(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %.1f | %.1f%% | %.0f | %d |%n", r.scheme,
          h.getMean() / 1000, h.getValueAtPercentile(50) / 1000.0,
          h.getValueAtPercentile(99) / 1000.0, h.getValueAtPercentile(99.9) / 1000.0, r.lambda,
          r.bytes / 1e6 / r.seconds, r.decodes);
    }
  }
}
