package io.eccache.benchmarks.sim;

import io.eccache.benchmarks.ComparedScheme;
import io.eccache.policy.RedundancyPlanner;
import io.eccache.policy.SplitPlacement;
import io.eccache.policy.ZipfSampler;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Random;
import org.HdrHistogram.Histogram;

/**
 * A discrete-event simulator of EC-Cache and its rivals, driven by the coordinator's own placement
 * ({@link SplitPlacement#chooseDistinct}) and planner ({@link RedundancyPlanner}, through
 * {@link PlannedAllocation}), so that what it predicts is what the real code would decide.
 *
 * <h2>Model</h2>
 * <ul>
 *   <li><b>Objects.</b> M objects of equal size S. The planner is given a learning pass's counts, the Zipf
 *       probabilities ({@link PopularityInput}) or a replay's learned counts, or a scheme's units are
 *       pinned; the allocation does not change during a run (as the cluster benchmark pins it).</li>
 *   <li><b>Schemes.</b> {@link ComparedScheme#EC}: k data and r_i parity splits of {@code ceil(S / k)} bytes, r_i
 *       planned with base {@code baseParities}. A read picks {@code min(k + Delta, live)} live splits
 *       uniformly and completes when the k-th arrives; the others go on per {@link LateBinding}: read
 *       whole (the paper's model and the default: extra bytes Δ/k), to the end of their slice, or
 *       cancelled at once. Their bytes count as load and as {@link SimulationResult#extraBytes()}. If a
 *       parity is among the first k the client decodes, taking {@code S / decodeThroughput}.
 *       {@link ComparedScheme#SR}: c_i whole copies from {@code ReplicaAllocator(1, overhead, servers)}; a read picks
 *       one live copy. {@link ComparedScheme#SP}: k_i partitions from {@code PartitionAllocator}; a read fetches all
 *       of them. {@link ComparedScheme#SINGLE}: one copy. Every object's pieces go to distinct servers
 *       ({@code chooseDistinct}), hottest object first, from one seeded stream.</li>
 *   <li><b>Network.</b> Each server's outgoing link is a processor-sharing resource
 *       ({@link ProcessorSharingNetwork}); no per-connection cost, no latency, no CPU limit.</li>
 *   <li><b>Arrivals.</b> Closed loop (default): each client issues a request at time 0 and the next a think
 *       time after each completion. Open loop: Poisson arrivals at a total rate, each from a uniformly
 *       chosen client. Objects are drawn from Zipf by one seeded stream in issue order (or taken from a
 *       replay), so every scheme sees the same sequence. Each scheme's placement has a stream of its own,
 *       so it is the same alone and interleaved. The first {@code warmupRequests} are not measured;
 *       requests issued after the measured ones keep the load up until those are done.</li>
 *   <li><b>Several schemes</b> ({@link #simulate}): {@link SimMode#ALONE}, each on a network of its own
 *       with its own clients; or {@link SimMode#INTERLEAVED}, as the cluster benchmark's interleaved mode,
 *       each request reading its object from every scheme, one after the other in a random order, over
 *       one network.</li>
 *   <li><b>Background load</b> (paper 6.3): {@code round(fraction * servers)} servers carry
 *       {@code flows / (i + 1)^skew} extra processor-sharing flows, always on or in exponential on/off
 *       periods. Their bytes are not counted as load.</li>
 *   <li><b>Stragglers.</b> Per transfer: w.p. p a transfer progresses f times slower than its share.
 *       Per node: w.p. p a server slows all its transfers by f, drawn at the start and every epoch if
 *       one is set.</li>
 *   <li><b>Failures.</b> Dead servers hold pieces that cannot be read. A read with fewer than k live
 *       splits, no live copy, or (SP, SINGLE) any lost piece goes to the under store: no cache traffic and
 *       a fixed penalty latency, counted in {@link SimulationResult#fallbackCount()}.</li>
 *   <li><b>SP-Cache's rate.</b> Its allocator needs the total request rate: the open-loop rate, a configured
 *       one, or, in closed loop, measured as the coordinator would: an allocation at a capacity estimate, a
 *       pilot run, a re-allocation at the measured throughput, twice.</li>
 * </ul>
 *
 * <p>Latency is from issue to completion. Everything random derives from the configured seed, so equal
 * configurations give equal results. Thread-safe: each run has its own state.
 */
