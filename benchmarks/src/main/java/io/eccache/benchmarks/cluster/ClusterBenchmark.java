package io.eccache.benchmarks.cluster;

import alluxio.metrics.MetricsSystem;
import com.codahale.metrics.Counter;
import io.eccache.benchmarks.ComparedScheme;
import io.eccache.client.EcCacheClient;
import io.eccache.client.ObjectStat;
import io.eccache.client.PutOptions;
import io.eccache.client.RedundancyMaintainer;
import io.eccache.client.WriteMode;
import io.eccache.common.ClientKeys;
import io.eccache.common.EcCacheMetrics;
import io.eccache.common.MasterKeys;
import io.eccache.common.RedundancyScheme;
import io.eccache.policy.RedundancyPlanner;
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
import java.util.function.IntConsumer;
import org.HdrHistogram.Histogram;

/**
 * The DFS-Perf-style driver: stores one set of objects under every scheme compared, lets the
 * coordinator learn popularity from a first pass and re-tune (a maintainer moves the bytes), then
 * replays one Zipf request sequence against each scheme.
 *
 * <p>By default ({@link BenchSettings.MeasureMode#ALONE}) each scheme is measured on its own: its
 * own {@code clients} closed-loop readers (or its own Poisson arrivals), one scheme's phase after
 * the other in an order drawn from the seed, so no scheme's reads share the links with another's.
 * {@link BenchSettings.MeasureMode#INTERLEAVED} reads every request from every scheme in one loop,
 * as this driver once did; it favours EC-Cache and is labelled wherever reported.
 *
 * <p>With a {@link PinnedRetuning} (the in-process cluster) redundancy is allocated from the
 * learning pass's counts only and re-tuning does not run during the measured phase; the layouts
 * are compared before and after it, and any unit dropped or added is reported. Each scheme has its
 * own client, so its bytes per worker are its own; the shaper's per-worker counters give a second,
 * independent count of the bytes served.
 */
public final class ClusterBenchmark {
  private final BenchCluster cluster;
  private final LoopbackShaper shaper;
  /** The workers' bytes sent so far, background flows subtracted; null when unshaped. */
  private SentBytes sent;

  /** The measured phase's crash, when the run has one; null otherwise. */
  private MidPhaseKills kills;

