package io.eccache.benchmarks.sim.agar;

import io.eccache.policy.ZipfSampler;
import io.eccache.policy.agar.AgarRegions;
import io.eccache.policy.agar.CacheConfiguration;
import io.eccache.policy.agar.CachingOption;
import io.eccache.policy.agar.CachingOptions;
import io.eccache.policy.agar.ExactKnapsack;
import io.eccache.policy.agar.KnapsackSolver;
import io.eccache.policy.agar.Populate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One period's allocation at the paper's scale: POPULATE (both option orders) against the exact
 * multiple-choice knapsack, over 300 objects with Zipf popularity (the expected counts of 150 reads in a
 * period) on Table I's layout, for the caches of Fig. 8a (5 to 100 MB: 45 to 900 chunks). One operation
 * is one {@code solve} of all the objects' options; the options are generated once.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class KnapsackBenchmark {
  /** populate (by value, the default), populate-by-key or exact. */
  @Param({"populate", "populate-by-key", "exact"})
  public String solver;

  /** The cache in chunks: 5, 10, 20, 50 and 100 MB of 1 MB objects in 9 chunks. */
  @Param({"45", "90", "180", "450", "900"})
  public int capacity;

  /** The Zipf skew of the popularity. */
  @Param({"1.1"})
  public double skew;

  private List<CachingOption> options;
  private KnapsackSolver chosen;

  /** Builds the options and the solver. */
  @Setup
  public void setUp() {
    ZipfSampler zipf = new ZipfSampler(AgarSimConfig.PAPER_OBJECTS, skew);
    Map<String, Double> popularity = new LinkedHashMap<>();
    for (int i = 0; i < AgarSimConfig.PAPER_OBJECTS; i++) {
      popularity.put("obj-" + i, 150 * zipf.probability(i));
    }
    options = CachingOptions.forAll(popularity, AgarRegions.layout(1.0));
    switch (solver) {
      case "populate":
        chosen = new Populate();
        break;
      case "populate-by-key":
        chosen = new Populate().withOrder(Populate.OptionOrder.BY_KEY);
        break;
      case "exact":
        chosen = new ExactKnapsack();
        break;
      default:
        throw new IllegalArgumentException("solver must be populate, populate-by-key or exact but was '"
            + solver + "'");
    }
  }

  /** @return the configuration, so that the work is not optimised away */
  @Benchmark
  public CacheConfiguration solve() {
    return chosen.solve(options, capacity);
  }
}
