package io.eccache.benchmarks.sim.agar;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One of the paper's sweeps (Fig. 8a: cache size; Fig. 8b: Zipf skew), each point run for every policy
 * over several seeds, with the paper's lead of Agar over the next best policy at each point. Immutable.
 */
public final class AgarSweep {
  /** The sweeps by name, in report order. */
  public static final List<String> NAMES = List.of("cache", "skew");

  private final String name;
  private final String figure;
  private final String axis;
  private final List<Double> values;
  private final List<Double> paperLeadPercent;

  private AgarSweep(String name, String figure, String axis, List<Double> values,
      List<Double> paperLeadPercent) {
    this.name = name;
    this.figure = figure;
    this.axis = axis;
    this.values = List.copyOf(values);
    this.paperLeadPercent = List.copyOf(paperLeadPercent);
  }

  /**
   * @param name "cache" (Fig. 8a: 5/10/20/50/100 MB at Zipf 1.1) or "skew" (Fig. 8b: Zipf 0.8/0.9/1.0/1.1/1.4
   *     at 10 MB)
   * @return the sweep
   * @throws IllegalArgumentException if there is no sweep of that name
   */
  public static AgarSweep named(String name) {
    switch (name) {
      case "cache":
        return new AgarSweep(name, "Fig. 8a", "cache MB", List.of(5.0, 10.0, 20.0, 50.0, 100.0),
            List.of(6.5, 15.0, 16.0, 12.0, 1.0));
      case "skew":
        return new AgarSweep(name, "Fig. 8b", "Zipf skew", List.of(0.8, 0.9, 1.0, 1.1, 1.4),
            List.of(5.8, 7.2, 13.0, 15.0, 14.0));
      default:
        throw new IllegalArgumentException("no sweep named '" + name + "': choose from " + NAMES);
    }
  }

  /** @return "cache" or "skew" */
  public String name() {
    return name;
  }

  /** @return the paper's figure */
  public String figure() {
    return figure;
  }

  /** @return the swept quantity, for tables and plots */
  public String axis() {
    return axis;
  }

  /** @return the swept values, in the paper's order */
  public List<Double> values() {
    return values;
  }

  /** @return the paper's lead of Agar over the next best policy at each value, % */
  public List<Double> paperLeadPercent() {
    return paperLeadPercent;
  }

  /**
   * @param base the other settings
   * @param x one of {@link #values()}
   * @return the setup of that point
   */
  public AgarSimConfig at(AgarSimConfig base, double x) {
    return name.equals("cache")
        ? base.withCapacityChunks(AgarSimConfig.chunksForMegabytes((int) Math.round(x), base.layout()))
        : base.withSkew(x);
  }

  /** @return x as the tables print it */
  public String label(double x) {
    return name.equals("cache") ? String.format(Locale.ROOT, "%d", Math.round(x))
        : String.format(Locale.ROOT, "%.1f", x);
  }

  /**
   * Runs every point: per value, per seed ({@code base.seed()} and on), every policy.
   *
   * @param base the other settings
   * @param policies the policies to compare
   * @param seeds seeds per point, at least 1
   * @param progress one line per point
   * @return per value, per seed, per policy name, in order
   */
  public Map<Double, List<Map<String, AgarRunResult>>> run(AgarSimConfig base,
      List<CachePolicySpec> policies, int seeds, Consumer<String> progress) {
    if (seeds < 1) {
      throw new IllegalArgumentException("seeds must be >= 1 but was " + seeds);
    }
    Map<Double, List<Map<String, AgarRunResult>>> results = new LinkedHashMap<>();
    for (double x : values) {
      long started = System.nanoTime();
      List<Map<String, AgarRunResult>> bySeed = new ArrayList<>();
      for (int s = 0; s < seeds; s++) {
        AgarSimConfig config = at(base, x).withSeed(base.seed() + s);
        Map<String, AgarRunResult> byPolicy = new LinkedHashMap<>();
        for (CachePolicySpec p : policies) {
          byPolicy.put(p.name(), AgarSimulation.run(config, p));
        }
        bySeed.add(byPolicy);
      }
      results.put(x, bySeed);
      progress.accept(String.format(Locale.ROOT, "  %s = %s: %d policies x %d seeds in %.1f s",
          axis, label(x), policies.size(), seeds, (System.nanoTime() - started) / 1e9));
    }
    return results;
  }
}
