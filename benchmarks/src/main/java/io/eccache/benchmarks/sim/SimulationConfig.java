package io.eccache.benchmarks.sim;

import io.eccache.benchmarks.ComparedScheme;
import io.eccache.policy.ZipfSampler;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Everything one simulation run needs: cluster, workload, schemes' parameters and disturbances.
 * Immutable; build with {@link #builder()} (the paper's defaults) or a preset, and derive variants with
 * {@link #toBuilder()}.
 *
 * <p>Defaults are EC-Cache's OSDI'16 setup (section 6.1): 25 servers with 10 Gbps links, 30 closed-loop
 * clients without think time, 40 MiB objects with Zipf(0.9) popularity, 15% memory overhead, k = 10,
 * Delta = 1, one base parity per object. The paper does not give the number of objects; the default is
 * 500 (20 per server, 20 GB, well inside the 200 GB of cache), which is what sets how skewed the per-server
 * load is. Sizes are binary (1 MB = 2^20 bytes) so 40 MB splits evenly into 10; bandwidths are decimal
 * (10 Gbps = 1.25e9 bytes/s). An EC read's extra splits are sent whole ({@link LateBinding#WHOLE}: the
 * paper's Δ/k, and what the client's links carry, since Alluxio's block stream sends ahead of a reader
 * that stops), and the allocation is planned from the counts of a learning pass
 * ({@link PopularityInput#LEARNED}), as the cluster benchmark's coordinator learns them.
 */
public final class SimulationConfig {
  /** 2^20 bytes. */
  public static final long MB = 1L << 20;
  /** 10 Gbps in bytes per second. */
  public static final double TEN_GBPS = 10e9 / 8;

  private final String name;
  private final int servers;
  private final double serverBandwidthBytesPerSec;
  private final int clients;
  private final int objects;
  private final long objectSizeBytes;
  private final double zipfExponent;
  private final double memoryOverhead;
  private final int k;
  private final int delta;
  private final int baseParities;
  private final double decodeThroughputBytesPerSec;
  private final double openLoopRatePerSec;
  private final double thinkTimeSeconds;
  private final int requests;
  private final int warmupRequests;
  private final long seed;
  private final double backgroundServerFraction;
  private final double backgroundFlowsPerServer;
  private final double backgroundSkew;
  private final double backgroundMeanOnSeconds;
  private final double backgroundMeanOffSeconds;
  private final double stragglerProbability;
  private final double stragglerSlowdown;
  private final StragglerMode stragglerMode;
  private final double stragglerEpochSeconds;
  private final SortedMap<Integer, Double> serverSlowdowns;
  private final SortedSet<Integer> deadServers;
  private final double fallbackLatencySeconds;
  private final double spRequestRatePerSec;
  private final double[] replayPopularity;
  private final int[] replaySequence;
  private final LateBinding lateBinding;
  private final long cancelSliceBytes;
  private final PopularityInput popularityInput;
  private final int learningRequests;
  private final Map<ComparedScheme, int[]> pinnedUnits;

  private SimulationConfig(Builder b) {
    this.name = b.name;
    this.servers = b.servers;
    this.serverBandwidthBytesPerSec = b.serverBandwidthBytesPerSec;
    this.clients = b.clients;
    this.objects = b.objects;
    this.objectSizeBytes = b.objectSizeBytes;
    this.zipfExponent = b.zipfExponent;
    this.memoryOverhead = b.memoryOverhead;
    this.k = b.k;
    this.delta = b.delta;
    this.baseParities = b.baseParities;
    this.decodeThroughputBytesPerSec = b.decodeThroughputBytesPerSec;
    this.openLoopRatePerSec = b.openLoopRatePerSec;
    this.thinkTimeSeconds = b.thinkTimeSeconds;
    this.requests = b.requests;
    this.warmupRequests = b.warmupRequests;
    this.seed = b.seed;
    this.backgroundServerFraction = b.backgroundServerFraction;
    this.backgroundFlowsPerServer = b.backgroundFlowsPerServer;
    this.backgroundSkew = b.backgroundSkew;
    this.backgroundMeanOnSeconds = b.backgroundMeanOnSeconds;
    this.backgroundMeanOffSeconds = b.backgroundMeanOffSeconds;
    this.stragglerProbability = b.stragglerProbability;
    this.stragglerSlowdown = b.stragglerSlowdown;
    this.stragglerMode = b.stragglerMode;
    this.stragglerEpochSeconds = b.stragglerEpochSeconds;
    this.serverSlowdowns = Collections.unmodifiableSortedMap(new TreeMap<>(b.serverSlowdowns));
    this.deadServers = Collections.unmodifiableSortedSet(new TreeSet<>(b.deadServers));
    this.fallbackLatencySeconds = b.fallbackLatencySeconds;
    this.spRequestRatePerSec = b.spRequestRatePerSec;
    this.replayPopularity = b.replayPopularity;
    this.replaySequence = b.replaySequence;
    this.lateBinding = b.lateBinding;
    this.cancelSliceBytes = b.cancelSliceBytes;
    this.popularityInput = b.popularityInput;
    this.learningRequests = b.learningRequests;
    Map<ComparedScheme, int[]> pinned = new EnumMap<>(ComparedScheme.class);
    b.pinnedUnits.forEach((scheme, units) -> pinned.put(scheme, units.clone()));
    this.pinnedUnits = Collections.unmodifiableMap(pinned);
  }

  /** @return a builder holding the paper's defaults (see the class comment) */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The paper's setup scaled to another cluster size, keeping the load per server: {@code 1.2 * servers}
   * clients and {@code 20 * servers} objects. The hottest object's popularity then falls only as about
   * {@code objects^-0.1} (Zipf 0.9's normalisation) while the cluster's throughput grows with its size,
   * so the hottest object asks ever more of the few servers holding it.
   *
   * @param servers cache servers, at least 11 (k + base parity)
   * @return the configuration, named {@code paper-<servers>}
   * @throws IllegalArgumentException if servers is below 11
   */
  public static SimulationConfig paper(int servers) {
    if (servers < 11) {
      throw new IllegalArgumentException("the paper preset needs servers >= k + 1 = 11 but was " + servers);
    }
    int clients = (int) Math.round(1.2 * servers);
    return builder().name("paper-" + servers).servers(servers).clients(clients).objects(20 * servers)
        .requests(Math.max(50_000, 100 * servers)).warmupRequests(Math.max(1_000, 5 * clients)).build();
  }

  /** @return a builder holding this configuration's values */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** @return a label for reports */
  public String name() {
    return name;
  }

  /** @return cache servers */
  public int servers() {
    return servers;
  }

  /** @return each server's outgoing bandwidth, bytes per second */
  public double serverBandwidthBytesPerSec() {
    return serverBandwidthBytesPerSec;
  }

  /** @return clients */
  public int clients() {
    return clients;
  }

  /** @return distinct objects */
  public int objects() {
    return objects;
  }

  /** @return each object's size in bytes */
  public long objectSizeBytes() {
    return objectSizeBytes;
  }

  /** @return the Zipf exponent of object popularity */
  public double zipfExponent() {
    return zipfExponent;
  }

  /** @return memory beyond one copy of everything, as a fraction of the object bytes, for EC and SR */
  public double memoryOverhead() {
    return memoryOverhead;
  }

  /** @return EC data splits per object */
  public int k() {
    return k;
  }

  /** @return EC additional reads beyond k */
  public int delta() {
    return delta;
  }

  /** @return parities every EC object gets before the budget is spent on popular ones */
  public int baseParities() {
    return baseParities;
  }

  /** @return EC decode throughput, bytes of object per second; +infinity for free decoding */
  public double decodeThroughputBytesPerSec() {
    return decodeThroughputBytesPerSec;
  }

  /** @return whether clients run a closed loop (next request when the previous completes) */
  public boolean closedLoop() {
    return openLoopRatePerSec == 0;
  }

  /** @return total Poisson arrival rate in open loop; 0 in closed loop */
  public double openLoopRatePerSec() {
    return openLoopRatePerSec;
  }

  /** @return closed-loop think time between a completion and the client's next request, seconds */
  public double thinkTimeSeconds() {
    return thinkTimeSeconds;
  }

  /** @return measured requests */
  public int requests() {
    return requests;
  }

  /** @return requests issued first and left out of the statistics */
  public int warmupRequests() {
    return warmupRequests;
  }

  /** @return the seed every random choice derives from */
  public long seed() {
    return seed;
  }

  /** @return fraction of servers carrying background flows */
  public double backgroundServerFraction() {
    return backgroundServerFraction;
  }

  /** @return background flows on the most loaded background server */
  public double backgroundFlowsPerServer() {
    return backgroundFlowsPerServer;
  }

  /** @return the i-th background server (from 0) carries {@code flows / (i + 1)^skew} flows */
  public double backgroundSkew() {
    return backgroundSkew;
  }

  /** @return mean on-period of a background server, seconds (exponential) */
  public double backgroundMeanOnSeconds() {
    return backgroundMeanOnSeconds;
  }

  /** @return mean off-period of a background server, seconds (exponential); 0 for always on */
  public double backgroundMeanOffSeconds() {
    return backgroundMeanOffSeconds;
  }

  /** @return probability that a transfer (or a server, per mode) straggles */
  public double stragglerProbability() {
    return stragglerProbability;
  }

  /** @return how many times slower a straggler is */
  public double stragglerSlowdown() {
    return stragglerSlowdown;
  }

  /** @return whether stragglers are drawn per transfer or per server */
  public StragglerMode stragglerMode() {
    return stragglerMode;
  }

  /** @return in per-node mode, how often stragglers are redrawn, seconds; 0 for once per run */
  public double stragglerEpochSeconds() {
    return stragglerEpochSeconds;
  }

  /** @return fixed slowdowns of chosen servers for the whole run, by server index; unmodifiable */
  public SortedMap<Integer, Double> serverSlowdowns() {
    return serverSlowdowns;
  }

  /** @return servers that are down for the whole run; unmodifiable */
  public SortedSet<Integer> deadServers() {
    return deadServers;
  }

  /** @return latency charged to a read that must go to the under store, seconds */
  public double fallbackLatencySeconds() {
    return fallbackLatencySeconds;
  }

  /** @return total request rate SP-Cache's allocator is given; 0 to measure it with pilot runs */
  public double spRequestRatePerSec() {
    return spRequestRatePerSec;
  }

  /** @return whether requests replay a given sequence instead of drawing from Zipf (see Builder#replay) */
  public boolean replays() {
    return replaySequence != null;
  }

  /** @return what happens to an EC read's extra splits once the k-th has arrived */
  public LateBinding lateBinding() {
    return lateBinding;
  }

  /** @return in {@link LateBinding#SLICE}, the bytes a split is read in between cancellation checks */
  public long cancelSliceBytes() {
    return cancelSliceBytes;
  }

  /** @return where the allocation's popularity comes from (a replay's counts override it) */
  public PopularityInput popularityInput() {
    return popularityInput;
  }

  /**
   * @return requests of the learning pass {@link PopularityInput#LEARNED} counts; by default warm-up plus
   *     measured requests
   */
  public int learningRequests() {
    return learningRequests > 0 ? learningRequests : warmupRequests + requests;
  }

  /**
   * @return per scheme, units by object rank given instead of planned (e.g. what a measured cluster run
   *     held); unmodifiable, arrays must not be changed
   */
  public Map<ComparedScheme, int[]> pinnedUnits() {
    return pinnedUnits;
  }

  /**
   * @return by object rank, the popularity the allocation is planned from: a replay's counts, else the
   *     counts of a learning pass of {@link #learningRequests()} Zipf draws (its own stream of the seed)
   *     or the Zipf probabilities, per {@link #popularityInput()}; a copy
   */
  public double[] allocatorPopularity() {
    if (replayPopularity != null) {
      return replayPopularity.clone();
    }
    ZipfSampler zipf = new ZipfSampler(objects, zipfExponent);
    double[] p = new double[objects];
    if (popularityInput == PopularityInput.LEARNED) {
      Random learning = new Random(Simulator.streamSeed(seed, Simulator.LEARNING_STREAM));
      for (int i = learningRequests(); i > 0; i--) {
        p[zipf.next(learning)]++;
      }
      return p;
    }
    for (int i = 0; i < objects; i++) {
      p[i] = zipf.probability(i);
    }
    return p;
  }

  /** @return when replaying, the object of every request in issue order (warm-up first); a copy */
  public int[] replaySequence() {
    if (replaySequence == null) {
      throw new IllegalStateException(name + " does not replay a sequence");
    }
    return replaySequence.clone();
  }

  @Override
  public String toString() {
    return "SimulationConfig{name=" + name + ", servers=" + servers + ", serverBandwidthBytesPerSec="
        + serverBandwidthBytesPerSec + ", clients=" + clients + ", objects=" + objects
        + ", objectSizeBytes=" + objectSizeBytes
        + ", zipfExponent=" + zipfExponent + ", memoryOverhead=" + memoryOverhead + ", k=" + k + ", delta="
        + delta + ", baseParities=" + baseParities + ", decodeThroughputBytesPerSec="
        + decodeThroughputBytesPerSec + ", openLoopRatePerSec=" + openLoopRatePerSec + ", thinkTimeSeconds="
        + thinkTimeSeconds + ", requests=" + requests + ", warmupRequests=" + warmupRequests + ", seed="
        + seed + ", backgroundServerFraction=" + backgroundServerFraction + ", backgroundFlowsPerServer="
        + backgroundFlowsPerServer + ", backgroundSkew=" + backgroundSkew + ", backgroundMeanOnSeconds="
        + backgroundMeanOnSeconds + ", backgroundMeanOffSeconds=" + backgroundMeanOffSeconds
        + ", stragglerProbability=" + stragglerProbability + ", stragglerSlowdown=" + stragglerSlowdown
        + ", stragglerMode=" + stragglerMode + ", stragglerEpochSeconds=" + stragglerEpochSeconds
        + ", serverSlowdowns=" + serverSlowdowns + ", deadServers=" + deadServers
        + ", fallbackLatencySeconds=" + fallbackLatencySeconds + ", spRequestRatePerSec="
        + spRequestRatePerSec + ", lateBinding=" + lateBinding + ", cancelSliceBytes=" + cancelSliceBytes
        + ", popularityInput=" + popularityInput + ", learningRequests=" + learningRequests()
        + ", pinnedUnits=" + pinnedUnits.keySet() + "}";
  }

  /** Collects a configuration's values, each checked as it is set; {@link #build()} checks the rest. */
  public static final class Builder {
    private String name = "custom";
    private int servers = 25;
    private double serverBandwidthBytesPerSec = TEN_GBPS;
    private int clients = 30;
    private int objects = 500;
    private long objectSizeBytes = 40 * MB;
    private double zipfExponent = 0.9;
    private double memoryOverhead = 0.15;
    private int k = 10;
    private int delta = 1;
    private int baseParities = 1;
    private double decodeThroughputBytesPerSec = 8e9;
    private double openLoopRatePerSec = 0;
    private double thinkTimeSeconds = 0;
    private int requests = 50_000;
    private int warmupRequests = 1_000;
    private long seed = 42;
    private double backgroundServerFraction = 0;
    private double backgroundFlowsPerServer = 1;
    private double backgroundSkew = 0;
    private double backgroundMeanOnSeconds = 1;
    private double backgroundMeanOffSeconds = 0;
    private double stragglerProbability = 0;
    private double stragglerSlowdown = 5;
    private StragglerMode stragglerMode = StragglerMode.PER_TRANSFER;
    private double stragglerEpochSeconds = 0;
    private final TreeMap<Integer, Double> serverSlowdowns = new TreeMap<>();
    private final TreeSet<Integer> deadServers = new TreeSet<>();
    private double fallbackLatencySeconds = 1.0;
    private double spRequestRatePerSec = 0;
    private double[] replayPopularity;
    private int[] replaySequence;
    private LateBinding lateBinding = LateBinding.WHOLE;
    private long cancelSliceBytes = MB;
    private PopularityInput popularityInput = PopularityInput.LEARNED;
    private int learningRequests;
    private final Map<ComparedScheme, int[]> pinnedUnits = new EnumMap<>(ComparedScheme.class);

    private Builder() {}

    private Builder(SimulationConfig c) {
      name = c.name;
      servers = c.servers;
      serverBandwidthBytesPerSec = c.serverBandwidthBytesPerSec;
      clients = c.clients;
      objects = c.objects;
      objectSizeBytes = c.objectSizeBytes;
      zipfExponent = c.zipfExponent;
      memoryOverhead = c.memoryOverhead;
      k = c.k;
      delta = c.delta;
      baseParities = c.baseParities;
      decodeThroughputBytesPerSec = c.decodeThroughputBytesPerSec;
      openLoopRatePerSec = c.openLoopRatePerSec;
      thinkTimeSeconds = c.thinkTimeSeconds;
      requests = c.requests;
      warmupRequests = c.warmupRequests;
      seed = c.seed;
      backgroundServerFraction = c.backgroundServerFraction;
      backgroundFlowsPerServer = c.backgroundFlowsPerServer;
      backgroundSkew = c.backgroundSkew;
      backgroundMeanOnSeconds = c.backgroundMeanOnSeconds;
      backgroundMeanOffSeconds = c.backgroundMeanOffSeconds;
      stragglerProbability = c.stragglerProbability;
      stragglerSlowdown = c.stragglerSlowdown;
      stragglerMode = c.stragglerMode;
      stragglerEpochSeconds = c.stragglerEpochSeconds;
      serverSlowdowns.putAll(c.serverSlowdowns);
      deadServers.addAll(c.deadServers);
      fallbackLatencySeconds = c.fallbackLatencySeconds;
      spRequestRatePerSec = c.spRequestRatePerSec;
      replayPopularity = c.replayPopularity;
      replaySequence = c.replaySequence;
      lateBinding = c.lateBinding;
      cancelSliceBytes = c.cancelSliceBytes;
      popularityInput = c.popularityInput;
      learningRequests = c.learningRequests;
      pinnedUnits.putAll(c.pinnedUnits);
    }

    /**
     * @param value a label for reports, not blank
     * @return this builder
     */
    public Builder name(String value) {
      Objects.requireNonNull(value, "name");
      if (value.trim().isEmpty()) {
        throw new IllegalArgumentException("name must not be blank but was '" + value + "'");
      }
      name = value;
      return this;
    }

    /**
     * @param value cache servers, at least 1
     * @return this builder
     */
    public Builder servers(int value) {
      servers = atLeast("servers", value, 1);
      return this;
    }

    /**
     * @param value each server's outgoing bandwidth in bytes per second, finite and > 0
     * @return this builder
     */
    public Builder serverBandwidthBytesPerSec(double value) {
      serverBandwidthBytesPerSec = positiveFinite("serverBandwidthBytesPerSec", value);
      return this;
    }

    /**
     * @param value clients, at least 1
     * @return this builder
     */
    public Builder clients(int value) {
      clients = atLeast("clients", value, 1);
      return this;
    }

    /**
     * @param value distinct objects, at least 1
     * @return this builder
     */
    public Builder objects(int value) {
      objects = atLeast("objects", value, 1);
      return this;
    }

    /**
     * @param value each object's size in bytes, at least 1
     * @return this builder
     */
    public Builder objectSizeBytes(long value) {
      if (value < 1) {
        throw new IllegalArgumentException("objectSizeBytes must be >= 1 but was " + value);
      }
      objectSizeBytes = value;
      return this;
    }

    /**
     * @param value Zipf exponent s, finite and >= 0 (0 is uniform popularity)
     * @return this builder
     */
    public Builder zipfExponent(double value) {
      zipfExponent = nonNegativeFinite("zipfExponent", value);
      return this;
    }

    /**
     * @param value memory beyond one copy of everything, as a fraction, finite and >= 0
     * @return this builder
     */
    public Builder memoryOverhead(double value) {
      memoryOverhead = nonNegativeFinite("memoryOverhead", value);
      return this;
    }

    /**
     * @param value EC data splits, at least 1
     * @return this builder
     */
    public Builder k(int value) {
      k = atLeast("k", value, 1);
      return this;
    }

    /**
     * @param value EC additional reads, at least 0
     * @return this builder
     */
    public Builder delta(int value) {
      delta = atLeast("delta", value, 0);
      return this;
    }

    /**
     * @param value parities every EC object gets, at least 0
     * @return this builder
     */
    public Builder baseParities(int value) {
      baseParities = atLeast("baseParities", value, 0);
      return this;
    }

    /**
     * @param value decode throughput in bytes of object per second, > 0; +infinity for free decoding
     * @return this builder
     */
    public Builder decodeThroughputBytesPerSec(double value) {
      if (!(value > 0)) {
        throw new IllegalArgumentException("decodeThroughputBytesPerSec must be > 0 or +infinity but was "
            + value);
      }
      decodeThroughputBytesPerSec = value;
      return this;
    }

    /**
     * Closed loop: each client issues its next request when the previous completes (the default).
     *
     * @param thinkSeconds pause between a completion and the next request, finite and >= 0
     * @return this builder
     */
    public Builder closedLoop(double thinkSeconds) {
      thinkTimeSeconds = nonNegativeFinite("thinkSeconds", thinkSeconds);
      openLoopRatePerSec = 0;
      return this;
    }

    /**
     * Open loop: Poisson arrivals, each from a client chosen uniformly.
     *
     * @param ratePerSec total arrival rate, finite and > 0
     * @return this builder
     */
    public Builder openLoop(double ratePerSec) {
      openLoopRatePerSec = positiveFinite("ratePerSec", ratePerSec);
      return this;
    }

    /**
     * @param value measured requests, at least 1
     * @return this builder
     */
    public Builder requests(int value) {
      requests = atLeast("requests", value, 1);
      return this;
    }

    /**
     * @param value requests issued first and left out of the statistics, at least 0
     * @return this builder
     */
    public Builder warmupRequests(int value) {
      warmupRequests = atLeast("warmupRequests", value, 0);
      return this;
    }

    /**
     * @param value the seed every random choice derives from
     * @return this builder
     */
    public Builder seed(long value) {
      seed = value;
      return this;
    }

    /**
     * Background load (paper section 6.3): {@code round(fraction * servers)} servers chosen at random carry
     * background flows that share their link as processor-sharing flows; the i-th of them (from 0) carries
     * {@code flows / (i + 1)^skew}.
     *
     * @param fraction of servers, in [0, 1]
     * @param flows background flows on the first chosen server, finite and >= 0
     * @param skew finite and >= 0; 0 gives every chosen server the same load
     * @return this builder
     */
    public Builder background(double fraction, double flows, double skew) {
      if (!(fraction >= 0 && fraction <= 1)) {
        throw new IllegalArgumentException("background fraction must be in [0, 1] but was " + fraction);
      }
      backgroundServerFraction = fraction;
      backgroundFlowsPerServer = nonNegativeFinite("background flows", flows);
      backgroundSkew = nonNegativeFinite("background skew", skew);
      return this;
    }

    /**
     * Makes background flows come and go: each background server alternates exponentially distributed
     * on and off periods. An off mean of 0 (the default) keeps them always on.
     *
     * @param meanOnSeconds finite and > 0
     * @param meanOffSeconds finite and >= 0
     * @return this builder
     */
    public Builder backgroundPeriods(double meanOnSeconds, double meanOffSeconds) {
      backgroundMeanOnSeconds = positiveFinite("meanOnSeconds", meanOnSeconds);
      backgroundMeanOffSeconds = nonNegativeFinite("meanOffSeconds", meanOffSeconds);
      return this;
    }

    /**
     * Random stragglers.
     *
     * @param probability that a transfer (or server, per mode) straggles, in [0, 1]
     * @param slowdown how many times slower a straggler is, finite and >= 1
     * @param mode per transfer or per server
     * @return this builder
     */
    public Builder stragglers(double probability, double slowdown, StragglerMode mode) {
      if (!(probability >= 0 && probability <= 1)) {
        throw new IllegalArgumentException("straggler probability must be in [0, 1] but was " + probability);
      }
      if (!(slowdown >= 1) || Double.isInfinite(slowdown)) {
        throw new IllegalArgumentException("straggler slowdown must be finite and >= 1 but was " + slowdown);
      }
      stragglerProbability = probability;
      stragglerSlowdown = slowdown;
      stragglerMode = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /**
     * @param value in per-node mode, seconds between redraws of which servers straggle, finite and >= 0;
     *     0 draws once per run
     * @return this builder
     */
    public Builder stragglerEpochSeconds(double value) {
      stragglerEpochSeconds = nonNegativeFinite("stragglerEpochSeconds", value);
      return this;
    }

    /**
     * Slows one server for the whole run: a deterministic straggler.
     *
     * @param server the server's index, at least 0 (checked against servers by {@link #build()})
     * @param slowdown finite and >= 1; 1 removes an earlier setting
     * @return this builder
     */
    public Builder serverSlowdown(int server, double slowdown) {
      atLeast("server", server, 0);
      if (!(slowdown >= 1) || Double.isInfinite(slowdown)) {
        throw new IllegalArgumentException("server slowdown must be finite and >= 1 but was " + slowdown);
      }
      if (slowdown == 1) {
        serverSlowdowns.remove(server);
      } else {
        serverSlowdowns.put(server, slowdown);
      }
      return this;
    }

    /**
     * Marks a server dead for the whole run: its splits and copies cannot be read.
     *
     * @param server the server's index, at least 0 (checked against servers by {@link #build()})
     * @return this builder
     */
    public Builder deadServer(int server) {
      deadServers.add(atLeast("server", server, 0));
      return this;
    }

    /**
     * @param value latency charged to a read that must go to the under store, finite and >= 0 seconds
     * @return this builder
     */
    public Builder fallbackLatencySeconds(double value) {
      fallbackLatencySeconds = nonNegativeFinite("fallbackLatencySeconds", value);
      return this;
    }

    /**
     * @param value total request rate SP-Cache's allocator is given, finite and >= 0; 0 (the default)
     *     uses the open-loop rate or, in closed loop, measures SP's own throughput in pilot runs
     * @return this builder
     */
    public Builder spRequestRatePerSec(double value) {
      spRequestRatePerSec = nonNegativeFinite("spRequestRatePerSec", value);
      return this;
    }

    /**
     * Replays a recorded workload, as the cluster benchmark runs it: the allocators get the popularity
     * the coordinator learned, and requests ask for the given objects in order (closed loop: each client
     * takes the next one). Sets {@code objects} to the popularity's length, warm-up to 0 and
     * {@code requests} to the sequence's length.
     *
     * @param popularity by object rank, non-negative and finite (e.g. access counts)
     * @param sequence objects in request order, each in [0, popularity.length), not empty
     * @return this builder
     */
    public Builder replay(double[] popularity, int[] sequence) {
      if (popularity.length == 0 || sequence.length == 0) {
        throw new IllegalArgumentException("replay needs objects and requests but got "
            + popularity.length + " and " + sequence.length);
      }
      for (double p : popularity) {
        nonNegativeFinite("replayed popularity", p);
      }
      for (int object : sequence) {
        if (object < 0 || object >= popularity.length) {
          throw new IllegalArgumentException("replayed object " + object + " is not in [0, "
              + popularity.length + ")");
        }
      }
      replayPopularity = popularity.clone();
      replaySequence = sequence.clone();
      objects = popularity.length;
      warmupRequests = 0;
      requests = sequence.length;
      return this;
    }

    /**
     * @param value what happens to an EC read's extra splits once the k-th has arrived
     * @return this builder
     */
    public Builder lateBinding(LateBinding value) {
      lateBinding = Objects.requireNonNull(value, "lateBinding");
      return this;
    }

    /**
     * @param value bytes per slice between cancellation checks ({@link LateBinding#SLICE}), at least 1;
     *     the client's is 1 MiB
     * @return this builder
     */
    public Builder cancelSliceBytes(long value) {
      if (value < 1) {
        throw new IllegalArgumentException("cancelSliceBytes must be >= 1 but was " + value);
      }
      cancelSliceBytes = value;
      return this;
    }

    /**
     * @param value where the allocation's popularity comes from
     * @return this builder
     */
    public Builder popularityInput(PopularityInput value) {
      popularityInput = Objects.requireNonNull(value, "popularityInput");
      return this;
    }

    /**
     * @param value requests of the learning pass, at least 0; 0 (the default) for warm-up plus measured
     * @return this builder
     */
    public Builder learningRequests(int value) {
      learningRequests = atLeast("learningRequests", value, 0);
      return this;
    }

    /**
     * Gives a scheme's units instead of planning them: parities for EC, copies for SR, partitions for SP.
     *
     * @param scheme the scheme
     * @param unitsByRank per object rank, at least 1 (at least 0 for EC); length checked by
     *     {@link #build()}
     * @return this builder
     */
    public Builder pinnedUnits(ComparedScheme scheme, int[] unitsByRank) {
      Objects.requireNonNull(scheme, "scheme");
      int min = scheme == ComparedScheme.EC ? 0 : 1;
      for (int u : unitsByRank) {
        atLeast(scheme + " pinned units", u, min);
      }
      pinnedUnits.put(scheme, unitsByRank.clone());
      return this;
    }

    /**
     * @return the configuration
     * @throws IllegalArgumentException if a slowed or dead server index is not below servers
     */
    public SimulationConfig build() {
      for (Map.Entry<Integer, Double> entry : serverSlowdowns.entrySet()) {
        if (entry.getKey() >= servers) {
          throw new IllegalArgumentException("slowed server " + entry.getKey() + " is not below servers = "
              + servers);
        }
      }
      if (replaySequence != null && (requests + warmupRequests != replaySequence.length
          || objects != replayPopularity.length)) {
        throw new IllegalArgumentException("a replay fixes objects = " + replayPopularity.length
            + " and warm-up + requests = " + replaySequence.length + "; do not change them after replay()");
      }
      for (Map.Entry<ComparedScheme, int[]> pinned : pinnedUnits.entrySet()) {
        if (pinned.getValue().length != objects) {
          throw new IllegalArgumentException(pinned.getKey() + " has pinned units for "
              + pinned.getValue().length + " objects but objects = " + objects);
        }
      }
      for (int dead : deadServers) {
        if (dead >= servers) {
          throw new IllegalArgumentException("dead server " + dead + " is not below servers = " + servers);
        }
      }
      return new SimulationConfig(this);
    }

    private static int atLeast(String what, int value, int min) {
      if (value < min) {
        throw new IllegalArgumentException(what + " must be >= " + min + " but was " + value);
      }
      return value;
    }

    private static double positiveFinite(String what, double value) {
      if (!(value > 0) || Double.isInfinite(value)) {
        throw new IllegalArgumentException(what + " must be finite and > 0 but was " + value);
      }
      return value;
    }

    private static double nonNegativeFinite(String what, double value) {
      if (!(value >= 0) || Double.isInfinite(value)) {
        throw new IllegalArgumentException(what + " must be finite and >= 0 but was " + value);
      }
      return value;
    }
  }
}
