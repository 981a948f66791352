package io.eccache.policy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * SP-Cache's selective partition (SC'18 section V): object i is split into
 * {@code k_i = ceil(alpha * S_i * P_i)} partitions (Eq. 1), clamped to {@code [1, N]}, where S_i is its size
 * in bytes, {@code P_i = lambda_i / sum_j lambda_j} its normalised popularity (Eq. 3) and N the number of
 * servers. Nothing is replicated or encoded, so the allocation costs no extra memory.
 *
 * <p>The scale factor alpha comes from the paper's exponential search: start where the hottest object
 * (largest {@code S_i P_i}) gets {@code ceil(N / 3)} partitions, then multiply alpha by 1.5 while the
 * {@link ForkJoinLatencyBound} improves by at least 1%. The result is the last alpha whose step improved
 * that much; a step that gains less is not taken, because the model leaves out the connection overhead and
 * stragglers that grow with the partition count. The search also stops once every object has N partitions
 * or after {@value #MAX_ITERATIONS} evaluations. While the bound is infinite (some server saturated) every
 * step is taken, since spreading load is the only way out.
 *
 * <p>alpha is in partitions per byte: since P_i is a fraction, {@code 1 / alpha} is the expected number of
 * bytes per request that one partition serves. Only its ratio to the loads matters, because the search
 * starts from the hottest object.
 *
 * <p>Each alpha is scored on {@link Placement#random} with the same seed, objects numbered in key order.
 * That placement only adds servers to an object whose count rises and leaves the others in place, so
 * differences between alphas come from the partition counts rather than from a luckier draw, and equal
 * inputs give equal results whatever their list order. The bound still depends on where the random
 * placement puts the unsplit objects, so a step can fail to improve by 1% and end the search early.
 * Thread-safe: searches share no mutable state except {@link #lastSearch()}.
 */
public final class PartitionAllocator {
  /** The paper's growth factor for alpha per step. */
  static final double GROWTH = 1.5;
  /** The paper's stopping rule: continue only while a step improves the bound by at least this fraction. */
  static final double MIN_IMPROVEMENT = 0.01;
  /** A guard, not a tuning knob: 1.5^100 takes any realistic load spread to N partitions long before. */
  static final int MAX_ITERATIONS = 100;

  private final int servers;
  private final double bandwidthBytesPerSec;
  private final double totalRequestRatePerSec;
  private final long seed;
  private final ForkJoinLatencyBound model;
  private volatile Search lastSearch;

  /**
   * @param servers cache servers N, at least 1
   * @param serverBandwidthBytesPerSec bandwidth of each server, finite and > 0
   * @param totalRequestRatePerSec requests per second over all objects, finite and > 0; the latency model
   *     gives object i the rate {@code P_i} times this
   * @param seed seeds the random placements the search scores
   * @throws IllegalArgumentException if a parameter is out of range
   */
  public PartitionAllocator(int servers, double serverBandwidthBytesPerSec, double totalRequestRatePerSec,
      long seed) {
    if (servers < 1) {
      throw new IllegalArgumentException("servers must be >= 1 but was " + servers);
    }
    if (!(totalRequestRatePerSec > 0) || Double.isInfinite(totalRequestRatePerSec)) {
      throw new IllegalArgumentException("totalRequestRatePerSec must be finite and > 0 but was "
          + totalRequestRatePerSec);
    }
    if (!(serverBandwidthBytesPerSec > 0) || Double.isInfinite(serverBandwidthBytesPerSec)) {
      throw new IllegalArgumentException("serverBandwidthBytesPerSec must be finite and > 0 but was "
          + serverBandwidthBytesPerSec);
    }
    this.model = ForkJoinLatencyBound.uniform(servers, serverBandwidthBytesPerSec);
    this.servers = servers;
    this.bandwidthBytesPerSec = serverBandwidthBytesPerSec;
    this.totalRequestRatePerSec = totalRequestRatePerSec;
    this.seed = seed;
  }

  /**
   * Runs {@link #search} and returns its allocation: per key the partition count, with 0 extra bytes and a
   * budget of 0.
   *
   * @param objects the objects, with distinct keys
   * @throws IllegalArgumentException if two objects share a key
   */
  public Allocation allocate(List<ObjectDemand> objects) {
    return search(objects).allocation();
  }

  /**
   * Chooses alpha by exponential search and the partition counts that follow from it.
   *
   * <p>If every popularity is 0 the objects are taken as equally popular; if every {@code S_i P_i} is 0
   * each object gets one partition and alpha is reported as 0.
   *
   * @param objects the objects, with distinct keys
   * @return the chosen alpha, its bound, the number of alphas evaluated, the time taken and the allocation
   * @throws IllegalArgumentException if two objects share a key
   */
  public Search search(List<ObjectDemand> objects) {
    long started = System.nanoTime();
    Objects.requireNonNull(objects, "objects");
    // Key order numbers the objects for the placement, so the result does not depend on list order.
    List<ObjectDemand> byKey = new ArrayList<>(objects.size());
    for (int i = 0; i < objects.size(); i++) {
      byKey.add(Objects.requireNonNull(objects.get(i), "objects[" + i + "]"));
    }
    byKey.sort(Comparator.comparing(ObjectDemand::key));
    int count = byKey.size();
    String[] keys = new String[count];
    long[] sizes = new long[count];
    double[] popularity = new double[count];
    double totalPopularity = 0;
    for (int i = 0; i < count; i++) {
      ObjectDemand object = byKey.get(i);
      if (i > 0 && object.key().equals(keys[i - 1])) {
        throw new IllegalArgumentException("duplicate key '" + object.key() + "'");
      }
      keys[i] = object.key();
      sizes[i] = object.sizeBytes();
      popularity[i] = object.popularity();
      totalPopularity += popularity[i];
    }

    double[] rates = new double[count];
    double[] loads = new double[count];
    double maxLoad = 0;
    for (int i = 0; i < count; i++) {
      double share = totalPopularity > 0 ? popularity[i] / totalPopularity : 1.0 / count;
      rates[i] = share * totalRequestRatePerSec;
      loads[i] = sizes[i] * share;
      maxLoad = Math.max(maxLoad, loads[i]);
    }

    if (count == 0) {
      return finish(0, 0, 0, started, keys, new int[0]);
    }
    if (maxLoad == 0) {
      int[] single = partitionsFor(0, loads);
      return finish(0, score(sizes, rates, single), 1, started, keys, single);
    }

    int firstTarget = (servers + 2) / 3;
    double alpha = firstTarget / maxLoad;
    // Division may round up by an ulp, which would give the hottest object one partition too many.
    while (Math.ceil(alpha * maxLoad) > firstTarget) {
      alpha = Math.nextDown(alpha);
    }
    int[] partitions = partitionsFor(alpha, loads);
    double bound = score(sizes, rates, partitions);
    int iterations = 1;
    while (iterations < MAX_ITERATIONS && !everyObjectOnAllServers(partitions)) {
      double nextAlpha = alpha * GROWTH;
      int[] nextPartitions = partitionsFor(nextAlpha, loads);
      double nextBound = score(sizes, rates, nextPartitions);
      iterations++;
      boolean improved = Double.isInfinite(bound)
          || (nextBound < bound && nextBound <= bound * (1 - MIN_IMPROVEMENT));
      if (!improved) {
        break;
      }
      alpha = nextAlpha;
      partitions = nextPartitions;
      bound = nextBound;
    }
    return finish(alpha, bound, iterations, started, keys, partitions);
  }

  /** @return the most recent result of {@link #search} or {@link #allocate}, or null if there was none */
  public Search lastSearch() {
    return lastSearch;
  }

  /**
   * Equation 1 with the clamp: {@code min(N, max(1, ceil(alpha * sizeBytes * normalisedPopularity)))}.
   *
   * @param alpha the scale factor, in partitions per byte of expected load
   * @param sizeBytes the object's size
   * @param normalisedPopularity the object's share of requests, P_i
   * @param servers N
   * @return the partition count
   * @throws IllegalArgumentException if alpha or the size is negative, or the popularity is outside [0, 1]
   */
  public static int partitions(double alpha, long sizeBytes, double normalisedPopularity, int servers) {
    if (!(alpha >= 0)) {
      throw new IllegalArgumentException("alpha must be >= 0 but was " + alpha);
    }
    if (sizeBytes < 0) {
      throw new IllegalArgumentException("sizeBytes must be >= 0 but was " + sizeBytes);
    }
    if (!(normalisedPopularity >= 0 && normalisedPopularity <= 1)) {
      throw new IllegalArgumentException(
          "normalisedPopularity must be in [0, 1] but was " + normalisedPopularity);
    }
    if (servers < 1) {
      throw new IllegalArgumentException("servers must be >= 1 but was " + servers);
    }
    return clampedCeiling(alpha * (sizeBytes * normalisedPopularity), servers);
  }

  @Override
  public String toString() {
    return "PartitionAllocator{servers=" + servers + ", bandwidthBytesPerSec=" + bandwidthBytesPerSec
        + ", totalRequestRatePerSec=" + totalRequestRatePerSec + ", seed=" + seed + "}";
  }

  private int[] partitionsFor(double alpha, double[] loads) {
    int[] partitions = new int[loads.length];
    for (int i = 0; i < loads.length; i++) {
      partitions[i] = clampedCeiling(alpha * loads[i], servers);
    }
    return partitions;
  }

  private static int clampedCeiling(double scaledLoad, int servers) {
    // The comparison also sends +infinity to N; NaN cannot occur as inputs are finite and >= 0.
    if (!(scaledLoad < servers)) {
      return servers;
    }
    return Math.max(1, (int) Math.ceil(scaledLoad));
  }

  private boolean everyObjectOnAllServers(int[] partitions) {
    for (int k : partitions) {
      if (k < servers) {
        return false;
      }
    }
    return true;
  }

  private double score(long[] sizes, double[] rates, int[] partitions) {
    return model.evaluate(sizes, rates, Placement.random(servers, partitions, seed)).systemBound();
  }

  private Search finish(double alpha, double bound, int iterations, long started, String[] keys,
      int[] partitions) {
    Map<String, Integer> units = new LinkedHashMap<>();
    for (int i = 0; i < keys.length; i++) {
      units.put(keys[i], partitions[i]);
    }
    Search result = new Search(alpha, bound, iterations, System.nanoTime() - started,
        new Allocation(units, 0, 0));
    lastSearch = result;
    return result;
  }

  /** What one search found and what it cost. Immutable. */
  public static final class Search {
    private final double alpha;
    private final double boundSeconds;
    private final int iterations;
    private final long configurationNanos;
    private final Allocation allocation;

    private Search(double alpha, double boundSeconds, int iterations, long configurationNanos,
        Allocation allocation) {
      this.alpha = alpha;
      this.boundSeconds = boundSeconds;
      this.iterations = iterations;
      this.configurationNanos = configurationNanos;
      this.allocation = allocation;
    }

    /** @return the chosen scale factor, in partitions per byte of expected load */
    public double alpha() {
      return alpha;
    }

    /** @return the latency bound at that alpha, in seconds; +infinity if some server stays saturated */
    public double boundSeconds() {
      return boundSeconds;
    }

    /** @return how many alphas were scored, the rejected last one included */
    public int iterations() {
      return iterations;
    }

    /** @return wall-clock time the search took, in nanoseconds */
    public long configurationNanos() {
      return configurationNanos;
    }

    /** @return per key the partition count at the chosen alpha */
    public Allocation allocation() {
      return allocation;
    }

    @Override
    public String toString() {
      return "PartitionAllocator.Search{alpha=" + alpha + ", boundSeconds=" + boundSeconds + ", iterations="
          + iterations + ", configurationNanos=" + configurationNanos + "}";
    }
  }
}