public final class Simulator {
  private static final long WORKLOAD_STREAM = 2;
  private static final long READ_STREAM = 3;
  private static final long STRAGGLER_STREAM = 4;
  private static final long BACKGROUND_STREAM = 5;
  /** The learning pass of {@link PopularityInput#LEARNED}. */
  static final long LEARNING_STREAM = 6;
  /** Scheme s is placed from stream {@code PLACEMENT_STREAM_BASE + s.ordinal()}. */
  private static final long PLACEMENT_STREAM_BASE = 16;
  /**
   * Open-loop requests in flight beyond which the arrivals outpace the cluster: the queue would grow
   * until the heap runs out, so the run stops with an error instead.
   */
  private static final long MAX_OPEN_LOOP_IN_FLIGHT = 100_000;
  /** Remaining bytes below this are rounding error, not a slice left to read. */
  private static final double EPSILON_BYTES = 1e-3;

  /** SP pilot passes: the second corrects the first estimate's effect on the measured rate. */
  private static final int SP_PILOT_PASSES = 2;

  private Simulator() {}

  /**
   * Simulates one scheme under one configuration.
   *
   * @param config the configuration
   * @param scheme the scheme
   * @return latencies, per-server bytes, memory and counters of the measured requests
   * @throws IllegalArgumentException if the scheme cannot be set up, e.g. EC with fewer servers than
   *     {@code k + baseParities}
   */
  public static SimulationResult run(SimulationConfig config, ComparedScheme scheme) {
    return runInterleaved(config, List.of(scheme)).get(scheme);
  }

  /**
   * Simulates several schemes on the same placements and request sequence.
   *
   * @param config the configuration
   * @param schemes distinct schemes, at least one
   * @param mode each scheme alone, or interleaved over one cluster
   * @return each scheme's result, in the given order
   * @throws IllegalArgumentException if a scheme repeats or cannot be set up
   */
  public static Map<ComparedScheme, SimulationResult> simulate(SimulationConfig config,
      List<ComparedScheme> schemes, SimMode mode) {
    Objects.requireNonNull(mode, "mode");
    if (mode == SimMode.INTERLEAVED) {
      return runInterleaved(config, schemes);
    }
    if (schemes.isEmpty() || schemes.stream().distinct().count() != schemes.size()) {
      throw new IllegalArgumentException("schemes must be distinct and not empty but were " + schemes);
    }
    Map<ComparedScheme, SimulationResult> results = new LinkedHashMap<>();
    for (ComparedScheme scheme : schemes) {
      results.put(scheme, run(config, scheme));
    }
    return results;
  }

  /**
   * Simulates several schemes sharing one cluster, as the cluster benchmark's interleaved mode: each request
   * reads its object from every scheme in turn, in an order drawn per request.
   *
   * @param config the configuration
   * @param schemes distinct schemes, at least one
   * @return each scheme's result, in the given order
   * @throws IllegalArgumentException if a scheme repeats or cannot be set up
   */
  public static Map<ComparedScheme, SimulationResult> runInterleaved(SimulationConfig config, List<ComparedScheme> schemes) {
    long started = System.nanoTime();
    Objects.requireNonNull(config, "config");
    if (schemes.isEmpty() || schemes.stream().distinct().count() != schemes.size()) {
      throw new IllegalArgumentException("schemes must be distinct and not empty but were " + schemes);
    }
    double[] popularity = config.allocatorPopularity();
    int[][] units = new int[schemes.size()][];
    int sp = schemes.indexOf(ComparedScheme.SP);
    for (int i = 0; i < schemes.size(); i++) {
      if (i != sp) {
        units[i] = units(config, schemes.get(i), popularity, Double.NaN);
      }
    }
    double spRate = Double.NaN;
    if (sp >= 0) {
      spRate = config.pinnedUnits().containsKey(ComparedScheme.SP) ? Double.NaN
          : config.spRequestRatePerSec() > 0 ? config.spRequestRatePerSec()
          : !config.closedLoop() ? config.openLoopRatePerSec()
          : pilotRate(config, schemes, units, popularity);
      units[sp] = units(config, ComparedScheme.SP, popularity, spRate);
    }
    Run run = new Run(config, schemes, units);
    run.execute();
    Map<ComparedScheme, SimulationResult> results = new EnumMap<>(ComparedScheme.class);
    for (int i = 0; i < schemes.size(); i++) {
      results.put(schemes.get(i), run.result(i, schemes.get(i) == ComparedScheme.SP ? spRate : Double.NaN,
          System.nanoTime() - started));
    }
    return results;
  }

