package io.eccache.benchmarks.sim.agar;

import io.eccache.policy.agar.AgarRegions;
import io.eccache.policy.agar.ChunkLayout;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * One run of the Agar simulation (ICDCS'17, section V): equal-sized objects erasure coded over distant
 * regions ({@link ChunkLayout}), a Zipf workload from closed-loop clients in one region, and that
 * region's cache reconfigured every period. Immutable; {@code with...} methods return copies. The
 * defaults are the paper's setup: 300 objects of 1 MB, RS(9,3) over Table I from Frankfurt, a 10 MB cache
 * (90 chunks), Zipf 1.1, 2 clients, 1,000 measured reads, a 30 s period; plus ours: a 1 ms cache read,
 * 3 warm-up periods, no jitter, seed 1.
 */
public final class AgarSimConfig {
  /** The paper's object count. */
  public static final int PAPER_OBJECTS = 300;
  /** The paper's default cache: 10 MB of 1 MB objects, i.e. 10 whole objects of 9 chunks. */
  public static final int PAPER_CACHE_MB = 10;
  /** The paper's default Zipf skew. */
  public static final double PAPER_SKEW = 1.1;

  /**
   * Our cache read: 1 ms, an in-region memcached read of a 111 KB chunk; the paper gives none, and its
   * example counts the cache as free, which a closed loop cannot simulate (see the constructor).
   */
  public static final Duration DEFAULT_CACHE_LATENCY = Duration.ofMillis(1);

  private final ChunkLayout layout;
  private final int objects;
  private final double skew;
  private final int capacityChunks;
  private final int clients;
  private final int measuredRequests;
  private final int warmupPeriods;
  private final Duration period;
  private final double jitterSigma;
  private final long seed;
  private final boolean fillAtTick;

  private AgarSimConfig(ChunkLayout layout, int objects, double skew, int capacityChunks, int clients,
      int measuredRequests, int warmupPeriods, Duration period, double jitterSigma, long seed,
      boolean fillAtTick) {
    this.layout = Objects.requireNonNull(layout, "layout");
    // A closed loop of zero-time reads would never reach the next period: every read must take time.
    if (fastestRead(layout).isZero()) {
      throw new IllegalArgumentException("the cache's and every region's read latency must be > 0 in the"
          + " simulation (a closed loop of zero-time reads never reaches the next period), but "
          + layout + " has a zero one; give the cache e.g. 1 ms");
    }
    if (objects < 1) {
      throw new IllegalArgumentException("objects must be >= 1 but was " + objects);
    }
    if (!(skew >= 0) || Double.isInfinite(skew)) {
      throw new IllegalArgumentException("Zipf skew must be finite and >= 0 but was " + skew);
    }
    if (capacityChunks < 0) {
      throw new IllegalArgumentException("cache capacity must be >= 0 chunks but was " + capacityChunks);
    }
    if (clients < 1) {
      throw new IllegalArgumentException("clients must be >= 1 but was " + clients);
    }
    if (measuredRequests < 1) {
      throw new IllegalArgumentException("measured requests must be >= 1 but was " + measuredRequests);
    }
    if (warmupPeriods < 0) {
      throw new IllegalArgumentException("warm-up periods must be >= 0 but was " + warmupPeriods);
    }
    Objects.requireNonNull(period, "period");
    if (period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException("period must be positive but was " + period);
    }
    if (!(jitterSigma >= 0) || Double.isInfinite(jitterSigma)) {
      throw new IllegalArgumentException("jitter sigma must be finite and >= 0 but was " + jitterSigma);
    }
    this.objects = objects;
    this.skew = skew;
    this.capacityChunks = capacityChunks;
    this.clients = clients;
    this.measuredRequests = measuredRequests;
    this.warmupPeriods = warmupPeriods;
    this.period = period;
    this.jitterSigma = jitterSigma;
    this.seed = seed;
    this.fillAtTick = fillAtTick;
  }

  /** @return the paper's default setup (see the class comment) */
  public static AgarSimConfig paper() {
    ChunkLayout layout = tableOne(1.0, DEFAULT_CACHE_LATENCY);
    return new AgarSimConfig(layout, PAPER_OBJECTS, PAPER_SKEW, chunksForMegabytes(PAPER_CACHE_MB, layout),
        2, 1000, 3, Duration.ofSeconds(30), 0, 1, false);
  }

  /** @return the fastest single chunk read the layout allows: the cache's or the nearest region's */
  private static Duration fastestRead(ChunkLayout layout) {
    Duration fastest = layout.cacheLatency();
    for (io.eccache.policy.agar.Region r : layout.regions()) {
      fastest = r.readLatency().compareTo(fastest) < 0 ? r.readLatency() : fastest;
    }
    return fastest;
  }

  /**
   * Table I's layout (RS(9,3) round robin over the six regions, latencies from Frankfurt times
   * {@code scale}) with the given cache latency.
   *
   * @param scale the latency factor of {@link AgarRegions#fromFrankfurt(double)}
   * @param cacheLatency one chunk read from the region's own cache, greater than 0
   * @return the layout
   */
  public static ChunkLayout tableOne(double scale, Duration cacheLatency) {
    return new ChunkLayout(9, 3, AgarRegions.fromFrankfurt(scale), cacheLatency);
  }

  /**
   * A cache of {@code mb} megabytes in chunks of the paper's 1 MB objects: each chunk is 1/k MB.
   *
   * @param mb the cache size in MB, at least 0
   * @param layout the layout (its k)
   * @return mb x k
   */
  public static int chunksForMegabytes(int mb, ChunkLayout layout) {
    if (mb < 0) {
      throw new IllegalArgumentException("cache size must be >= 0 MB but was " + mb);
    }
    return Math.multiplyExact(mb, layout.k());
  }

  /** @return the chunk layout: k, m, the regions from the client's site and the cache's latency */
  public ChunkLayout layout() {
    return layout;
  }

  /** @return the number of objects, all the same size */
  public int objects() {
    return objects;
  }

  /** @return the Zipf skew of the requests over the objects (rank 0 most popular) */
  public double skew() {
    return skew;
  }

  /** @return the cache's capacity in chunks */
  public int capacityChunks() {
    return capacityChunks;
  }

  /** @return closed-loop clients: each issues its next read when the previous one completes */
  public int clients() {
    return clients;
  }

  /** @return reads measured, all clients together, after the warm-up */
  public int measuredRequests() {
    return measuredRequests;
  }

  /** @return periods of simulated time before measuring (reads in them only train the cache) */
  public int warmupPeriods() {
    return warmupPeriods;
  }

  /** @return the reconfiguration period, in simulated time */
  public Duration period() {
    return period;
  }

  /**
   * @return sigma of the multiplicative lognormal jitter on each chunk read (mean 1:
   *     {@code exp(sigma N(0,1) - sigma^2 / 2)}); 0 for Table I's fixed latencies
   */
  public double jitterSigma() {
    return jitterSigma;
  }

  /** @return the seed of the request sequences and the jitter */
  public long seed() {
    return seed;
  }

  /** @return a copy with this {@code layout} (checked as the constructor checks it) */
  public AgarSimConfig withLayout(ChunkLayout l) {
    return new AgarSimConfig(l, objects, skew, capacityChunks, clients, measuredRequests, warmupPeriods,
        period, jitterSigma, seed, fillAtTick);
  }

  /** @return a copy with this {@code objects} (checked as the constructor checks it) */
  public AgarSimConfig withObjects(int n) {
    return new AgarSimConfig(layout, n, skew, capacityChunks, clients, measuredRequests, warmupPeriods,
        period, jitterSigma, seed, fillAtTick);
  }

  /** @return a copy with this {@code skew} (checked as the constructor checks it) */
  public AgarSimConfig withSkew(double s) {
    return new AgarSimConfig(layout, objects, s, capacityChunks, clients, measuredRequests, warmupPeriods,
        period, jitterSigma, seed, fillAtTick);
  }

  /** @return a copy with this {@code capacityChunks} (checked as the constructor checks it) */
  public AgarSimConfig withCapacityChunks(int c) {
    return new AgarSimConfig(layout, objects, skew, c, clients, measuredRequests, warmupPeriods,
        period, jitterSigma, seed, fillAtTick);
  }

  /** @return a copy with this {@code clients} (checked as the constructor checks it) */
  public AgarSimConfig withClients(int n) {
    return new AgarSimConfig(layout, objects, skew, capacityChunks, n, measuredRequests, warmupPeriods,
        period, jitterSigma, seed, fillAtTick);
  }

  /** @return a copy with this {@code measuredRequests} (checked as the constructor checks it) */
  public AgarSimConfig withMeasuredRequests(int n) {
    return new AgarSimConfig(layout, objects, skew, capacityChunks, clients, n, warmupPeriods,
        period, jitterSigma, seed, fillAtTick);
  }

  /** @return a copy with this {@code warmupPeriods} (checked as the constructor checks it) */
  public AgarSimConfig withWarmupPeriods(int n) {
    return new AgarSimConfig(layout, objects, skew, capacityChunks, clients, measuredRequests, n,
        period, jitterSigma, seed, fillAtTick);
  }

  /** @return a copy with this {@code period} (checked as the constructor checks it) */
  public AgarSimConfig withPeriod(Duration p) {
    return new AgarSimConfig(layout, objects, skew, capacityChunks, clients, measuredRequests,
        warmupPeriods, p, jitterSigma, seed, fillAtTick);
  }

  /** @return a copy with this {@code jitterSigma} (checked as the constructor checks it) */
  public AgarSimConfig withJitterSigma(double sigma) {
    return new AgarSimConfig(layout, objects, skew, capacityChunks, clients, measuredRequests,
        warmupPeriods, period, sigma, seed, fillAtTick);
  }

  /** @return a copy with this {@code seed} (checked as the constructor checks it) */
  public AgarSimConfig withSeed(long s) {
    return new AgarSimConfig(layout, objects, skew, capacityChunks, clients, measuredRequests,
        warmupPeriods, period, jitterSigma, s, fillAtTick);
  }

  /**
   * @return true if a reconfiguration puts every newly configured chunk in the cache at once (an
   *     idealised prefetch); false (the default, the paper's) if a chunk is there only once a reader of
   *     its object has written it after a read
   */
  public boolean fillAtTick() {
    return fillAtTick;
  }

  /** @return a copy that fills the cache at each reconfiguration ({@code true}) or by readers */
  public AgarSimConfig withFillAtTick(boolean atTick) {
    return new AgarSimConfig(layout, objects, skew, capacityChunks, clients, measuredRequests,
        warmupPeriods, period, jitterSigma, seed, atTick);
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%d objects, RS(%d,%d), cache %d chunks, Zipf %.2f, %d clients,"
            + " %d measured reads after %d periods of %d s, jitter sigma %.2f, seed %d, filled %s", objects,
        layout.k(), layout.m(), capacityChunks, skew, clients, measuredRequests, warmupPeriods,
        period.toSeconds(), jitterSigma, seed, fillAtTick ? "at each reconfiguration" : "by readers");
  }
}
