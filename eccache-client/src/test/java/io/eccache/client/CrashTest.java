package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.client.file.FileSystem;
import alluxio.client.file.FileSystemContext;
import alluxio.conf.InstancedConfiguration;
import alluxio.conf.PropertyKey;
import alluxio.conf.Source;
import alluxio.exception.status.DeadlineExceededException;
import alluxio.exception.status.NotFoundException;
import io.eccache.common.ClientKeys;
import io.eccache.common.MasterKeys;
import io.eccache.localcluster.ProcessCluster;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestUsers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

/**
 * Crashes for real: workers and the master are separate JVMs ({@link ProcessCluster}) killed with
 * SIGKILL mid-GET and mid-PUT. No GET may return wrong bytes, no acknowledged PUT may be lost, and a
 * PUT that fails leaves the previous version. Each test restarts what it killed.
 */
class CrashTest {
  /** Its servers are other JVMs: close this JVM's shared cluster, if any, first. */
  @RegisterExtension
  static final SharedCluster NO_SHARED_CLUSTER = SharedCluster.none();
  /**
   * RS(3,2) uses 5 of them: two are left for replacements, so a PUT that loses the killed worker's
   * split and also one on the worker restarted by the previous attempt (whose channel the client
   * may still find broken) can place both elsewhere. With 6 the second failure had no free worker.
   */
  private static final int WORKERS = 7;
  private static ProcessCluster cluster;
  private static EcCacheClient cache;
  /** Acknowledged PUTs, checked after every fault. */
  private static final Map<String, byte[]> acknowledged = new LinkedHashMap<>();

  @BeforeAll
  static void start() throws Exception {
    cluster = ProcessCluster.builder().workers(WORKERS).workerMemoryBytes(96L << 20)
        .property(MasterKeys.CELL_SIZE.getName(), "64KB")
        .property(ClientKeys.STREAM_WINDOW.getName(), "400KB")
        // The paper's random k + delta whatever this machine's load (ADAPTIVE would hedge while
        // the CPU is busy): the phases compare the same reads.
        .property(ClientKeys.READ_CHOICE.getName(), "RANDOM").start();
    // The class's client is a plain user (alice), in a directory of her own: crashes cost a
    // non-superuser nothing either (the other tests' clients are the superuser).
    InstancedConfiguration asRoot = (InstancedConfiguration) cluster.clientConfiguration();
    try (FileSystem root = FileSystem.Factory.create(FileSystemContext.create(asRoot))) {
      TestUsers.directory(root, "/crash", TestUsers.ALICE, 0755);
    }
    InstancedConfiguration conf = (InstancedConfiguration) cluster.clientConfiguration();
    conf.set(PropertyKey.SECURITY_LOGIN_USERNAME, TestUsers.ALICE, Source.RUNTIME);
    conf.set(ClientKeys.IO_TIMEOUT, "10s", Source.RUNTIME);
    conf.set(PropertyKey.USER_RPC_RETRY_MAX_DURATION, "20s", Source.RUNTIME);
    cache = EcCacheClient.create(conf);
    Random random = new Random(1);
    for (int i = 0; i < 12; i++) {
      byte[] data = new byte[300_000 + random.nextInt(200_000)];
      random.nextBytes(data);
      cache.put("crash/" + i, data, PutOptions.code(3, 2));
      acknowledged.put("crash/" + i, data);
    }
  }