  /** A scheme's units: pinned by the configuration, or planned as the coordinator would. */
  private static int[] units(SimulationConfig config, ComparedScheme scheme, double[] popularity,
      double spRate) {
    int[] pinned = config.pinnedUnits().get(scheme);
    return pinned != null ? pinned.clone() : PlannedAllocation.units(config, scheme, popularity, spRate);
  }

  /**
   * The throughput SP-Cache reaches, as its coordinator would measure it: starts at what the clients could
   * ask of an idle cluster, capped by the cluster's bandwidth, then re-measures with pilot runs.
   */
  private static double pilotRate(SimulationConfig config, List<ComparedScheme> schemes, int[][] units,
      double[] popularity) {
    double size = config.objectSizeBytes();
    double perClient = 1 / (size / config.serverBandwidthBytesPerSec() + config.thinkTimeSeconds());
    double capacity = config.servers() * config.serverBandwidthBytesPerSec() / size;
    double rate = Math.min(config.clients() * perClient, capacity) / schemes.size();
    SimulationConfig pilot = config.replays() ? config : config.toBuilder()
        .requests(Math.min(config.requests(), Math.max(2_000, 20 * config.clients()))).build();
    int sp = schemes.indexOf(ComparedScheme.SP);
    for (int pass = 0; pass < SP_PILOT_PASSES; pass++) {
      int[][] trial = units.clone();
      trial[sp] = PlannedAllocation.units(config, ComparedScheme.SP, popularity, rate);
      Run run = new Run(pilot, schemes, trial);
      run.execute();
      double measured = run.completedMeasured / run.measuredSeconds();
      if (measured > 0 && !Double.isInfinite(measured)) {
        rate = measured;
      }
    }
    return rate;
  }

