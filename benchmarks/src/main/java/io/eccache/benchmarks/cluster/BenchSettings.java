package io.eccache.benchmarks.cluster;

import io.eccache.benchmarks.ComparedScheme;
import java.util.List;

/**
 * One measured run of the cluster benchmark: the workload (objects, sizes, Zipf skew, clients) and
 * the conditions (per-worker bandwidth, background flows, dead workers). Mutable, fluent; scenarios
 * copy a base and change what they sweep.
 */
public final class BenchSettings implements Cloneable {
  /** Objects stored per scheme. */
  public int objects = 20;
  /** Bytes per object. */
  public long objectBytes = 8L << 20;
  /** Zipf skew of object popularity (the paper's 0.9). */
  public double zipf = 0.9;
  /** Concurrent closed-loop readers. */
  public int clients = 4;
  /** Measured GETs per scheme (the same sequence of requests for every scheme). */
  public int requests = 200;
  /** GETs per scheme in the learning pass before measuring (also JIT and connection warm-up). */
  public int learning = 100;
  /** Data splits; with {@link #tuned} the cluster's default k is used instead. */
  public int k = 10;
  /** Parity splits of a fixed code (not tuned). */
  public int r = 1;
  /** Extra splits read per GET. */
  public int delta = 1;
  /** Whether objects are PUT with default options (scheme by namespace, redundancy re-tuned). */
  public boolean tuned = true;
  /** Schemes compared, as namespaces: ec, sr (selective replication), sp (SP-Cache), single. */
  public List<ComparedScheme> schemes =
      List.of(ComparedScheme.EC, ComparedScheme.SR, ComparedScheme.SP);
  /** Fraction of workers whose links carry background flows (paper 6.3); 0 for none. */
  public double backgroundFraction = 0;
  /** Background flows per loaded worker. */
  public int backgroundFlows = 2;
  /** Also keep every object in S3 (THROUGH), so reads of lost objects fall back there. */
  public boolean persisted = false;
  /** Workers stopped before measuring (paper 6.4's failure). */
  public int deadWorkers = 0;
  /**
   * Workers SIGKILLed inside each scheme's measured phase (alone mode, closed loop), when the
   * request at {@link #killAt} of the sequence is issued; started again, and every object whole,
   * before the next scheme's phase. They run as processes of their own.
   */
  public int killedWorkers = 0;
  /** Where in a phase's request sequence {@link #killedWorkers} die, as a fraction. */
  public double killAt = 0.25;
  /**
   * Workers made stragglers for the measured phase (paper 6.5, Figs. 15-16): their links capped at
   * {@link #stragglerShare} of the others' (tc, so the shaped in-process cluster only), the same
   * workers for every scheme, chosen from the seed.
   */
  public int stragglers = 0;
  /** A straggler's link as a fraction of a healthy worker's. */
  public double stragglerShare = 0.1;
  /**
   * Slow servers for the measured phase (the slow-server mode): worker processes frozen with
   * SIGSTOP for {@link #slowShare} of every 100 ms, the same workers for every scheme, chosen from
   * the seed.
   */
  public int slowServers = 0;
  /** The share of each 100 ms a slow server is frozen. */
  public double slowShare = 0.8;
  /**
   * Open loop: requests arrive as a Poisson process at this rate (per second), each read from every
   * scheme at once, latency counted from its arrival; 0 = closed loop ({@link #clients} readers,
   * each issuing its next request when the last is done).
   */
  public double arrivalsPerSecond = 0;
  /**
   * Closed loop only: run the measured phase's readers in this many JVMs of their own (the paper's
   * separate client machines), {@link #clients} split among them; 0 = threads in this JVM.
   */
  public int clientProcesses = 0;
  /**
   * SP-Cache's selective-replication baseline instead of the tuned one: the hottest this fraction of
   * objects get {@link #hotReplicas} copies, the rest one; 0 = tuned by the coordinator.
   */
  public double hotReplicaFraction = 0;
  /** Copies of a hot object under {@link #hotReplicaFraction}. */
  public int hotReplicas = 4;
  /** Random seed of objects, popularity and the request sequence. */
  public long seed = 1;
  /** How the measured phase reads the schemes: each alone (default) or interleaved. */
  public MeasureMode mode = MeasureMode.ALONE;
  /** What redundancy is allocated from (pinned runs only). */
  public AllocationSource allocation = AllocationSource.LEARNED;

