package io.eccache.benchmarks.packed;

import alluxio.metrics.MetricsSystem;
import io.eccache.benchmarks.kv.ScrambledZipf;
import io.eccache.client.EcCacheClient;
import io.eccache.client.PutOptions;
import io.eccache.client.RedundancyMaintainer;
import io.eccache.client.WriteMode;
import io.eccache.client.form.UpdatePhases;
import io.eccache.common.EcCacheMetrics;
import io.eccache.common.MasterKeys;
import io.eccache.common.WorkerKeys;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.TestData;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * LogECMem's comparisons on eccache's packed store (tier 2 of issue 38): for each update mode
 * (LogECMem's hybrid, IPMem's in-place, FSMem's full-stripe) and for (r + 1)-way replicas, on a
 * cluster of its own: values loaded and sealed, then closed-loop updates from 1 to 16 client
 * threads. Per step: throughput, latency, the phases of an update in place (client side, from
 * {@link UpdatePhases}), lease waits, the master's CPU and journal entries per update; per run:
 * memory from Alluxio's own used bytes. Every value is read back and checked at the end.
 */
public final class PackedUpdateBench {
  /** What stores the values. */
  public enum Mode {
    HYBRID("LogECMem", "hybrid"),
    INPLACE("IPMem", "inplace"),
    FULLSTRIPE("FSMem", "fullstripe"),
    REPLICAS("replicas", null);

    /** The paper's name. */
    public final String label;
    /** The packed namespace's update mode, null for replicas. */
    final String packedMode;

    Mode(String label, String packedMode) {
      this.label = label;
      this.packedMode = packedMode;
    }
  }

  /** The run's sizes. */
  public static final class Settings {
    public int k = 6;
    public int r = 3;
    public int values = 600;
    public int valueBytes = 4096;
    public int updatesPerStep = 200;
    public List<Integer> threads = List.of(1, 4, 16);
    public List<Mode> modes = Arrays.asList(Mode.values());
    public int repeats = 3;
    public boolean workerProcesses = false;
    public long seed = 1;

    /** Updates before the measured steps (JIT, connections, pools), from one thread. */
    int warmUpUpdates() {
      return Math.max(1, Math.min(100, updatesPerStep / 4));
    }

    /** Workers: k data units and P1 on k + 1, log nodes on r - 1 more. */
    int workers() {
      return k + r;
    }
  }

  /** One step: a mode, a repeat, a thread count. */
  public static final class Step {
    public Mode mode;
    public int repeat;
    public int threads;
    public long updates;
    public double seconds;
    public double meanMicros;
    public double p99Micros;
    public UpdatePhases.Snapshot phases;
    public long inPlace;
    public double masterCpuMsPerUpdate;
    public double journalEntriesPerUpdate;

    public double updatesPerSecond() {
      return updates / seconds;
    }
  }

  /** One mode's run: its steps and its memory. */
  public static final class Run {
    public Mode mode;
    public int repeat;
    public final List<Step> steps = new ArrayList<>();
    /** Alluxio's used bytes over the values' bytes, once loaded and sealed, settled. */
    public double memoryAfterLoad;
    /** The same right after the updates, old versions still held. */
    public double memoryAfterUpdates;
    /** Values read back wrong or not at all (0 when all is well). */
    public long wrong;
  }

  /** How long replaced units and replicas stay after they are replaced. */
  private static final long RETIRED_GRACE_MS = 10_000;
  private static final int LOAD_THREADS = 4;

  private final Settings s;

  public PackedUpdateBench(Settings settings) {
    this.s = settings;
  }

  /** Runs every mode {@code repeats} times, each on a fresh cluster. */
  public List<Run> run(Consumer<String> progress) throws Exception {
    List<Run> runs = new ArrayList<>();
    for (int repeat = 1; repeat <= s.repeats; repeat++) {
      // Each repeat starts with another mode: no mode always runs first in a cold JVM.
      List<Mode> order = new ArrayList<>(s.modes);
      java.util.Collections.rotate(order, -(repeat - 1));
      for (Mode mode : order) {
        progress.accept(String.format(Locale.ROOT, "repeat %d/%d: %s", repeat, s.repeats,
            mode.label));
        runs.add(runOne(mode, repeat, progress));
      }
    }
    return runs;
  }

  private Run runOne(Mode mode, int repeat, Consumer<String> progress) throws Exception {
    Run run = new Run();
    run.mode = mode;
    run.repeat = repeat;
    EmbeddedCluster.Builder builder = EmbeddedCluster.builder().workers(s.workers())
        .workerProcesses(s.workerProcesses)
        .workerMemoryBytes(Math.max(256L << 20, 8L * s.values * s.valueBytes / s.k))
        // Replaced units go 10 s after their update (packed-check's setting): memory stays near
        // the data, and a run measures old versions held for that long.
        .property(MasterKeys.RETIRED_GRACE, RETIRED_GRACE_MS + "ms")
        .property(WorkerKeys.LOG_NODE_ENABLED, true)
        .property(WorkerKeys.LOG_NODE_FSYNC, false);
    if (mode.packedMode != null) {
      builder.property(MasterKeys.PACKED_NAMESPACES, "kv=packed-" + s.k + "-" + s.r + ":"
          + mode.packedMode + ":" + s.valueBytes + "B");
    }
    PutOptions options = mode == Mode.REPLICAS
        ? PutOptions.replicas(s.r + 1).writeMode(WriteMode.CACHE_ONLY) : PutOptions.defaults();
    try (EmbeddedCluster cluster = builder.start();
        EcCacheClient cache = EcCacheClient.create(cluster.fileSystemContext());
        RedundancyMaintainer maintainer = RedundancyMaintainer.create(cache)) {
      long before = cluster.settledUsedBytes(RETIRED_GRACE_MS);
      long[] seeds = new long[s.values];
      load(cache, options, seeds);
      for (int round = 0; round < 100 && maintainer.runOnce() > 0; round++) {
        // seal every stripe the load filled
      }
      long valueBytes = (long) s.values * s.valueBytes;
      run.memoryAfterLoad = (cluster.settledUsedBytes(RETIRED_GRACE_MS) - before)
          / (double) valueBytes;
      maintainer.start(200); // seals and compacts during the updates, as in production
      step(mode, repeat, 1, cluster, cache, options, seeds, s.warmUpUpdates()); // not counted
      for (int threads : s.threads) {
        run.steps.add(step(mode, repeat, threads, cluster, cache, options, seeds,
            s.updatesPerStep));
        Step last = run.steps.get(run.steps.size() - 1);
        progress.accept(String.format(Locale.ROOT, "  %2d threads: %.0f updates/s, mean %.0f µs,"
            + " %d in place, %.1f journal entries per update", threads,
            last.updatesPerSecond(), last.meanMicros, last.inPlace,
            last.journalEntriesPerUpdate));
      }
      run.memoryAfterUpdates = (cluster.blockMaster().getUsedBytes() - before)
          / (double) valueBytes;
      for (int i = 0; i < s.values; i++) {
        byte[] got = cache.get(key(i));
        if (!Arrays.equals(got, TestData.randomBytes(s.valueBytes, seeds[i]))) {
          run.wrong++;
        }
      }
    }
    return run;
  }

  /** PUTs every value, from {@link #LOAD_THREADS} threads. */
  private void load(EcCacheClient cache, PutOptions options, long[] seeds) throws Exception {
    inThreads(LOAD_THREADS, "loading " + s.values + " values", thread -> {
      for (int i = thread; i < s.values; i += LOAD_THREADS) {
        seeds[i] = s.seed * 1_000_000_007L + i;
        cache.put(key(i), TestData.randomBytes(s.valueBytes, seeds[i]), options);
      }
    });
  }

  /** Work of one of {@link #inThreads}' threads. */
  private interface ThreadWork {
    void run(int thread) throws Exception;
  }

  /**
   * Runs {@code work} on {@code threads} threads of their own and waits for all, at most 30
   * minutes; the first failure is thrown once they have ended or been interrupted.
   */
  private static void inThreads(int threads, String what, ThreadWork work) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          work.run(thread);
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(30, TimeUnit.MINUTES);
      }
    } catch (TimeoutException e) {
      throw new IOException(what + " took over 30 minutes: see the cluster's logs", e);
    } finally {
      pool.shutdownNow();
    }
  }

  private String key(int i) {
    return String.format(Locale.ROOT, "kv/u%06d", i);
  }

  /**
   * Closed loop: each thread updates its own share of the keys (key index ≡ thread mod threads),
   * drawn by YCSB's scrambled Zipf over that share, so the last value of every key is known.
   */
  private Step step(Mode mode, int repeat, int threads, EmbeddedCluster cluster,
      EcCacheClient cache, PutOptions options, long[] seeds, int updates) throws Exception {
    Step step = new Step();
    step.mode = mode;
    step.repeat = repeat;
    step.threads = threads;
    Histogram latencies = new Histogram(3);
    long perThread = Math.max(1, updates / threads);
    UpdatePhases.Snapshot phasesBefore = cache.updatePhases().snapshot();
    long inPlaceBefore = MetricsSystem.counter(EcCacheMetrics.UPDATES_IN_PLACE).getCount();
    MasterLoad masterBefore = MasterLoad.now(cluster);
    long began = System.nanoTime();
    inThreads(threads, "a step of " + threads + " threads", thread -> {
      long share = (s.values - thread + threads - 1) / threads;
      SplittableRandom random = new SplittableRandom(s.seed * 31 + repeat * 7919L
          + threads * 131L + thread + updates);
      ScrambledZipf zipf = new ScrambledZipf(share, random.split());
      Histogram mine = new Histogram(3);
      for (long n = 0; n < perThread; n++) {
        int i = (int) (zipf.next() * threads + thread);
        long seed = random.nextLong();
        byte[] value = TestData.randomBytes(s.valueBytes, seed);
        long start = System.nanoTime();
        cache.put(key(i), value, options);
        mine.recordValue(Math.max(1, (System.nanoTime() - start) / 1000));
        seeds[i] = seed;
      }
      synchronized (latencies) {
        latencies.add(mine);
      }
    });
    step.seconds = (System.nanoTime() - began) / 1e9;
    MasterLoad master = MasterLoad.now(cluster).since(masterBefore);
    step.updates = latencies.getTotalCount();
    step.meanMicros = latencies.getMean();
    step.p99Micros = latencies.getValueAtPercentile(99);
    step.phases = cache.updatePhases().snapshot().since(phasesBefore);
    step.inPlace = MetricsSystem.counter(EcCacheMetrics.UPDATES_IN_PLACE).getCount()
        - inPlaceBefore;
    step.masterCpuMsPerUpdate = master.cpuNanos / 1e6 / step.updates;
    step.journalEntriesPerUpdate = master.journalEntries / (double) step.updates;
    return step;
  }
}
