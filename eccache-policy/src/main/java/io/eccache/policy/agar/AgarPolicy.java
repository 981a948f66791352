package io.eccache.policy.agar;

import io.eccache.policy.PopularityTracker;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Agar's cache manager for one region: reads feed an EWMA popularity per period ({@link PopularityTracker},
 * {@code pop = alpha x freq + (1 - alpha) x pop_prev}); each {@link #tick} closes the period, generates the
 * {@link CachingOptions} of every known object and solves the knapsack for the cache's capacity in chunks.
 * Between ticks the configuration is fixed, as in the paper (a static configuration per period).
 *
 * <p>Thread-safe: reads record into the tracker; the configuration is an immutable value swapped at the end
 * of {@link #tick}, which is synchronized so two ticks never interleave.
 */
public final class AgarPolicy implements ChunkCachePolicy {
  /** The paper's EWMA weight of the newest period. */
  public static final double DEFAULT_ALPHA = 0.8;

  private final ChunkLayout layout;
  private final int capacityChunks;
  private final KnapsackSolver solver;
  private final PopularityTracker popularity;
  private volatile CacheConfiguration configuration = CacheConfiguration.empty();

  /**
   * Agar as the paper runs it: alpha 0.8, POPULATE.
   *
   * @param layout the chunk layout of every object
   * @param capacityChunks the cache size in chunks, at least 0
   */
  public AgarPolicy(ChunkLayout layout, int capacityChunks) {
    this(layout, capacityChunks, DEFAULT_ALPHA, new Populate());
  }

  /**
   * @param layout the chunk layout of every object
   * @param capacityChunks the cache size in chunks, at least 0
   * @param alpha the EWMA weight of the newest period, in (0, 1]
   * @param solver POPULATE or the exact solver
   * @throws IllegalArgumentException if the capacity is negative or alpha out of range
   */
  public AgarPolicy(ChunkLayout layout, int capacityChunks, double alpha, KnapsackSolver solver) {
    this.layout = Objects.requireNonNull(layout, "layout");
    this.capacityChunks = FixedChunkSlots.checkCapacity(capacityChunks);
    this.solver = Objects.requireNonNull(solver, "solver");
    this.popularity = new PopularityTracker(alpha);
  }

  /**
   * The allocation as a pure function, for a caller that tracks popularity itself.
   *
   * @param popularity per object key its popularity (finite, not negative)
   * @param layout the chunk layout of every object
   * @param capacityChunks the cache size in chunks, at least 0
   * @param solver the knapsack solver
   * @return which chunks of which objects to cache
   */
  public static CacheConfiguration allocate(Map<String, Double> popularity, ChunkLayout layout,
      int capacityChunks, KnapsackSolver solver) {
    return solver.solve(CachingOptions.forAll(popularity, layout), capacityChunks);
  }

  @Override
  public void recordRead(String key) {
    popularity.record(key);
  }

  @Override
  public List<Integer> cachedChunks(String key) {
    return configuration.chunks(key);
  }

  @Override
  public synchronized void tick() {
    popularity.roll();
    configuration = allocate(popularity.snapshot(), layout, capacityChunks, solver);
  }

  @Override
  public int capacityChunks() {
    return capacityChunks;
  }

  /** @return the configuration in force since the last {@link #tick} */
  public CacheConfiguration configuration() {
    return configuration;
  }

  /**
   * @param key an object key
   * @return its EWMA popularity as of the last {@link #tick}
   */
  public double popularity(String key) {
    return popularity.popularity(key);
  }

  @Override
  public String toString() {
    return "AgarPolicy{" + layout + ", capacity=" + capacityChunks + ", " + solver + "}";
  }
}