  /** Bytes each worker's link has carried so far. */
  @FunctionalInterface
  private interface SentBytes {
    Map<String, Long> now() throws IOException;
  }
  private final Consumer<String> progress;
  private final int settlePasses;
  /** Drives re-tuning on the in-process cluster; null on a running cluster (not pinned). */
  private final PinnedRetuning pinning;
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
    this(cluster, shaper, progress, settlePasses, null);
  }

  /**
   * @param pinning drives re-tuning so redundancy is pinned for the measured phase (the cluster's
   *     heartbeat must be off, see {@link PinnedRetuning}); null: the coordinator's heartbeat
   *     re-tunes throughout, as on a running cluster
   */
  public ClusterBenchmark(BenchCluster cluster, LoopbackShaper shaper,
      Consumer<String> progress, int settlePasses, PinnedRetuning pinning) {
    this.cluster = cluster;
    this.shaper = shaper;
    this.progress = progress;
    this.settlePasses = settlePasses;
    this.pinning = pinning;
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
    /** Bytes of those fallbacks: sent by workers Alluxio chose, so in no worker's count. */
    public long fallbackBytes;
    /**
     * Per worker, the rest of split ranges late binding stopped reading part-way: not read, but
     * sent ahead by Alluxio's block stream (see {@code ReadStatistics.unreadBytesByWorker}).
     */
    public Map<String, Long> unreadByWorker = new TreeMap<>();
    /**
     * Per worker, the bytes its link carried during this scheme's measured phase, from the
     * kernel's counters (background flows subtracted); empty when unshaped or when the schemes
     * were read interleaved (then the links' bytes cannot be told apart by scheme).
     */
    public Map<String, Long> sentByWorker = new TreeMap<>();
    /** Cache bytes over object bytes (1.0 = no redundancy), just before the measured phase. */
    public double memory;
    /** The same just after it: differs from {@link #memory} if redundancy changed meanwhile. */
    public double memoryAfter;
    /** Redundancy units (parities, copies, partitions) the measured phase added, over objects. */
    public int unitsAdded;
    /** Redundancy units the measured phase dropped, over objects. */
    public int unitsDropped;
    /**
     * Objects written anew during the measured phase (another version of their layout): a read
     * that fell back to S3 re-caches the object, e.g. after a worker's loss.
     */
    public int rewritten;
    /** Objects whose redundancy was not yet its target when the measured phase began. */
    public int unsettled;
    /** The hottest objects before measuring: "#rank popularity share, units (target)". */
    public List<String> hottest = new ArrayList<>();
    /** Objects whose units changed during the phase: "#object before -> after". */
    public List<String> changed = new ArrayList<>();
    /** The units (parities, copies, partitions) each object held as the phase began, by index. */
    public int[] unitsByObject = new int[0];
    /** Whether the hottest object held at least as many units as any other (tuned schemes). */
    public boolean hottestHoldsMost = true;
    /** When this scheme's first measured request was issued (System.nanoTime()). */
    public long firstIssuedNanos = Long.MAX_VALUE;
    /** When its last measured request was done (System.nanoTime()). */
    public long lastDoneNanos = Long.MIN_VALUE;

    SchemeResult(ComparedScheme scheme) {
      this.scheme = scheme;
    }
  }

  /** Everything one run measured. */
  public static final class Outcome {
    public final BenchSettings settings;
    /**
     * Runs this one replaced, each a line saying which seed fell short of which target: a repeat
     * whose redundancy was short during the measured phase is run again, not published.
     */
    public List<String> replaced = new ArrayList<>();
    public final Map<ComparedScheme, SchemeResult> schemes = new LinkedHashMap<>();
    /** The kernel's count of bytes each worker address sent, background flows subtracted. */
    public Map<String, Long> shaperBytesByWorker = new TreeMap<>();
    /** Straggler workers of the measured phase, with their healthy link caps (kbit/s). */
    public Map<String, Integer> stragglers = new TreeMap<>();
    /** Workers SIGKILLed in each scheme's phase ({@link BenchSettings#killedWorkers}). */
    public List<String> killed = new ArrayList<>();
    /** Workers frozen in a duty cycle for the measured phase ({@link SlowServers}). */
    public List<String> slowServers = new ArrayList<>();
    /** Index of the request at which they died in each phase; -1 with none. */
    public int killedAtRequest = -1;
    /** Phases that began with some object not yet whole after the last phase's kill. */
    public int phasesNotWhole;
    /** Bytes the workers' links carried while the run restored its objects between phases. */
    public Map<String, Long> restoreSentByWorker = new TreeMap<>();
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
    /**
     * Split reads stopped before their end because k others had arrived (late binding checks
     * between slices; a split no longer than a slice is always read whole, and then discarded).
     */
    public long readsStoppedEarly;
    public long readsFailed;
    /** Extra split reads read whole after k others had arrived, and thrown away. */
    public long readsDiscarded;
    /** Whether redundancy was allocated by {@link PinnedRetuning} and frozen for the phase. */
    public boolean pinned;
    /** The split I/O threads of each client ({@code alluxio.user.eccache.io.threads}). */
    public int ioThreads;
    /** The order the schemes were measured in (alone mode), or all at once (interleaved). */
    public List<ComparedScheme> order = new ArrayList<>();

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
    if (s.stragglers > 0 && shaper == null) {
      throw new IllegalArgumentException("stragglers are workers whose links tc caps lower than"
          + " the others': they need the shaped in-process cluster (root and sch_htb)");
    }
    if (s.killedWorkers > 0 && (s.mode != BenchSettings.MeasureMode.ALONE
        || s.arrivalsPerSecond > 0 || s.clientProcesses > 0 || !cluster.canKillWorkers())) {
      throw new IllegalArgumentException("workers killed mid-phase need alone mode, one closed"
          + " loop in this JVM and worker processes this benchmark started (no --master)");
    }
    if (s.slowServers > 0 && !cluster.canKillWorkers()) {
      throw new IllegalArgumentException("slow servers are worker processes frozen in a duty"
          + " cycle: they need worker processes this benchmark started (no --master)");
    }
    sent = null; // set for this run's measured phase below
    kills = null;
    String run = runPrefix + (++runs);
    Random random = new Random(s.seed);
    List<byte[]> data = new ArrayList<>();
    for (int i = 0; i < s.objects; i++) {
      byte[] b = new byte[Math.toIntExact(s.objectBytes)];
      random.nextBytes(b);
      data.add(b);
    }
    ZipfSampler zipf = new ZipfSampler(s.objects, s.zipf);
    int[] learning = learningSequence(s, zipf, random);
    int[] sequence = new int[s.requests];
    for (int i = 0; i < sequence.length; i++) {
      sequence[i] = zipf.next(random);
    }
    Map<ComparedScheme, EcCacheClient> clients = new LinkedHashMap<>();
    List<Integer> stopped = new ArrayList<>();
    Outcome outcome = new Outcome(s);
    outcome.shaped = shaper != null;
    outcome.pinned = pinning != null;
    outcome.ioThreads = cluster.context().getClusterConf().getInt(ClientKeys.IO_THREADS);
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
      if (pinning != null) {
        pinning.beforeLearning();
        read(admin, clients, run, learning, s, null, "learning",
            BenchSettings.MeasureMode.INTERLEAVED);
        pinning.fold();
        try (RedundancyMaintainer maintainer = RedundancyMaintainer.create(admin).start(200)) {
          settlePinned(admin, s, run);
        }
      } else {
        try (RedundancyMaintainer maintainer = RedundancyMaintainer.create(admin).start(200)) {
          read(admin, clients, run, learning, s, null, "learning",
              BenchSettings.MeasureMode.INTERLEAVED);
          awaitSettled(admin, s, run);
        }
      }
      long passesBeforeStop = admin.stats().retunePasses();
      for (int i = 0; i < s.deadWorkers; i++) {
        cluster.stopWorker(i);
        stopped.add(i);
      }
      if (pinning != null && s.deadWorkers > 0) {
        awaitWorkerLostPass(admin, passesBeforeStop);
      }
      slowStragglers(s, stopped, outcome);
      if (s.killedWorkers > 0) {
        kills = new MidPhaseKills(cluster, s, spared(stopped, outcome),
            () -> whole(admin, s, run) && unsettled(admin, s, run, true) == 0
                && admin.stats().tasksPending() == 0,
            () -> RedundancyMaintainer.create(admin).start(200),
            () -> repin(admin, clients, run, learning, s), progress);
        outcome.killed = kills.hosts();
        outcome.killedAtRequest = kills.at();
      }
      BackgroundLoad background = startBackground(s, random);
      sent = shaper == null ? null : () -> {
        Map<String, Long> tc = shaper.bytesSent();
        if (background != null) {
          Map<String, Long> bg = background.bytesSent();
          tc.replaceAll((host, bytes) -> bytes - bg.getOrDefault(host, 0L));
        }
        return tc;
      };
      Map<String, Long> tcBefore = shaper == null ? Map.of() : shaper.bytesSent();
      Map<String, Long> bgBefore = background == null ? Map.of() : background.bytesSent();
      long cpuBefore = processCpuNanos();
      long[] metricsBefore = readMetrics();
      long start = System.nanoTime();
      SlowServers slow = null;
      try {
        if (s.slowServers > 0) {
          slow = new SlowServers(cluster, s, spared(stopped, outcome));
          outcome.slowServers = slow.hosts();
        }
        read(admin, clients, run, sequence, s, outcome, "measured", s.mode);
      } finally {
        if (slow != null) {
          slow.close();
        }
        outcome.seconds = (System.nanoTime() - start) / 1e9;
        long[] metricsAfter = readMetrics();
        // Reader processes (if any) added their own counts already.
        outcome.splitsRead += metricsAfter[0] - metricsBefore[0];
        outcome.readsStoppedEarly += metricsAfter[1] - metricsBefore[1];
        outcome.readsFailed += metricsAfter[2] - metricsBefore[2];
        outcome.readsDiscarded += metricsAfter[3] - metricsBefore[3];
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
            long noScheme = bgBefore.getOrDefault(e.getKey(), 0L)
                + outcome.restoreSentByWorker.getOrDefault(e.getKey(), 0L);
            outcome.shaperBytesByWorker.put(e.getKey(), Math.max(0, e.getValue() - noScheme));
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
      if (kills != null) {
        for (int i : kills.dead()) {
          cluster.startWorker(i);
        }
        kills = null;
      }
      healStragglers(outcome);
    }
    return outcome;
  }

  /** Workers a run's faults leave alone: the stopped, the stragglers and the killed. */
  private List<Integer> spared(List<Integer> stopped, Outcome outcome) {
    List<Integer> spared = new ArrayList<>(stopped);
    for (int i = 0; i < cluster.workerCount(); i++) {
      String host = cluster.workerHost(i);
      if (outcome.stragglers.containsKey(host) || outcome.killed.contains(host)) {
        spared.add(i);
      }
    }
    return spared;
  }

  /** Whether every split or copy of every scheme's objects is on a live worker. */
  private static boolean whole(EcCacheClient admin, BenchSettings s, String run) throws Exception {
    for (ComparedScheme ns : s.schemes) {
      for (ObjectStat stat : stats(admin, ns, run, s.objects).values()) {
        if (stat.liveSplits() < stat.scheme().splits()) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Caps the links of {@code s.stragglers} running workers (chosen from the seed, none of the
   * stopped ones) at {@code s.stragglerShare} of their rate, for the measured phase of every
   * scheme alike; they are recorded in the outcome.
   */
  private void slowStragglers(BenchSettings s, List<Integer> stopped, Outcome outcome)
      throws IOException {
    for (int i : cluster.choose(s.stragglers, stopped, new Random(s.seed * 13 + 5))) {
      String host = cluster.workerHost(i);
      int kbit = shaper.rate(host);
      shaper.setRate(host, (int) Math.max(1, Math.round(kbit * s.stragglerShare)));
      outcome.stragglers.put(host, kbit);
    }
  }

  /** Gives the stragglers their links back. */
  private void healStragglers(Outcome outcome) throws IOException {
    for (Map.Entry<String, Integer> e : outcome.stragglers.entrySet()) {
      shaper.setRate(e.getKey(), e.getValue());
    }
  }

  /**
   * The learning pass's requests: a Zipf sample ({@code LEARNED}), or each object round(p_i x
   * learning) times, at least once, shuffled ({@code EXPECTED}: the workload's probabilities).
   */
  static int[] learningSequence(BenchSettings s, ZipfSampler zipf, Random random) {
    if (s.allocation == BenchSettings.AllocationSource.LEARNED) {
      int[] learning = new int[s.learning];
      for (int i = 0; i < learning.length; i++) {
        learning[i] = zipf.next(random);
      }
      return learning;
    }
    List<Integer> all = new ArrayList<>();
    for (int i = 0; i < s.objects; i++) {
      long n = Math.max(1, Math.round(zipf.probability(i) * s.learning));
      for (long j = 0; j < n; j++) {
        all.add(i);
      }
    }
    Collections.shuffle(all, random);
    return all.stream().mapToInt(Integer::intValue).toArray();
  }

  /** The number the coordinator tunes: parities, copies or partitions. */
  static int units(RedundancyScheme scheme) {
    return scheme.redundancy();
  }

  private static Map<Integer, ObjectStat> stats(EcCacheClient admin, ComparedScheme ns, String run,
      int objects) throws Exception {
    Map<Integer, ObjectStat> m = new TreeMap<>();
    for (int i = 0; i < objects; i++) {
      m.put(i, admin.stat(key(ns, run, i)));
    }
    return m;
  }

  /**
   * A scheme's redundancy as its phase begins: memory, the hottest objects, the objects short of
   * their target. Taken at each phase's start, as the failure scenario pins again between phases.
   */
  private Map<Integer, ObjectStat> beginPhase(EcCacheClient admin, SchemeResult r, String run,
      BenchSettings s) throws Exception {
    Map<Integer, ObjectStat> stats = stats(admin, r.scheme, run, s.objects);
    r.memory = memory(stats.values());
    describeAllocation(r, stats);
    return stats;
  }

  /** What the scheme's phase changed: its redundancy as the phase ends against {@code before}. */
  private static void endPhase(EcCacheClient admin, SchemeResult r,
      Map<Integer, ObjectStat> before, String run, BenchSettings s) throws Exception {
    Map<Integer, ObjectStat> after = stats(admin, r.scheme, run, s.objects);
    r.memoryAfter = memory(after.values());
    for (Map.Entry<Integer, ObjectStat> e : before.entrySet()) {
      ObjectStat now = after.get(e.getKey());
      r.rewritten += now.version().equals(e.getValue().version()) ? 0 : 1;
      int change = units(now.scheme()) - units(e.getValue().scheme());
      r.unitsAdded += Math.max(0, change);
      r.unitsDropped += Math.max(0, -change);
      if (change != 0) {
        r.changed.add("#" + e.getKey() + " " + e.getValue().scheme() + " -> " + now.scheme());
      }
    }
  }

  /**
   * After a phase's kill, before the next phase: allocates again exactly as the first pinning did
   * (a pass folding only the replayed learning pass's counts), so every scheme's phase begins at
   * the targets the learning pass gave, whatever the kill's passes changed (a parity dropped while
   * its worker was lost, SP-Cache's partitions planned from the phase's request rate) and
   * whichever of their tasks failed. Not pinned (a running cluster's own re-tuning): nothing.
   */
  private void repin(EcCacheClient admin, Map<ComparedScheme, EcCacheClient> clients, String run,
      int[] learning, BenchSettings s) throws Exception {
    if (pinning == null) {
      return;
    }
    pinning.beforeLearning();
    read(admin, clients, run, learning, s, null, "learning again",
        BenchSettings.MeasureMode.INTERLEAVED);
    pinning.fold();
  }

  /** Records (and prints) the hottest objects' popularity and units, and whether they lead. */
  private void describeAllocation(SchemeResult r, Map<Integer, ObjectStat> stats) {
    double total = stats.values().stream().mapToDouble(ObjectStat::popularity).sum();
    List<Map.Entry<Integer, ObjectStat>> byPopularity = new ArrayList<>(stats.entrySet());
    byPopularity.sort((a, b) -> Double.compare(b.getValue().popularity(),
        a.getValue().popularity()));
    int most = stats.values().stream().mapToInt(st -> units(st.scheme())).max().orElse(0);
    r.unitsByObject = new int[stats.keySet().stream().mapToInt(Integer::intValue).max()
        .orElse(-1) + 1];
    stats.forEach((object, st) -> r.unitsByObject[object] = units(st.scheme()));
    for (ObjectStat st : stats.values()) {
      r.unsettled += awaitsChange(st) ? 1 : 0;
    }
    for (int i = 0; i < Math.min(5, byPopularity.size()); i++) {
      ObjectStat st = byPopularity.get(i).getValue();
      r.hottest.add(String.format(java.util.Locale.ROOT, "#%d %.3f, %d units%s",
          byPopularity.get(i).getKey(), total == 0 ? 0 : st.popularity() / total,
          units(st.scheme()), targetNote(st)));
    }
    // Objects tied for the top popularity count as the hottest together.
    double top = byPopularity.isEmpty() ? 0 : byPopularity.get(0).getValue().popularity();
    r.hottestHoldsMost = stats.values().stream().filter(st -> st.popularity() == top)
        .anyMatch(st -> units(st.scheme()) == most);
    progress.accept(String.format("%s hottest (object popularity-share units): %s%s%n",
        r.scheme.label(), String.join("; ", r.hottest), r.unsettled == 0 ? ""
            : "; " + r.unsettled + " objects NOT at their target"));
  }

  /** Empty at the target; else the target, and whether the planner keeps the difference. */
  private static String targetNote(ObjectStat st) {
    if (st.scheme().equals(st.target())) {
      return "";
    }
    return " (target " + units(st.target()) + (awaitsChange(st) ? ")"
        : ", a change too small to repartition for)");
  }

  /**
   * Pinned: waits (at most 120 s) until the tuned schemes' objects have the targets the fold chose
   * and the maintainer has no task left. No pass runs meanwhile: one would measure no request rate
   * and so take SP-Cache's planned repartitions back. Returns with what is left; the summary
   * reports it.
   */
  private void settlePinned(EcCacheClient admin, BenchSettings s, String run) throws Exception {
    long deadline = System.currentTimeMillis() + 120_000;
    while (System.currentTimeMillis() < deadline) {
      int unsettled = unsettled(admin, s, run, true);
      var stats = admin.stats();
      progress.accept(String.format("pinning: %d objects to change, %d tasks pending",
          unsettled, stats.tasksPending()));
      if (unsettled == 0 && stats.tasksPending() == 0) {
        return;
      }
      Thread.sleep(250);
    }
    progress.accept("redundancy did not reach its targets within 120 s; measuring as it is"
        + " (the summary counts the objects not at their target)");
  }

  /**
   * Objects of the tuned schemes that the coordinator will still change (see awaitsChange);
   * SP-Cache's only with {@code partitions}: under a running heartbeat its targets follow the
   * request rate of the moment, and may never be met.
   */
  private static int unsettled(EcCacheClient admin, BenchSettings s, String run,
      boolean partitions) throws Exception {
    int unsettled = 0;
    for (ComparedScheme ns : s.schemes) {
      if (!ns.tuned() || (ns == ComparedScheme.SP && !partitions)) {
        continue;
      }
      for (int i = 0; i < s.objects; i++) {
        unsettled += awaitsChange(admin.stat(key(ns, run, i))) ? 1 : 0;
      }
    }
    return unsettled;
  }

  /**
   * Whether the coordinator plans to change the object: any difference from its target, except
   * that SP-Cache repartitions only for a real change ({@link RedundancyPlanner#repartitions}),
   * so a smaller difference stays for good.
   */
  static boolean awaitsChange(ObjectStat stat) {
    RedundancyScheme scheme = stat.scheme();
    RedundancyScheme target = stat.target();
    if (scheme.kind() == RedundancyScheme.Kind.PARTITIONED
        && target.kind() == RedundancyScheme.Kind.PARTITIONED) {
      return RedundancyPlanner.repartitions(scheme.dataSplits(), target.dataSplits());
    }
    return !scheme.equals(target);
  }

  /**
   * A lost worker makes the coordinator run one pass of its own (with no new popularity folded it
   * changes no target, and no maintainer runs to repair): waits for it (at most 30 s), so the
   * layouts compared before and after the phase are both taken after it.
   */
  private void awaitWorkerLostPass(EcCacheClient admin, long passesBefore) throws Exception {
    long deadline = System.currentTimeMillis() + 30_000;
    while (admin.stats().retunePasses() <= passesBefore) {
      if (System.currentTimeMillis() > deadline) {
        progress.accept("the coordinator ran no pass within 30 s of the worker's loss;"
            + " measuring as it is");
        return;
      }
      Thread.sleep(100);
    }
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
      int unsettled = unsettled(admin, s, run, false);
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

  private static double memory(java.util.Collection<ObjectStat> stats) {
    long cached = 0;
    long size = 0;
    for (ObjectStat stat : stats) {
      cached += stat.cachedBytes();
      size += stat.size();
    }
    return size == 0 ? 0 : (double) cached / size;
  }

  /**
   * Replays {@code sequence}; records into {@code outcome} when it is not null, with each scheme's
   * redundancy as its phase begins and ends. Alone: one phase per scheme, in an order drawn from
   * the seed; interleaved: one phase reading every scheme.
   */
  private void read(EcCacheClient admin, Map<ComparedScheme, EcCacheClient> clients, String run,
      int[] sequence, BenchSettings s, Outcome outcome, String phase,
      BenchSettings.MeasureMode mode) throws Exception {
    if (mode == BenchSettings.MeasureMode.INTERLEAVED) {
      Map<ComparedScheme, Map<Integer, ObjectStat>> before = new LinkedHashMap<>();
      if (outcome != null) {
        outcome.order = new ArrayList<>(clients.keySet());
        for (ComparedScheme ns : clients.keySet()) {
          before.put(ns, beginPhase(admin, outcome.schemes.get(ns), run, s));
        }
      }
      readPhase(clients, run, sequence, s, outcome, phase, n -> { });
      for (Map.Entry<ComparedScheme, Map<Integer, ObjectStat>> e : before.entrySet()) {
        endPhase(admin, outcome.schemes.get(e.getKey()), e.getValue(), run, s);
      }
      return;
    }
    List<ComparedScheme> order = new ArrayList<>(clients.keySet());
    Collections.shuffle(order, new Random(s.seed * 7 + 3));
    if (outcome != null) {
      outcome.order = order;
    }
    for (int p = 0; p < order.size(); p++) {
      ComparedScheme ns = order.get(p);
      Map<Integer, ObjectStat> pinned = outcome == null ? null
          : beginPhase(admin, outcome.schemes.get(ns), run, s);
      Map<String, Long> before = outcome == null || sent == null ? null : sent.now();
      MidPhaseKills crash = outcome == null ? null : kills;
      readPhase(Map.of(ns, clients.get(ns)), run, sequence, s, outcome, phase + " " + ns.label(),
          crash == null ? n -> { } : crash.phase());
      if (pinned != null) {
        endPhase(admin, outcome.schemes.get(ns), pinned, run, s);
      }
      if (before != null) {
        Map<String, Long> carried = delta(before, sent.now());
        // The background flows' own count runs ahead of their links' (bytes written, not yet
        // sent): a phase's difference is clamped at 0, as the run's is.
        carried.replaceAll((host, bytes) -> Math.max(0, bytes));
        outcome.schemes.get(ns).sentByWorker = carried;
      }
      if (crash != null && p + 1 < order.size()) {
        Map<String, Long> restoring = sent == null ? null : sent.now();
        if (!crash.restore()) {
          outcome.phasesNotWhole++;
        }
        if (restoring != null) {
          // Repairs between phases are no scheme's reads: kept out of the run's kernel count.
          delta(restoring, sent.now()).forEach((host, bytes) -> outcome.restoreSentByWorker
              .merge(host, Math.max(0, bytes), Long::sum));
        }
      }
    }
  }

  /** One phase: {@code clients}' schemes read {@code sequence} together. */
  private void readPhase(Map<ComparedScheme, EcCacheClient> clients, String run, int[] sequence,
      BenchSettings s, Outcome outcome, String phase, IntConsumer beforeIssue) throws Exception {
    for (EcCacheClient c : clients.values()) {
      c.readStatistics().reset();
    }
    if (s.arrivalsPerSecond > 0) {
      readOpenLoop(clients, run, sequence, s, outcome, phase);
    } else if (s.clientProcesses > 0 && outcome != null) {
      long began = System.nanoTime();
      ReaderProcess.readMeasured(cluster.context().getClusterConf(), run, sequence, s, outcome,
          clients.keySet(), progress);
      long ended = System.nanoTime();
      for (ComparedScheme ns : clients.keySet()) {
        // The readers' own clocks are not this JVM's: the phase's bounds stand for theirs.
        SchemeResult r = outcome.schemes.get(ns);
        r.firstIssuedNanos = Math.min(r.firstIssuedNanos, began);
        r.lastDoneNanos = Math.max(r.lastDoneNanos, ended);
      }
      return; // the reader processes counted the bytes
    } else {
      int[] all = new int[sequence.length];
      Arrays.setAll(all, i -> i);
      readClosedLoop(clients, run, sequence, all, s, outcome, phase, progress, beforeIssue);
    }
    if (outcome != null) {
      for (Map.Entry<ComparedScheme, EcCacheClient> e : clients.entrySet()) {
        SchemeResult r = outcome.schemes.get(e.getKey());
        r.bytesByWorker = e.getValue().readStatistics().bytesByWorker();
        r.decodes = e.getValue().readStatistics().decodes();
        r.decodeNanos = e.getValue().readStatistics().decodeNanos();
        r.fallbacks = e.getValue().readStatistics().fallbacks();
        r.fallbackBytes = e.getValue().readStatistics().fallbackBytes();
        r.unreadByWorker = e.getValue().readStatistics().unreadBytesByWorker();
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
      long done = System.nanoTime();
      synchronized (r) {
        r.latencyMicros.recordValue(Math.max(1, micros));
        r.usefulBytes += got.length;
        r.firstIssuedNanos = Math.min(r.firstIssuedNanos, issuedNanos);
        r.lastDoneNanos = Math.max(r.lastDoneNanos, done);
      }
    }
  }

  /**
   * Poisson arrivals at {@code s.arrivalsPerSecond}: each request is read from every scheme of
   * {@code clients} at once (one scheme when measured alone; every scheme's phase has the same
   * arrival times), and its latency runs from its arrival, so time spent waiting behind earlier
   * requests counts, as in SP-Cache's evaluation.
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
   * {@code sequence} in turn, each reading the object from every scheme of {@code clients} (one
   * when measured alone) in a random order (seeded by the request's position, so every process and
   * run orders alike).
   */
  static void readClosedLoop(Map<ComparedScheme, EcCacheClient> clients, String run, int[] sequence,
      int[] positions, BenchSettings s, Outcome outcome, String phase, Consumer<String> progress)
      throws Exception {
    readClosedLoop(clients, run, sequence, positions, s, outcome, phase, progress, n -> { });
  }

  /** As above; {@code beforeIssue} is called with each request's index before it is issued. */
  static void readClosedLoop(Map<ComparedScheme, EcCacheClient> clients, String run, int[] sequence,
      int[] positions, BenchSettings s, Outcome outcome, String phase, Consumer<String> progress,
      IntConsumer beforeIssue) throws Exception {
    List<ComparedScheme> schemes = new ArrayList<>(clients.keySet());
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(s.clients);
    try {
      List<Future<?>> readers = new ArrayList<>();
      for (int t = 0; t < s.clients; t++) {
        readers.add(pool.submit(() -> {
          for (int n = next.getAndIncrement(); n < positions.length; n = next.getAndIncrement()) {
            int i = positions[n];
            beforeIssue.accept(n);
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

  /**
   * This process's split-read counters from Alluxio's metrics system: used, stopped part-way by
   * late binding, failed, read whole and discarded by late binding.
   */
  static long[] readMetrics() {
    String[] names = {EcCacheMetrics.SPLITS_READ, EcCacheMetrics.READS_STOPPED_EARLY,
        EcCacheMetrics.READS_FAILED, EcCacheMetrics.READS_DISCARDED};
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