  /** How the measured phase reads the schemes compared. */
  public enum MeasureMode {
    /**
     * One scheme at a time, each with its own {@link #clients} closed-loop readers (or its own
     * Poisson arrivals), over the same placement and the same request sequence.
     */
    ALONE,
    /**
     * Every request reads its object from every scheme, in a random order, in one closed loop
     * (or all at its arrival): the schemes share the links, which favours EC-Cache (issue 14).
     */
    INTERLEAVED
  }

  /** Where the popularity that redundancy is allocated from comes from. */
  public enum AllocationSource {
    /** The learning pass's reads: a Zipf sample of {@link #learning} requests. */
    LEARNED,
    /**
     * The workload's known probabilities (the paper's method): the learning pass reads each object
     * round(p_i x {@link #learning}) times (at least once), in a random order.
     */
    EXPECTED
  }

  /** Whether the run needs workers that are processes of their own (to kill or freeze). */
  public boolean needsWorkerProcesses() {
    return killedWorkers > 0 || slowServers > 0;
  }

  /** A copy to change. */
  public BenchSettings copy() {
    try {
      return (BenchSettings) clone();
    } catch (CloneNotSupportedException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * Every setting as {@code name=value}, in declaration order: what summaries record so a run can
   * be repeated exactly.
   */
  public java.util.Map<String, String> asMap() {
    java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
    for (java.lang.reflect.Field f : BenchSettings.class.getFields()) {
      if (java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
        continue;
      }
      try {
        Object v = f.get(this);
        m.put(f.getName(), v instanceof List ? ((List<?>) v).stream().map(x -> x instanceof
            ComparedScheme ? ((ComparedScheme) x).label() : String.valueOf(x))
            .collect(java.util.stream.Collectors.joining("+")) : String.valueOf(v));
      } catch (IllegalAccessException e) {
        throw new AssertionError(e);
      }
    }
    return m;
  }

  /** {@link #asMap()} on one line: "objects=16, objectBytes=8388608, ...". */
  public String describe() {
    return asMap().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
        .collect(java.util.stream.Collectors.joining(", "));
  }

  /**
   * What ran, as a summary's label says it: {@code zipf 0.9, 8 MiB, 20 objects}, and the faults
   * when there are any.
   */
  public String workloadLabel() {
    java.text.DecimalFormat n = new java.text.DecimalFormat("0.###",
        java.text.DecimalFormatSymbols.getInstance(java.util.Locale.ROOT));
    return "zipf " + n.format(zipf) + ", " + n.format(objectBytes / 1048576.0) + " MiB, "
        + objects + " objects" + (deadWorkers == 0 ? "" : ", " + deadWorkers + " dead")
        + (killedWorkers == 0 ? "" : ", " + killedWorkers + " SIGKILLed mid-phase")
        + (stragglers == 0 ? "" : ", " + stragglers + " straggler(s)")
        + (slowServers == 0 ? "" : ", " + slowServers + " slow server(s)");
  }

  @Override
  public String toString() {
    return String.format(java.util.Locale.ROOT,
        "%d objects x %.1f MB, Zipf %.2f, %s, %d GETs, %s, delta %d, background %.0f%%,"
            + " %d dead%s%s", objects, objectBytes / 1e6, zipf, arrivalsPerSecond > 0
            ? String.format(java.util.Locale.ROOT, "Poisson %.1f req/s", arrivalsPerSecond)
            : clients + " clients", requests,
        tuned ? "tuned" : "RS(" + k + "," + r + ")", delta, backgroundFraction * 100,
        deadWorkers, killedWorkers == 0 ? "" : String.format(java.util.Locale.ROOT,
            ", %d SIGKILLed %.0f%% into each phase", killedWorkers, killAt * 100),
        stragglers == 0 ? "" : String.format(java.util.Locale.ROOT,
            ", %d straggler(s) at %.0f%% of a link", stragglers, stragglerShare * 100))
        + (slowServers == 0 ? "" : String.format(java.util.Locale.ROOT,
            ", %d slow server(s) frozen %.0f%% of the time", slowServers, slowShare * 100));
  }
}
