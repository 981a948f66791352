package io.eccache.benchmarks.agar;

import io.eccache.benchmarks.sim.agar.CachePolicySpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What one {@code eccache-bench agar} run measures: the regions' scale, the objects, the cluster,
 * the clients, the periods, and the points (cache size and skew, each with its policies and seeds).
 * Profiles: {@code quick} (under 15 minutes on the 2-core development machine) and {@code full}
 * (the paper's 300 objects, its 2 clients and every LFU-c and LRU-c over both sweeps: hours).
 */
public final class AgarClusterSettings {
  /** The paper's objects: 300 of 1 MB; cache sizes are in MB of that. */
  public static final int PAPER_OBJECTS = 300;
  public static final double PAPER_CACHE_MB = 10;
  public static final double PAPER_SKEW = 1.1;

  /** One point of a sweep: a cache size and a skew, the policies compared there, seeds. */
  public static final class Point {
    /** "default" (the paper's setting), "cache" (Fig. 8a) or "skew" (Fig. 8b). */
    public final String sweep;
    /** The cache as the paper sizes it: MB of its 300 MB of objects. */
    public final double cacheMb;
    public final double skew;
    public final List<CachePolicySpec> policies;
    public final int seeds;

    Point(String sweep, double cacheMb, double skew, List<CachePolicySpec> policies, int seeds) {
      this.sweep = sweep;
      this.cacheMb = cacheMb;
      this.skew = skew;
      this.policies = List.copyOf(policies);
      this.seeds = seeds;
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%s: %.0f MB, Zipf %.1f", sweep, cacheMb, skew);
    }
  }

  public String profile = "quick";
  /** Factor on Table I's latencies (80 ms to 4.6 s from Frankfurt). */
  public double latencyScale = 0.1;
  public int objects = 100;
  /** The paper's 1 MB. */
  public int objectBytes = 1_000_000;
  public int k = 9;
  public int m = 3;
  public int workers = 4;
  public long workerMemoryBytes = 96L << 20;
  /** Closed-loop clients, each its own eccache client. */
  public int clients = 4;
  /** Agar's 30 s, scaled with the latencies. */
  public Duration period = Duration.ofSeconds(3);
  public int warmupPeriods = 2;
  public int measuredReads = 200;
  public long seed = 1;
  public List<Point> points = new ArrayList<>();

  /**
   * The settings of a profile.
   *
   * @throws IllegalArgumentException for a profile other than quick, full or tiny
   */
  public static AgarClusterSettings profile(String name) {
    AgarClusterSettings s = new AgarClusterSettings();
    s.profile = name;
    List<CachePolicySpec> compared = List.of(CachePolicySpec.agar(), CachePolicySpec.lfu(3),
        CachePolicySpec.lru(3));
    switch (name) {
      case "quick": {
        s.points.add(new Point("default", PAPER_CACHE_MB, PAPER_SKEW, compared, 3));
        // No cache, no policy: its reads are the 9 nearest regions' fixed latencies, the same
        // for every seed (within 3% over 3 seeds at 16cef6a), so once is enough.
        s.points.add(new Point("default", PAPER_CACHE_MB, PAPER_SKEW,
            List.of(CachePolicySpec.backend()), 1));
        // The whole-object caches (LFU-k, LRU-k: 3 objects in 30 splits), once: the issue's
        // baselines, slower than LFU-3 in the simulator at this setting.
        s.points.add(new Point("default", PAPER_CACHE_MB, PAPER_SKEW,
            List.of(CachePolicySpec.lfu(9), CachePolicySpec.lru(9)), 1));
        for (double mb : new double[] {5, 20, 50}) {
          s.points.add(new Point("cache", mb, PAPER_SKEW, compared, 1));
        }
        for (double skew : new double[] {0.8, 1.4}) {
          s.points.add(new Point("skew", PAPER_CACHE_MB, skew, compared, 1));
        }
        return s;
      }
      case "full": {
        s.objects = PAPER_OBJECTS;
        s.clients = 2;
        s.measuredReads = 1000;
        s.warmupPeriods = 3;
        List<CachePolicySpec> all = CachePolicySpec.paperSet();
        for (double mb : new double[] {5, 10, 20, 50, 100}) {
          s.points.add(new Point(mb == PAPER_CACHE_MB ? "default" : "cache", mb, PAPER_SKEW, all,
              5));
        }
        for (double skew : new double[] {0.8, 0.9, 1.0, 1.4}) {
          s.points.add(new Point("skew", PAPER_CACHE_MB, skew, all, 5));
        }
        return s;
      }
      case "tiny": { // for tests: seconds, not minutes
        s.latencyScale = 0.01;
        s.objects = 6;
        s.objectBytes = 45_000;
        s.workers = 3;
        s.workerMemoryBytes = 32L << 20;
        s.clients = 2;
        s.period = Duration.ofSeconds(1);
        s.warmupPeriods = 2;
        s.measuredReads = 12;
        s.points.add(new Point("default", 300, PAPER_SKEW,
            List.of(CachePolicySpec.agar(), CachePolicySpec.backend()), 1));
        return s;
      }
      default:
        throw new IllegalArgumentException("no profile '" + name + "': use quick or full");
    }
  }

  /** The cache of {@code cacheMb} MB of the paper's 300 MB of objects, in splits of ours. */
  public int capacitySplits(double cacheMb) {
    return (int) Math.round(cacheMb / PAPER_OBJECTS * objects * k);
  }

  /** Runs in all, for progress and the time estimate. */
  public int runs() {
    int n = 0;
    for (Point p : points) {
      n += p.policies.size() * p.seeds;
    }
    return n;
  }
}