  /** A seed for one independent random stream, so adding draws to one stream leaves the others alone. */
  static long streamSeed(long seed, long stream) {
    long z = seed + stream * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  private static double exponential(Random random, double mean) {
    return -mean * Math.log(1 - random.nextDouble());
  }

  /** Where one scheme keeps every object, and what its measured reads did. */
  private static final class Layout {
    final ComparedScheme scheme;
    final int[] units;
    final int[][] pieceServers;
    final List<List<Integer>> livePieces;
    final long[] pieceBytes;
    long storedBytes;
    final Histogram histogram = new Histogram(3);
    final double[] bytesPerServer;
    long usefulBytes;
    long completed;
    long decodeCount;
    long fallbackCount;
    /** Bytes sent by reads beyond those a read needed (EC's Δ), as far as they went. */
    double extraBytes;
    /** Bytes of those reads that late binding saved by stopping them early. */
    double savedBytes;

    Layout(SimulationConfig config, ComparedScheme scheme, int[] units, Random placement, boolean[] dead) {
      this.scheme = scheme;
      this.units = units;
      int objects = config.objects();
      int servers = config.servers();
      bytesPerServer = new double[servers];
      pieceServers = new int[objects][];
      livePieces = new ArrayList<>(objects);
      pieceBytes = new long[objects];
      List<Integer> allServers = new ArrayList<>(servers);
      for (int s = 0; s < servers; s++) {
        allServers.add(s);
      }
      long size = config.objectSizeBytes();
      // Objects with every piece live share one index list per piece count: SP can have many pieces.
      List<List<Integer>> allLive = new ArrayList<>();
      for (int i = 0; i < objects; i++) {
        int pieces = scheme == ComparedScheme.EC ? config.k() + units[i] : units[i];
        int parts = scheme == ComparedScheme.EC ? config.k() : scheme == ComparedScheme.SP ? units[i] : 1;
        // SP's last partition is short when S does not divide; charging every piece ceil(S / parts)
        // overstates memory by under one byte per piece.
        pieceBytes[i] = (size + parts - 1) / parts;
        storedBytes += pieceBytes[i] * pieces;
        List<Integer> chosen = SplitPlacement.chooseDistinct(allServers, pieces, placement);
        pieceServers[i] = new int[pieces];
        List<Integer> live = new ArrayList<>(pieces);
        for (int j = 0; j < pieces; j++) {
          pieceServers[i][j] = chosen.get(j);
          if (!dead[chosen.get(j)]) {
            live.add(j);
          }
        }
        if (live.size() == pieces) {
          while (allLive.size() <= pieces) {
            allLive.add(null);
          }
          if (allLive.get(pieces) == null) {
            allLive.set(pieces, Collections.unmodifiableList(live));
          }
          livePieces.add(allLive.get(pieces));
        } else {
          livePieces.add(Collections.unmodifiableList(live));
        }
      }
    }
  }

  /** One request: an object read from each scheme in {@link #order}, one after the other. */
  private static final class Request {
    final int client;
    final int object;
    final double issued;
    final boolean measured;
    final int[] order;
    int step;
    double readStart;
    /** The read in progress: the attachment of its transfers. */
    Read read;
    ProcessorSharingNetwork.Flow[] flows;
    int needed;
    int arrived;
    boolean parityArrived;

    Request(int client, int object, double issued, boolean measured, int[] order) {
      this.client = client;
      this.object = object;
      this.issued = issued;
      this.measured = measured;
      this.order = order;
    }

    int layout() {
      return order[step];
    }
  }

  /**
   * One scheme's read of a request, the attachment of its transfers. Once it has what it needs, its
   * transfers still going (late binding's extra splits) are left to finish on their own.
   */
  private static final class Read {
    final Request request;
    boolean complete;

    Read(Request request) {
      this.request = request;
    }
  }

  /** A scheduled event; ties in time go by scheduling order so runs are reproducible. */
  private static final class Event {
    static final int ISSUE = 0;
    static final int ARRIVAL = 1;
    static final int READ_DONE = 2;
    static final int BACKGROUND_TOGGLE = 3;
    static final int STRAGGLER_EPOCH = 4;

    final double time;
    final long seq;
    final int type;
    final int arg;
    final Request request;

    Event(double time, long seq, int type, int arg, Request request) {
      this.time = time;
      this.seq = seq;
      this.type = type;
      this.arg = arg;
      this.request = request;
    }
  }

  /** The state of one run. */
  private static final class Run {
    private final SimulationConfig config;
    private final Layout[] layouts;
    private final ProcessorSharingNetwork net;
    private final PriorityQueue<Event> events = new PriorityQueue<>((a, b) -> {
      int byTime = Double.compare(a.time, b.time);
      return byTime != 0 ? byTime : Long.compare(a.seq, b.seq);
    });
    private final ZipfSampler zipf;
    private final int[] replay;
    private final Random workload;
    private final Random reads;
    private final Random stragglers;
    private final Random backgroundRandom;
    private final double[] backgroundWeight;
    private final boolean[] backgroundOn;
    private final double[] nodeStraggle;
    private final double[] fixedSlowdown;
    private final long warmup;
    private final long measuredEnd;

    private long seq;
    private long issued;
    private long completedMeasured;
    /** Requests issued and not yet complete. */
    private long inFlight;
    private double measureStart = Double.NaN;
    private double measureEnd;

    Run(SimulationConfig config, List<ComparedScheme> schemes, int[][] units) {
      this.config = config;
      int servers = config.servers();
      long seed = config.seed();
      boolean[] dead = new boolean[servers];
      config.deadServers().forEach(s -> dead[s] = true);
      layouts = new Layout[schemes.size()];
      for (int i = 0; i < layouts.length; i++) {
        // A stream per scheme: its placement is the same alone and interleaved with any others.
        Random placement = new Random(streamSeed(seed, PLACEMENT_STREAM_BASE + schemes.get(i).ordinal()));
        layouts[i] = new Layout(config, schemes.get(i), units[i], placement, dead);
      }
      net = new ProcessorSharingNetwork(servers, config.serverBandwidthBytesPerSec());
      zipf = config.replays() ? null : new ZipfSampler(config.objects(), config.zipfExponent());
      replay = config.replays() ? config.replaySequence() : null;
      warmup = config.warmupRequests();
      measuredEnd = warmup + config.requests();
      workload = new Random(streamSeed(seed, WORKLOAD_STREAM));
      reads = new Random(streamSeed(seed, READ_STREAM));
      stragglers = new Random(streamSeed(seed, STRAGGLER_STREAM));
      backgroundRandom = new Random(streamSeed(seed, BACKGROUND_STREAM));
      backgroundWeight = new double[servers];
      backgroundOn = new boolean[servers];
      nodeStraggle = new double[servers];
      Arrays.fill(nodeStraggle, 1.0);
      fixedSlowdown = new double[servers];
      Arrays.fill(fixedSlowdown, 1.0);
      config.serverSlowdowns().forEach((s, f) -> fixedSlowdown[s] = f);
    }

    void execute() {
      startDisturbances();
      if (config.closedLoop()) {
        for (int c = 0; c < config.clients(); c++) {
          schedule(0, Event.ISSUE, c, null);
        }
      } else {
        schedule(exponential(workload, 1 / config.openLoopRatePerSec()), Event.ARRIVAL, 0, null);
      }
      while (completedMeasured < config.requests()) {
        double netTime = net.nextCompletionTime();
        Event next = events.peek();
        if (next == null && Double.isInfinite(netTime)) {
          throw new IllegalStateException("simulation stalled with " + completedMeasured + " of "
              + config.requests() + " measured requests done");
        }
        if (next == null || netTime <= next.time) {
          ProcessorSharingNetwork.Flow flow = net.completeNext();
          onArrival(flow, netTime);
        } else {
          events.poll();
          handle(next);
        }
      }
    }

    private void startDisturbances() {
      int servers = config.servers();
      int count = (int) Math.round(config.backgroundServerFraction() * servers);
      if (count > 0 && config.backgroundFlowsPerServer() > 0) {
        List<Integer> all = new ArrayList<>(servers);
        for (int s = 0; s < servers; s++) {
          all.add(s);
        }
        List<Integer> chosen = SplitPlacement.chooseDistinct(all, count, backgroundRandom);
        double on = config.backgroundMeanOnSeconds();
        double off = config.backgroundMeanOffSeconds();
        for (int i = 0; i < count; i++) {
          int s = chosen.get(i);
          backgroundWeight[s] = config.backgroundFlowsPerServer() / Math.pow(i + 1, config.backgroundSkew());
          // Start in the stationary mix of on and off so there is no warm-up transient.
          backgroundOn[s] = off == 0 || backgroundRandom.nextDouble() < on / (on + off);
          if (backgroundOn[s]) {
            net.setBackground(0, s, backgroundWeight[s]);
          }
          if (off > 0) {
            schedule(exponential(backgroundRandom, backgroundOn[s] ? on : off), Event.BACKGROUND_TOGGLE, s,
                null);
          }
        }
      }
      drawNodeStragglers();
      for (int s = 0; s < servers; s++) {
        if (fixedSlowdown[s] * nodeStraggle[s] != 1) {
          net.setServerSlowdown(0, s, fixedSlowdown[s] * nodeStraggle[s]);
        }
      }
      if (nodeMode() && config.stragglerEpochSeconds() > 0) {
        schedule(config.stragglerEpochSeconds(), Event.STRAGGLER_EPOCH, 0, null);
      }
    }

    private boolean nodeMode() {
      return config.stragglerMode() == StragglerMode.PER_NODE && config.stragglerProbability() > 0;
    }

    private void drawNodeStragglers() {
      if (!nodeMode()) {
        return;
      }
      for (int s = 0; s < config.servers(); s++) {
        nodeStraggle[s] = stragglers.nextDouble() < config.stragglerProbability()
            ? config.stragglerSlowdown() : 1.0;
      }
    }

    private void handle(Event event) {
      switch (event.type) {
        case Event.ISSUE:
          issue(event.arg, event.time);
          break;
        case Event.ARRIVAL:
          issue(workload.nextInt(config.clients()), event.time);
          schedule(event.time + exponential(workload, 1 / config.openLoopRatePerSec()), Event.ARRIVAL, 0,
              null);
          break;
        case Event.READ_DONE:
          readDone(event.request, event.time);
          break;
        case Event.BACKGROUND_TOGGLE: {
          int s = event.arg;
          backgroundOn[s] = !backgroundOn[s];
          net.setBackground(event.time, s, backgroundOn[s] ? backgroundWeight[s] : 0);
          double mean = backgroundOn[s] ? config.backgroundMeanOnSeconds()
              : config.backgroundMeanOffSeconds();
          schedule(event.time + exponential(backgroundRandom, mean), Event.BACKGROUND_TOGGLE, s, null);
          break;
        }
        case Event.STRAGGLER_EPOCH:
          drawNodeStragglers();
          for (int s = 0; s < config.servers(); s++) {
            net.setServerSlowdown(event.time, s, fixedSlowdown[s] * nodeStraggle[s]);
          }
          schedule(event.time + config.stragglerEpochSeconds(), Event.STRAGGLER_EPOCH, 0, null);
          break;
        default:
          throw new IllegalStateException("unknown event type " + event.type);
      }
    }

    private void issue(int client, double now) {
      long id = issued++;
      if (replay != null && id >= replay.length) {
        return; // the replayed sequence is used up: this client stops
      }
      inFlight++;
      if (!config.closedLoop() && inFlight > MAX_OPEN_LOOP_IN_FLIGHT) {
        throw new IllegalStateException(String.format(java.util.Locale.ROOT, "%s: open-loop arrivals at"
            + " %.1f req/s outpace the simulated cluster (%d requests in flight at %.1f s); lower the rate"
            + " or add servers or bandwidth", config.name(), config.openLoopRatePerSec(), inFlight, now));
      }
      boolean measured = id >= warmup && id < measuredEnd;
      if (id == warmup) {
        measureStart = now;
      }
      int object = replay != null ? replay[(int) id] : zipf.next(workload);
      int[] order = new int[layouts.length];
      for (int i = 0; i < order.length; i++) {
        order[i] = i;
      }
      for (int i = order.length - 1; i > 0; i--) {
        int j = reads.nextInt(i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
      startRead(new Request(client, object, now, measured, order), now);
    }

    private void startRead(Request request, double now) {
      Layout layout = layouts[request.layout()];
      int object = request.object;
      request.readStart = now;
      request.read = new Read(request);
      request.arrived = 0;
      request.parityArrived = false;
      List<Integer> live = layout.livePieces.get(object);
      List<Integer> chosen;
      switch (layout.scheme) {
        case EC: {
          int k = config.k();
          if (live.size() < k) {
            fallback(request, layout, now);
            return;
          }
          chosen = SplitPlacement.chooseDistinct(live, Math.min(k + config.delta(), live.size()), reads);
          request.needed = k;
          break;
        }
        case SR:
        case SINGLE:
          if (live.isEmpty()) {
            fallback(request, layout, now);
            return;
          }
          chosen = SplitPlacement.chooseDistinct(live, 1, reads);
          request.needed = 1;
          break;
        case SP:
          if (live.size() < layout.units[object]) {
            fallback(request, layout, now);
            return;
          }
          chosen = live;
          request.needed = live.size();
          break;
        default:
          throw new IllegalStateException("unknown scheme " + layout.scheme);
      }
      request.flows = new ProcessorSharingNetwork.Flow[chosen.size()];
      boolean perTransfer = config.stragglerMode() == StragglerMode.PER_TRANSFER
          && config.stragglerProbability() > 0;
      for (int i = 0; i < chosen.size(); i++) {
        int piece = chosen.get(i);
        double slowdown = perTransfer && stragglers.nextDouble() < config.stragglerProbability()
            ? config.stragglerSlowdown() : 1.0;
        request.flows[i] = net.start(now, layout.pieceServers[object][piece], layout.pieceBytes[object],
            slowdown, piece, request.read);
      }
    }

    private void fallback(Request request, Layout layout, double now) {
      if (request.measured) {
        layout.fallbackCount++;
      }
      schedule(now + config.fallbackLatencySeconds(), Event.READ_DONE, 0, request);
    }

    private void onArrival(ProcessorSharingNetwork.Flow flow, double now) {
      Read read = (Read) flow.attachment();
      if (read.complete) {
        return; // an extra split going on after its read completed: counted when the read completed
      }
      Request request = read.request;
      Layout layout = layouts[request.layout()];
      if (request.measured) {
        layout.bytesPerServer[flow.server()] += flow.bytes();
      }
      request.arrived++;
      if (layout.scheme == ComparedScheme.EC && flow.tag() >= config.k()) {
        request.parityArrived = true;
      }
      if (request.arrived < request.needed) {
        return;
      }
      read.complete = true;
      for (ProcessorSharingNetwork.Flow other : request.flows) {
        if (other.isActive()) {
          double sent = lateBind(other, read, now);
          if (request.measured) {
            layout.bytesPerServer[other.server()] += sent;
            layout.extraBytes += sent;
            layout.savedBytes += other.bytes() - sent;
          }
        }
      }
      if (layout.scheme == ComparedScheme.EC && request.parityArrived) {
        double decode = config.objectSizeBytes() / config.decodeThroughputBytesPerSec();
        if (request.measured) {
          layout.decodeCount++;
        }
        schedule(now + decode, Event.READ_DONE, 0, request);
      } else {
        readDone(request, now);
      }
    }

    /**
     * An extra split still going when its read completed: lets it run on per the late-binding model.
     * Its bytes are counted now, for all of its transfer, so a measured read's extra bytes count even if
     * they arrive after the run ends.
     *
     * @return the bytes it sends in all
     */
    private double lateBind(ProcessorSharingNetwork.Flow flow, Read read, double now) {
      switch (config.lateBinding()) {
        case INSTANT:
          return net.cancel(now, flow);
        case SLICE: {
          double done = net.bytesDone(flow);
          double slice = config.cancelSliceBytes();
          // The reader is inside the slice it is reading and checks only at its end.
          double stop = Math.min(flow.bytes(), (Math.floor(done / slice) + 1) * slice);
          if (stop >= flow.bytes() - EPSILON_BYTES) {
            return flow.bytes();
          }
          net.cancel(now, flow);
          if (stop - done > EPSILON_BYTES) {
            // Under processor sharing the rest of a slice is a new transfer of the remaining bytes.
            net.start(now, flow.server(), stop - done, flow.slowdown(), flow.tag(), read);
          }
          return stop;
        }
        case WHOLE:
        default:
          return flow.bytes();
      }
    }

    /** One scheme's read of the request is complete: record it, then read the next scheme or finish. */
    private void readDone(Request request, double now) {
      Layout layout = layouts[request.layout()];
      if (request.measured) {
        layout.histogram.recordValue(Math.max(1, Math.round((now - request.readStart) * 1e6)));
        layout.usefulBytes += config.objectSizeBytes();
        layout.completed++;
      }
      request.step++;
      if (request.step < request.order.length) {
        startRead(request, now);
        return;
      }
      inFlight--;
      if (request.measured) {
        completedMeasured++;
        measureEnd = Math.max(measureEnd, now);
      }
      if (config.closedLoop()) {
        if (config.thinkTimeSeconds() == 0) {
          issue(request.client, now);
        } else {
          schedule(now + config.thinkTimeSeconds(), Event.ISSUE, request.client, null);
        }
      }
    }

    private void schedule(double time, int type, int arg, Request request) {
      events.add(new Event(time, seq++, type, arg, request));
    }

    double measuredSeconds() {
      return measureEnd - measureStart;
    }

    SimulationResult result(int index, double spRate, long wallNanos) {
      Layout layout = layouts[index];
      long[] bytes = new long[layout.bytesPerServer.length];
      for (int s = 0; s < bytes.length; s++) {
        bytes[s] = Math.round(layout.bytesPerServer[s]);
      }
      return new SimulationResult(config, layout.scheme, layout.histogram, bytes, layout.usefulBytes,
          layout.storedBytes, config.objectSizeBytes() * config.objects(), layout.decodeCount,
          layout.fallbackCount, Math.round(layout.extraBytes), Math.round(layout.savedBytes),
          layout.completed, measuredSeconds(), spRate, layout.units, wallNanos);
    }
  }
}
