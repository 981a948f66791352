package io.eccache.benchmarks.cluster;

import io.eccache.benchmarks.ComparedScheme;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One counterpart of a figure of the EC-Cache paper: a list of runs (one per point of a sweep), what
 * the paper reported, and how a run is labelled on the x axis.
 */
public final class Scenario {
  /** Directory name under benchmarks/results/. */
  public final String name;
  /** The paper's figure(s) it reproduces. */
  public final String figure;
  /** What the paper reports, for the summary. */
  public final String paper;
  /** x-axis label of a sweep ("" when the scenario is one run). */
  public final String sweep;
  /** Runs in order, keyed by their x value (or a label). */
  public final Map<String, BenchSettings> runs;

  Scenario(String name, String figure, String paper, String sweep,
      Map<String, BenchSettings> runs) {
    this.name = name;
    this.figure = figure;
    this.paper = paper;
    this.sweep = sweep;
    this.runs = runs;
  }

  /** Every scenario at the given profile: {@code quick} fits in ~15 minutes on 2 cores. */
  public static List<Scenario> all(String profile) {
    boolean quick = !"full".equals(profile);
    BenchSettings base = new BenchSettings();
    base.objects = quick ? 16 : 40;
    base.objectBytes = quick ? 8L << 20 : 40_000_000L; // full: the paper's 40 MB
    base.requests = quick ? 120 : 1000;
    base.learning = quick ? 80 : 400;
    base.clients = 4;
    List<Scenario> all = new ArrayList<>();

    all.add(new Scenario("skew", "Fig. 8 (latency) and Fig. 9 (load per server)",
        "λ SR 43.45% vs EC 13.14%; SR/EC median 2.64x, mean 2.52x, p99 1.76x, p99.9 1.79x", "",
        one("zipf 0.9", base)));

    BenchSettings background = base.copy();
    background.backgroundFraction = 0.25;
    all.add(new Scenario("background", "Fig. 10 (background network imbalance)",
        "SR/EC median 2.56x, p99 1.9x, p99.9 2.56x", "", one("25% of links loaded", background)));

    // The crash comes inside each scheme's own phase, a quarter of the way into its requests (a
    // worker process SIGKILLed), and each scheme's phase begins with every object whole.
    BenchSettings dead = base.copy();
    dead.killedWorkers = 1;
    dead.persisted = true; // objects whose only copy died come from S3, as in the paper
    all.add(new Scenario("failure", "Fig. 11 (one server dead)", "SR/EC p99 2.7x, p99.9 2.8x", "",
        one("1 worker SIGKILLed mid-phase", dead)));

    Map<String, BenchSettings> sizes = new LinkedHashMap<>();
    for (long mib : quick ? new long[] {1, 4, 16} : new long[] {1, 10, 40, 100}) {
      BenchSettings s = base.copy();
      s.objectBytes = mib << 20;
      s.objects = quick ? (int) Math.max(8, Math.min(24, 128 / mib)) : base.objects;
      sizes.put(String.valueOf(mib), s);
    }
    all.add(new Scenario("size", "Fig. 12 (object size)",
        "SR/EC median 1.33x at 1 MB rising to 5.5x at 100 MB", "object MiB", sizes));

    Map<String, BenchSettings> ks = new LinkedHashMap<>();
    for (int k : quick ? new int[] {2, 5, 10} : new int[] {2, 4, 6, 8, 10, 12}) {
      BenchSettings s = base.copy();
      s.tuned = false;
      s.k = k;
      s.r = 1;
      s.schemes = List.of(ComparedScheme.EC, ComparedScheme.SR);
      ks.put(String.valueOf(k), s);
    }
    all.add(new Scenario("k", "Figs. 13-14 (number of splits k)",
        "latency falls as k grows; λ falls with k", "k", ks));

    Map<String, BenchSettings> deltas = new LinkedHashMap<>();
    for (int d : quick ? new int[] {0, 1, 2} : new int[] {0, 1, 2, 3, 4}) {
      BenchSettings s = base.copy();
      s.delta = d;
      s.schemes = List.of(ComparedScheme.EC, ComparedScheme.SR);
      deltas.put(String.valueOf(d), s);
    }
    all.add(new Scenario("delta", "Figs. 15-16 (extra reads Δ)",
        "Δ = 0 hurts the tail badly; Δ = 1 captures most of the gain", "Δ", deltas));
    // The paper's stragglers are EC2's own; here one worker of 12 gets a tenth of a link for the
    // measured phase (tc, every scheme alike), which loopback never has by itself.
    all.add(new Scenario("stragglers", "Figs. 15-16 with a straggler (extra reads Δ)",
        "Δ = 0 hurts the tail badly; Δ = 1 captures most of the gain", "Δ",
        each(deltas, s -> s.stragglers = 1)));
    // The other kind of straggler: a slow server rather than a slow link. One worker process of
    // 12 is frozen (SIGSTOP) 80 ms of every 100 for the measured phase, every scheme alike.
    all.add(new Scenario("slow-server", "Figs. 15-16 with a slow server (extra reads Δ)",
        "Δ = 0 hurts the tail badly; Δ = 1 captures most of the gain", "Δ",
        each(deltas, s -> s.slowServers = 1)));
    Map<String, BenchSettings> writes = new LinkedHashMap<>();
    for (long mib : quick ? new long[] {2, 8, 32} : new long[] {10, 40, 100}) {
      BenchSettings s = base.copy();
      s.objectBytes = mib << 20;
      s.objects = quick ? (int) Math.max(6, Math.min(16, 128 / mib)) : base.objects;
      s.requests = quick ? 20 : 100;
      s.learning = quick ? 10 : 50;
      s.schemes = List.of(ComparedScheme.EC, ComparedScheme.SR);
      writes.put(String.valueOf(mib), s);
    }
    all.add(new Scenario("writes", "Fig. 17 (write latency, encode share)",
        "encode under 10% of write time; EC writes faster than SR above 40 MB", "object MiB",
        writes));

    // SP-Cache's own setup (its Sec. VII): Zipf 1.05, Poisson arrivals, EC-Cache with 40%
    // redundancy (its (10,14); here RS(5,2), which fits 12 workers), selective replication as 4
    // copies of the hottest 10%, SP-Cache's partitions tuned by the coordinator. The rate loads the
    // default 12 x 200 Mbit/s links to about 45% with all three schemes read per request.
    BenchSettings sp = base.copy();
    sp.zipf = 1.05;
    sp.objects = quick ? 24 : 100;
    sp.objectBytes = quick ? 8L << 20 : 40L << 20;
    sp.tuned = false;
    sp.k = 5;
    sp.r = 2;
    sp.hotReplicaFraction = 0.1;
    sp.hotReplicas = 4;
    sp.arrivalsPerSecond = quick ? 4 : 0.9;
    all.add(new Scenario("spcache", "SP-Cache Figs. 10-11 (its setup: Zipf 1.05, Poisson arrivals)",
        "η SP 0.18, EC 0.44, SR 1.18; SP-Cache mean latency 29-50% below EC-Cache's, tail 22-55%",
        "", one("Zipf 1.05 Poisson arrivals", sp)));
    return all;
  }

  /** A copy of every run of {@code runs}, each changed by {@code change}, under the same labels. */
  private static Map<String, BenchSettings> each(Map<String, BenchSettings> runs,
      java.util.function.Consumer<BenchSettings> change) {
    Map<String, BenchSettings> changed = new LinkedHashMap<>();
    runs.forEach((label, run) -> {
      BenchSettings s = run.copy();
      change.accept(s);
      changed.put(label, s);
    });
    return changed;
  }

  /** A scenario of one run labelled {@code label}, for commands other than bench (the demo). */
  public static Scenario single(String name, String figure, String paper, String label,
      BenchSettings settings) {
    return new Scenario(name, figure, paper, "", one(label, settings));
  }

  private static Map<String, BenchSettings> one(String label, BenchSettings s) {
    Map<String, BenchSettings> m = new LinkedHashMap<>();
    m.put(label, s);
    return m;
  }
}