  @AfterAll
  static void stop() {
    if (cache != null) {
      cache.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static void assertEveryAcknowledgedPutReads() throws IOException {
    for (Map.Entry<String, byte[]> e : acknowledged.entrySet()) {
      assertArrayEquals(e.getValue(), cache.get(e.getKey()), e.getKey());
    }
  }

  /** What readers saw during one phase. */
  private static final class Phase {
    final AtomicLong ok = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    final AtomicLong wrong = new AtomicLong();
    final List<Long> latencies = new ArrayList<>();
    /** Each GET's start, in System.nanoTime, in the order of {@link #latencies}. */
    final List<Long> starts = new ArrayList<>();
    /** When the fault began and ended (its kill returned: the process was reaped). */
    volatile long faultBegan;
    volatile long faultEnded;
    /** The first failed GET's error, so a failure says why. */
    final java.util.concurrent.atomic.AtomicReference<IOException> firstFailure =
        new java.util.concurrent.atomic.AtomicReference<>();

    synchronized void latency(long began, long nanos) {
      starts.add(began);
      latencies.add(nanos);
    }

    /** The slowest GETs, each with when it began against the fault, so a failure says which. */
    synchronized String slowest(int n) {
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < latencies.size(); i++) {
        order.add(i);
      }
      order.sort((a, b) -> Long.compare(latencies.get(b), latencies.get(a)));
      StringBuilder s = new StringBuilder(String.format("fault took %.1f ms; slowest:",
          (faultEnded - faultBegan) / 1e6));
      for (int i : order.subList(0, Math.min(n, order.size()))) {
        s.append(String.format(" %.1f ms began %+.1f ms from the fault;", latencies.get(i) / 1e6,
            (starts.get(i) - faultBegan) / 1e6));
      }
      return s.toString();
    }

    synchronized double percentileMs(double p) {
      long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
      if (sorted.length == 0) {
        return Double.NaN;
      }
      return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }

    @Override
    public String toString() {
      return String.format("%d ok, %d failed, %d wrong; p50 %.1f ms, p99 %.1f ms, p99.9 %.1f ms,"
          + " max %.1f ms", ok.get(), failed.get(), wrong.get(), percentileMs(0.5),
          percentileMs(0.99), percentileMs(0.999), percentileMs(1))
          + (firstFailure.get() == null ? "" : "; first failure: " + firstFailure.get());
    }
  }

  interface FaultAction {
    void run() throws Exception;
  }

  /** Four readers GET the acknowledged objects for {@code millis}; {@code fault} runs at 1/4. */
  private static Phase read(long millis, FaultAction fault) throws Exception {
    Phase phase = new Phase();
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService readers = Executors.newFixedThreadPool(4);
    List<String> keys = new ArrayList<>(acknowledged.keySet());
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        Random random = new Random(t);
        running.add(readers.submit(() -> {
          while (!stop.get()) {
            String key = keys.get(random.nextInt(keys.size()));
            long began = System.nanoTime();
            try {
              byte[] got = cache.get(key);
              phase.latency(began, System.nanoTime() - began);
              (Arrays.equals(got, acknowledged.get(key)) ? phase.ok : phase.wrong)
                  .incrementAndGet();
            } catch (IOException e) {
              phase.firstFailure.compareAndSet(null, e);
              phase.failed.incrementAndGet();
            }
          }
          return null;
        }));
      }
      Thread.sleep(millis / 4);
      phase.faultBegan = System.nanoTime();
      fault.run();
      phase.faultEnded = System.nanoTime();
      Thread.sleep(millis - millis / 4);
      stop.set(true);
      for (Future<?> f : running) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      stop.set(true);
      readers.shutdownNow();
    }
    return phase;
  }

  /** A client whose split reads are bounded at 1 s, and by nothing else that ends sooner. */
  private static InstancedConfiguration oneSecondReads() {
    InstancedConfiguration conf = (InstancedConfiguration) cluster.clientConfiguration();
    conf.set(ClientKeys.IO_TIMEOUT, "1s", Source.RUNTIME);
    // Alluxio's own wait for a block's next message is far longer: only eccache's bound ends it.
    conf.set(PropertyKey.USER_STREAMING_DATA_READ_TIMEOUT, "5min", Source.RUNTIME);
    return conf;
  }

  @Test
  void aFrozenWorkerCostsAGetOfACopyItHoldsTheIoTimeoutNotItsThread() throws Exception {
    cluster.awaitLiveWorkers(WORKERS, 60_000);
    InstancedConfiguration conf = oneSecondReads();
    String frozenHost = cluster.workerHost(0);
    Map<String, byte[]> onFrozen = new LinkedHashMap<>();
    try (EcCacheClient client = EcCacheClient.create(conf)) {
      Random random = new Random(7);
      for (int i = 0; onFrozen.size() < 3 && i < 60; i++) {
        byte[] data = new byte[20_000 + random.nextInt(20_000)];
        random.nextBytes(data);
        String key = "frozen/" + i;
        client.put(key, data); // small: two whole copies, a GET reads one on its own thread
        if (client.context().coordinator().lookup(key, true).getSplitsList().stream()
            .anyMatch(split -> split.getWorker().getHost().equals(frozenHost))) {
          onFrozen.put(key, data);
          assertArrayEquals(data, client.get(key)); // channels to both copies' workers open
        }
      }
      assertEquals(3, onFrozen.size(), "worker 0 holds a copy of three small objects");
      ExecutorService readers = Executors.newFixedThreadPool(12);
      cluster.freezeWorker(0); // SIGSTOP: its sockets accept, nothing answers
      try {
        // Twelve GETs at once, each reading one of two copies: some read the frozen one (all
        // twelve miss it one time in 4096), before the master's worker timeout (4 s) drops it.
        List<Future<Long>> gets = new ArrayList<>();
        for (int round = 0; round < 4; round++) {
          for (Map.Entry<String, byte[]> e : onFrozen.entrySet()) {
            gets.add(readers.submit(() -> {
              long began = System.nanoTime();
              byte[] got = client.get(e.getKey());
              long took = System.nanoTime() - began;
              assertArrayEquals(e.getValue(), got, e.getKey());
              assertFalse(Thread.currentThread().isInterrupted(),
                  "the read watchdog's interrupt was left on the GET's thread");
              return took;
            }));
          }
        }
        long slowest = 0;
        for (Future<Long> get : gets) {
          slowest = Math.max(slowest, get.get(60, TimeUnit.SECONDS));
        }
        System.out.printf("frozen worker: slowest of %d GETs %.0f ms%n", gets.size(),
            slowest / 1e6);
        assertTrue(slowest >= TimeUnit.MILLISECONDS.toNanos(900),
            "no GET read the frozen copy: " + slowest / 1_000_000 + " ms");
        assertTrue(slowest < TimeUnit.SECONDS.toNanos(4),
            "a GET waited on the frozen worker past eccache's 1 s I/O timeout: "
                + slowest / 1_000_000 + " ms");
      } finally {
        cluster.thawWorker(0);
        readers.shutdownNow();
      }
    }
    cluster.awaitLiveWorkers(WORKERS, 60_000);
  }

  @Test
  void aFrozenWorkerTiesUpNoIoThreadPastTheIoTimeout() throws Exception {
    cluster.awaitLiveWorkers(WORKERS, 60_000);
    InstancedConfiguration conf = oneSecondReads();
    conf.set(ClientKeys.IO_THREADS, 4, Source.RUNTIME);
    // The layouts stay cached, so GETs keep asking the frozen worker after the master drops it.
    conf.set(ClientKeys.LAYOUT_CACHE_TTL, "60s", Source.RUNTIME);
    String frozenHost = cluster.workerHost(1);
    try (EcCacheClient client = EcCacheClient.create(conf)) {
      List<String> onFrozen = new ArrayList<>();
      for (String key : acknowledged.keySet()) {
        assertArrayEquals(acknowledged.get(key), client.get(key)); // layout cached, channels open
        if (client.context().coordinator().lookup(key, true).getSplitsList().stream()
            .anyMatch(split -> split.getWorker().getHost().equals(frozenHost))) {
          onFrozen.add(key);
        }
      }
      assertTrue(onFrozen.size() >= 3, "worker 1 holds a split of only " + onFrozen);
      cluster.freezeWorker(1); // SIGSTOP: its sockets accept, nothing answers
      try {
        // RS(3,2) with Δ = 1 reads 4 of 5 splits: most GETs ask the frozen worker and finish on
        // the other 3, leaving a read of it behind. Such a read held its I/O thread until Alluxio's
        // own stream timeout (5 min here), later until the I/O timeout, so a burst of GETs within
        // one timeout held all 4 threads and GETs failed; now it ends once the worker has been
        // silent for a tenth of the timeout after its GET finished.
        long slowestMs = 0;
        for (int i = 0; i < 24; i++) {
          String key = onFrozen.get(i % onFrozen.size());
          long began = System.nanoTime();
          assertArrayEquals(acknowledged.get(key), client.get(key), key);
          slowestMs = Math.max(slowestMs, (System.nanoTime() - began) / 1_000_000);
        }
        // A read left behind on the frozen worker ends one of two ways: cancelled at its worker
        // when its GET has k (its stream reset), or, if that does not end it, by the watchdog once
        // the worker stays silent. Which one is timing: since reads are cancelled for real, most
        // runs end them all by cancelling and the breaker then reads the worker last.
        long abandoned = client.context().readWatchdog().abandoned();
        long cancelled = client.readStatistics().cancelledReads();
        System.out.printf("frozen worker, RS(3,2): 24 GETs of a burst, slowest %d ms; %d reads"
            + " ended as no longer wanted (%d cancelled, %d abandoned by the watchdog)%n",
            slowestMs, cancelled + abandoned, cancelled, abandoned);
        assertTrue(cancelled + abandoned > 0,
            "no read of the frozen worker was ended as no longer wanted");
        Thread.sleep(1_500); // past the I/O timeout and the watchdog's tick
        String key = onFrozen.get(0);
        long began = System.nanoTime();
        assertArrayEquals(acknowledged.get(key), client.get(key), key);
        long tookMs = (System.nanoTime() - began) / 1_000_000;
        assertTrue(tookMs < 1_000, "a GET 1.5 s after the burst took " + tookMs
            + " ms: I/O threads were still held by reads of the frozen worker");
      } finally {
        cluster.thawWorker(1);
      }
    }
    cluster.awaitLiveWorkers(WORKERS, 60_000);
    // Interrupted reads cancel their streams on the worker; an earlier version that interrupted
    // every unwanted read saw later PUTs to those workers stall for the I/O timeout.
    Random random = new Random(7);
    for (int i = 0; i < 6; i++) {
      byte[] data = new byte[300_000];
      random.nextBytes(data);
      long began = System.nanoTime();
      cache.put("crash/after-frozen-" + i, data, PutOptions.code(3, 2));
      long tookMs = (System.nanoTime() - began) / 1_000_000;
      assertTrue(tookMs < 5_000, "a PUT after the frozen worker thawed took " + tookMs + " ms");
      acknowledged.put("crash/after-frozen-" + i, data);
    }
    assertEveryAcknowledgedPutReads();
  }

  /**
   * A GET that reads exactly k splits (Δ = 0), one on a frozen worker (SIGSTOP: its sockets accept,
   * nothing answers), gives that read up once its peers have arrived and it has sent nothing for 4x
   * the first one's time, and reads an untried split instead: it costs tens of milliseconds, not
   * the 10 s I/O timeout. Once the watchdog has found the worker silent, the next GETs avoid it.
   */
  @Test
  void aFrozenWorkerCostsAGetWithNoExtraReadTheStallBoundNotTheTimeout() throws Exception {
    cluster.awaitLiveWorkers(WORKERS, 60_000);
    String frozenHost = cluster.workerHost(4);
    List<String> onFrozen = new ArrayList<>();
    for (String key : acknowledged.keySet()) {
      assertArrayEquals(acknowledged.get(key), cache.get(key, 0)); // channels open
      if (cache.context().coordinator().lookup(key, true).getSplitsList().stream()
          .anyMatch(split -> split.getWorker().getHost().equals(frozenHost))) {
        onFrozen.add(key);
      }
    }
    assertTrue(onFrozen.size() >= 3, "worker 4 holds a split of only " + onFrozen);
    long stalledBefore = cache.readStatistics().stalledReads();
    cluster.freezeWorker(4);
    long slowestMs = 0;
    try {
      // Random picks of 3 of 5: a GET asks the frozen worker 3 times in 5.
      for (int i = 0; i < 30; i++) {
        String key = onFrozen.get(i % onFrozen.size());
        long began = System.nanoTime();
        assertArrayEquals(acknowledged.get(key), cache.get(key, 0), key);
        slowestMs = Math.max(slowestMs, (System.nanoTime() - began) / 1_000_000);
      }
    } finally {
      cluster.thawWorker(4);
    }
    long stalled = cache.readStatistics().stalledReads() - stalledBefore;
    System.out.printf("frozen worker, RS(3,2), delta 0: 30 GETs, slowest %d ms, %d reads given"
        + " up as silent%n", slowestMs, stalled);
    assertTrue(stalled > 0, "no GET read the frozen worker");
    assertTrue(slowestMs < 2_000, "a GET waited " + slowestMs + " ms on the frozen worker; the"
        + " I/O timeout is 10 s and its peers took milliseconds");
    cluster.awaitLiveWorkers(WORKERS, 60_000);
    assertEveryAcknowledgedPutReads();
  }

  /**
   * A master that takes calls and answers none (SIGSTOP: its sockets stay open) fails each
   * coordinator call within alluxio.user.eccache.coordinator.timeout, typed and saying what to do.
   * Before, a stat against the frozen master failed only after 215 s (UnavailableException, once
   * gRPC's keepalive had dropped the connection and Alluxio's retries ran out); one stuck in the
   * call while still answering pings held it forever.
   */
  @Test
  void aFrozenMasterFailsEachCallWithinTheCoordinatorTimeout() throws Exception {
    InstancedConfiguration conf = (InstancedConfiguration) cluster.clientConfiguration();
    conf.set(ClientKeys.COORDINATOR_TIMEOUT, "2s", Source.RUNTIME);
    conf.set(ClientKeys.LAYOUT_CACHE_TTL, "0s", Source.RUNTIME); // every GET asks the coordinator
    byte[] data = new byte[200_000];
    new Random(11).nextBytes(data);
    String key = "crash/frozen-master";
    try (EcCacheClient client = EcCacheClient.create(conf)) {
      client.put(key, data, PutOptions.code(3, 2)); // its channel to the master is open
      acknowledged.put(key, data);
      // The call each makes first: stat and GET look the key up, a PUT asks for an allocation.
      List<Map.Entry<String, Executable>> calls = List.of(
          Map.entry("Lookup", () -> client.stat(key)),
          Map.entry("Lookup", () -> client.get(key)),
          Map.entry("Allocate", () -> client.put(key + "-2", data, PutOptions.code(3, 2))));
      cluster.freezeMaster();
      try {
        for (Map.Entry<String, Executable> call : calls) {
          long began = System.nanoTime();
          IOException e = assertThrows(IOException.class, call.getValue(), call.getKey());
          long tookMs = (System.nanoTime() - began) / 1_000_000;
          DeadlineExceededException deadline = causeOf(e, DeadlineExceededException.class);
          assertNotNull(deadline, "not a deadline: " + e);
          assertTrue(deadline.getMessage().contains("did not answer " + call.getKey()
              + " (key=crash/frozen-master") && deadline.getMessage().contains(
              "alluxio.user.eccache.coordinator.timeout"), deadline.getMessage());
          assertTrue(tookMs >= 1_900 && tookMs < 10_000, call.getKey() + " failed after " + tookMs
              + " ms, the timeout being 2 s");
        }
      } finally {
        cluster.thawMaster();
      }
      cluster.awaitLiveWorkers(WORKERS, 60_000);
      assertArrayEquals(data, client.get(key), "the master answers again once thawed");
      assertThrows(NotFoundException.class, () -> client.stat(key + "-2"),
          "the PUT whose allocation got no answer committed nothing");
    }
    assertEveryAcknowledgedPutReads();
  }

  private static <T extends Throwable> T causeOf(Throwable t, Class<T> type) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (type.isInstance(c)) {
        return type.cast(c);
      }
    }
    return null;
  }

  /**
   * Late binding's promise under SIGKILL: a dead worker costs one split, never the read. Four
   * phases of GETs by four readers (each checked byte for byte): healthy; one worker killed a
   * quarter in; a second killed (r = 2 dead: every object still has k = 3 live splits); then, with
   * both restarted, two others killed at once. No GET fails or is wrong, and each killed phase's
   * p99.9 stays within max(3x healthy p99.9, healthy p99.9 + 250 ms): no GET waits out Alluxio's
   * block-read retry, the worker-avoid time or the 10 s I/O timeout on a worker that refuses
   * connections, each a second or more. The bound leaves room for noise, not for those: a phase
   * holds about a thousand GETs, so its p99.9 is its slowest, and on two cores one GET in a
   * thousand meets a GC pause or a descheduled thread anywhere in the phase (a CI run failed
   * 2x + 100 ms with one 200 ms GET against a healthy 70 ms; the slowest GETs, printed with when
   * they began against the kill, are spread over the phase, not at the kill). Phases last
   * {@code -Deccache.crash.phaseMs} (6 s by default; the figures in issue notes use 20 s).
   */
  @Test
  void killedWorkersCostAGetOneSplitNotTheRead() throws Exception {
    long phaseMs = Long.getLong("eccache.crash.phaseMs", 6_000);
    read(3000, () -> { }); // warm-up (JIT, channels), not compared
    Phase healthy = read(phaseMs, () -> { });
    Phase oneKilled = read(phaseMs, () -> cluster.killWorker(0));
    Phase secondKilled = read(phaseMs, () -> cluster.killWorker(1));
    cluster.startWorker(0);
    cluster.startWorker(1);
    cluster.awaitLiveWorkers(WORKERS, 60_000);
    read(2000, () -> { }); // channels to the restarted workers, not compared
    Phase twoAtOnce = read(phaseMs, () -> {
      cluster.killWorker(2);
      cluster.killWorker(3);
    });
    cluster.startWorker(2);
    cluster.startWorker(3);
    cluster.awaitLiveWorkers(WORKERS, 60_000);
    System.out.printf("crash test, GETs of 12 RS(3,2) objects by 4 readers, %d ms a phase:%n"
        + "  healthy: %s%n  one worker SIGKILLed: %s%n  a second one SIGKILLed: %s%n"
        + "  two others SIGKILLed at once: %s%n", phaseMs, healthy, oneKilled, secondKilled,
        twoAtOnce);
    for (Phase phase : List.of(oneKilled, secondKilled, twoAtOnce)) {
      System.out.println("  " + phase.slowest(5));
    }
    double bound = Math.max(3 * healthy.percentileMs(0.999), healthy.percentileMs(0.999) + 250);
    for (Phase phase : List.of(healthy, oneKilled, secondKilled, twoAtOnce)) {
      assertEquals(0, phase.wrong.get(), phase.toString());
      assertEquals(0, phase.failed.get(), phase.toString());
      assertTrue(phase.ok.get() > 10, phase.toString());
    }
    for (Phase phase : List.of(oneKilled, secondKilled, twoAtOnce)) {
      assertTrue(phase.percentileMs(0.999) <= bound, "p99.9 past max(3x healthy, healthy + 250"
          + " ms) = " + Math.round(bound) + " ms: " + phase + "; " + phase.slowest(5)
          + "; healthy: " + healthy);
    }
    assertEveryAcknowledgedPutReads();
  }

  @Test
  void killingAWorkerMidPutLosesNothing() throws Exception {
    byte[] data = new byte[2_000_000];
    new Random(5).nextBytes(data);
    long replaced = 0;
    ExecutorService putter = Executors.newSingleThreadExecutor();
    try {
      // RS(3,2) puts splits on 5 of the 7 workers: kill one mid-PUT until one held a split.
      for (int attempt = 0; attempt < 6 && replaced == 0; attempt++) {
        String key = "crash/put-" + attempt;
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        GatedStream gated = new GatedStream(data, 400_000, started, resume);
        Future<?> put = putter.submit(() -> {
          cache.put(key, gated, data.length, PutOptions.code(3, 2));
          return null;
        });
        assertTrue(started.await(30, TimeUnit.SECONDS));
        int victim = (2 + attempt) % WORKERS;
        long before = ClientMetrics.SPLITS_REPLACED.getCount();
        cluster.killWorker(victim);
        try {
          resume.countDown();
          put.get(120, TimeUnit.SECONDS); // acknowledged: the lost split was written elsewhere
          acknowledged.put(key, data);
          replaced += ClientMetrics.SPLITS_REPLACED.getCount() - before;
          assertArrayEquals(data, cache.get(key));
        } finally {
          cluster.startWorker(victim);
          cluster.awaitLiveWorkers(WORKERS, 60_000);
        }
      }
    } finally {
      putter.shutdownNow();
    }
    assertTrue(replaced > 0, "no killed worker held a split in 6 tries");
    assertEveryAcknowledgedPutReads();
  }

  @Test
  void killingTheMasterMidPutKeepsEveryAcknowledgedPut() throws Exception {
    byte[] v1 = new byte[500_000];
    new Random(7).nextBytes(v1);
    cache.put("crash/master", v1, PutOptions.code(3, 2));
    acknowledged.put("crash/master", v1);
    byte[] v2 = new byte[1_500_000];
    new Random(8).nextBytes(v2);
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch resume = new CountDownLatch(1);
    ExecutorService putter = Executors.newSingleThreadExecutor();
    Future<?> put = putter.submit(() -> {
      cache.put("crash/master", new GatedStream(v2, 300_000, started, resume), v2.length,
          PutOptions.code(3, 2));
      return null;
    });
    try {
      assertTrue(started.await(30, TimeUnit.SECONDS));
      cluster.killMaster();
      cluster.startMaster(); // the journal keeps every committed layout
      resume.countDown();
      boolean succeeded;
      try {
        put.get(120, TimeUnit.SECONDS);
        succeeded = true;
      } catch (ExecutionException e) {
        // The restarted master forgot the allocation (soft state): the PUT fails, typed.
        assertTrue(e.getCause() instanceof IOException, e.getCause().toString());
        succeeded = false;
      }
      cluster.awaitLiveWorkers(WORKERS, 60_000);
      byte[] now = cache.get("crash/master");
      assertArrayEquals(succeeded ? v2 : v1, now, "a failed PUT leaves the previous version");
      acknowledged.put("crash/master", now);
      System.out.println("crash test: a PUT across a master SIGKILL and restart "
          + (succeeded ? "succeeded" : "failed, and the previous version stayed"));
    } finally {
      putter.shutdownNow();
    }
    assertEveryAcknowledgedPutReads();
  }
}
