package io.eccache.benchmarks.sim;

import io.eccache.coordinator.SplitPlacement;
import io.eccache.coordinator.allocation.Allocation;
import io.eccache.coordinator.allocation.ObjectDemand;
import io.eccache.coordinator.allocation.ParityAllocator;
import io.eccache.coordinator.allocation.PartitionAllocator;
import io.eccache.coordinator.allocation.ReplicaAllocator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Random;
import org.HdrHistogram.Histogram;

/**
 * A discrete-event simulator of EC-Cache and its rivals, driven by the coordinator's own placement
 * ({@link SplitPlacement#chooseDistinct}) and allocators ({@link ParityAllocator}, {@link ReplicaAllocator},
 * {@link PartitionAllocator}), so that what it predicts is what the real code would decide.
 *
 * <h2>Model</h2>
 * <ul>
 *   <li><b>Objects.</b> M objects of equal size S; object of rank i (from 0) has popularity
 *       {@code p_i = (i + 1)^-s / H(M, s)} (Zipf). The allocators are given exactly these p_i, as the
 *       coordinator would learn them from a long trace; popularity does not change during a run.</li>
 *   <li><b>Schemes.</b> {@link Scheme#EC}: k data and r_i parity splits of {@code ceil(S / k)} bytes, r_i
 *       from {@code ParityAllocator(k, baseParities, overhead, servers)}. A read picks
 *       {@code min(k + Delta, live)} of the live splits uniformly ({@code chooseDistinct}), completes when
 *       the k-th arrives and cancels the others at that instant (a cancelled transfer stops using
 *       bandwidth at once and counts the bytes it moved). If a parity split is among the first k, some
 *       data split is missing and the client decodes, taking {@code S / decodeThroughput} after the k-th
 *       arrival. {@link Scheme#SR}: c_i whole copies from {@code ReplicaAllocator(1, overhead, servers)};
 *       a read picks one live copy uniformly. {@link Scheme#SP}: k_i partitions of about S / k_i bytes
 *       from {@code PartitionAllocator(servers, B, rate, seed)}; a read fetches all of them and completes
 *       with the last. {@link Scheme#SINGLE}: one copy. Every object's pieces go to distinct servers
 *       chosen uniformly ({@code chooseDistinct}), objects placed hottest first from one seeded stream.</li>
 *   <li><b>Network.</b> Each server's outgoing link is a processor-sharing resource of bandwidth B
 *       ({@link ProcessorSharingNetwork}): concurrent transfers share it equally, like long TCP flows,
 *       with no per-connection cost, no latency and no server CPU or memory bottleneck. Client incoming
 *       links are optional (default unlimited); when enabled a transfer gets the smaller of its two equal
 *       shares.</li>
 *   <li><b>Arrivals.</b> Closed loop (default): each of C clients issues a request at time 0 and its next
 *       one a think time after each completion. Open loop: Poisson arrivals at a total rate, each from a
 *       uniformly chosen client. The object of each request is drawn from the Zipf popularity by one
 *       seeded stream in issue order, so every scheme sees the same sequence of objects. The first
 *       {@code warmupRequests} requests are not measured; the next {@code requests} are; requests issued
 *       after them keep the load up until the measured ones are done, then the run stops.</li>
 *   <li><b>Background load</b> (paper 6.3): {@code round(fraction * servers)} servers chosen uniformly
 *       carry {@code flows / (i + 1)^skew} extra processor-sharing flows that never finish, always on or
 *       in exponential on/off periods. Their bytes are not counted as load.</li>
 *   <li><b>Stragglers.</b> Per transfer: each transfer independently w.p. p progresses f times slower than
 *       its share (the rest of its share is wasted, as when the sender is slow). Per node: each server
 *       w.p. p slows all its transfers by f, drawn at the start and redrawn every epoch if one is set.
 *       Fixed per-server slowdowns give deterministic stragglers.</li>
 *   <li><b>Failures.</b> Dead servers hold pieces (placement happened before the failure) that cannot be
 *       read. EC reads among the live splits and SR among the live copies; a read with fewer than k live
 *       splits, no live copy, or (SP, SINGLE) any lost piece goes to the under store: no cache traffic,
 *       a fixed penalty latency, counted in {@link SimulationResult#fallbackCount()} and recorded in the
 *       latency histogram at that penalty.</li>
 *   <li><b>SP-Cache's rate.</b> Its allocator needs the total request rate. Open loop uses the arrival
 *       rate; a closed loop, like the real coordinator, measures it: a first allocation at a capacity
 *       estimate, a pilot run, a second allocation at the measured throughput, a second pilot, and the
 *       final allocation at that throughput. A configured rate skips the pilots.</li>
 * </ul>
 *
 * <p>Latency is from issue to completion (decode or fallback penalty included). Everything random derives
 * from the configured seed, so equal configurations give equal results. Stateless and thread-safe: each
 * run has its own state.
 */
public final class Simulator {
  private static final int ISSUE = 0;
  private static final int ARRIVAL = 1;
  private static final int FINISH = 2;
  private static final int BACKGROUND_TOGGLE = 3;
  private static final int STRAGGLER_EPOCH = 4;

  private static final long PLACEMENT_STREAM = 1;
  private static final long WORKLOAD_STREAM = 2;
  private static final long READ_STREAM = 3;
  private static final long STRAGGLER_STREAM = 4;
  private static final long BACKGROUND_STREAM = 5;

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
  public static SimulationResult run(SimulationConfig config, Scheme scheme) {
    long started = System.nanoTime();
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(scheme, "scheme");
    double[] popularity = zipf(config.objects(), config.zipfExponent());
    List<ObjectDemand> demands = new ArrayList<>(config.objects());
    for (int i = 0; i < popularity.length; i++) {
      demands.add(new ObjectDemand(key(i), config.objectSizeBytes(), popularity[i]));
    }
    int[] units;
    double spRate = Double.NaN;
    switch (scheme) {
      case EC:
        if (config.servers() < config.k() + config.baseParities()) {
          throw new IllegalArgumentException("EC needs servers >= k + baseParities = "
              + (config.k() + config.baseParities()) + " but servers was " + config.servers());
        }
        units = unitsByRank(new ParityAllocator(config.k(), config.baseParities(), config.memoryOverhead(),
            config.servers()).allocate(demands), config.objects());
        break;
      case SR:
        units = unitsByRank(new ReplicaAllocator(1, config.memoryOverhead(), config.servers())
            .allocate(demands), config.objects());
        break;
      case SP:
        if (config.spRequestRatePerSec() > 0) {
          spRate = config.spRequestRatePerSec();
        } else if (!config.closedLoop()) {
          spRate = config.openLoopRatePerSec();
        } else {
          spRate = pilotRate(config, demands);
        }
        units = partitions(config, demands, spRate);
        break;
      case SINGLE:
        units = new int[config.objects()];
        Arrays.fill(units, 1);
        break;
      default:
        throw new IllegalArgumentException("unknown scheme " + scheme);
    }
    Run run = new Run(config, scheme, units, popularity);
    run.execute();
    return run.result(spRate, System.nanoTime() - started);
  }

  /**
   * The throughput SP-Cache itself reaches, as its coordinator would measure it: starts at what the
   * clients could ask of an idle cluster, capped by the cluster's bandwidth, then re-measures.
   */
  private static double pilotRate(SimulationConfig config, List<ObjectDemand> demands) {
    double size = config.objectSizeBytes();
    double perClient = 1 / (size / config.serverBandwidthBytesPerSec() + config.thinkTimeSeconds());
    double capacity = config.servers() * config.serverBandwidthBytesPerSec() / size;
    double rate = Math.min(config.clients() * perClient, capacity);
    int pilotRequests = Math.min(config.requests(), Math.max(2_000, 20 * config.clients()));
    SimulationConfig pilot = config.toBuilder().requests(pilotRequests).build();
    double[] popularity = zipf(config.objects(), config.zipfExponent());
    for (int pass = 0; pass < SP_PILOT_PASSES; pass++) {
      Run run = new Run(pilot, Scheme.SP, partitions(config, demands, rate), popularity);
      run.execute();
      double measured = run.completedMeasured / run.measuredSeconds();
      if (measured > 0 && !Double.isInfinite(measured)) {
        rate = measured;
      }
    }
    return rate;
  }

  private static int[] partitions(SimulationConfig config, List<ObjectDemand> demands, double rate) {
    return unitsByRank(new PartitionAllocator(config.servers(), config.serverBandwidthBytesPerSec(), rate,
        config.seed()).allocate(demands), config.objects());
  }

  private static int[] unitsByRank(Allocation allocation, int objects) {
    int[] units = new int[objects];
    for (int i = 0; i < objects; i++) {
      units[i] = allocation.unitsOf(key(i));
    }
    return units;
  }

  /** Zero-padded so key order is rank order, which keeps allocator tie-breaks aligned with rank. */
  private static String key(int rank) {
    return String.format("obj-%07d", rank);
  }

  /** Zipf probabilities of ranks 0..n-1: {@code (i + 1)^-s}, normalised. */
  static double[] zipf(int n, double s) {
    double[] p = new double[n];
    double sum = 0;
    for (int i = 0; i < n; i++) {
      p[i] = Math.pow(i + 1, -s);
      sum += p[i];
    }
    for (int i = 0; i < n; i++) {
      p[i] /= sum;
    }
    return p;
  }

  /** A seed for one independent random stream, so adding draws to one stream leaves the others alone. */
  private static long streamSeed(long seed, long stream) {
    long z = seed + stream * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** One request in flight. */
  private static final class Request {
    final long id;
    final int client;
    final int object;
    final double start;
    final boolean measured;
    ProcessorSharingNetwork.Flow[] flows;
    int needed;
    int arrived;
    boolean parityArrived;

    Request(long id, int client, int object, double start, boolean measured) {
      this.id = id;
      this.client = client;
      this.object = object;
      this.start = start;
      this.measured = measured;
    }
  }

  /** A scheduled event; ties in time go by scheduling order so runs are reproducible. */
  private static final class Event {
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
    private final Scheme scheme;
    private final int[] units;
    private final int[][] pieceServers;
    private final List<List<Integer>> livePieces;
    private final double[] cumulative;
    private final long storedBytes;
    private final ProcessorSharingNetwork net;
    private final PriorityQueue<Event> events = new PriorityQueue<>((a, b) -> {
      int byTime = Double.compare(a.time, b.time);
      return byTime != 0 ? byTime : Long.compare(a.seq, b.seq);
    });
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
    private final double size;

    private final Histogram histogram = new Histogram(3);
    private final double[] bytesPerServer;
    private long seq;
    private long issued;
    private long completedMeasured;
    private long usefulBytes;
    private long decodeCount;
    private double decodeSeconds;
    private long fallbackCount;
    private double measureStart = Double.NaN;
    private double measureEnd;

    Run(SimulationConfig config, Scheme scheme, int[] units, double[] popularity) {
      this.config = config;
      this.scheme = scheme;
      this.units = units;
      int servers = config.servers();
      this.size = config.objectSizeBytes();
      this.net = new ProcessorSharingNetwork(servers, config.serverBandwidthBytesPerSec(), config.clients(),
          config.clientBandwidthBytesPerSec());
      this.bytesPerServer = new double[servers];
      this.warmup = config.warmupRequests();
      this.measuredEnd = warmup + config.requests();
      long seed = config.seed();
      this.workload = new Random(streamSeed(seed, WORKLOAD_STREAM));
      this.reads = new Random(streamSeed(seed, READ_STREAM));
      this.stragglers = new Random(streamSeed(seed, STRAGGLER_STREAM));
      this.backgroundRandom = new Random(streamSeed(seed, BACKGROUND_STREAM));

      cumulative = new double[popularity.length];
      double sum = 0;
      for (int i = 0; i < popularity.length; i++) {
        sum += popularity[i];
        cumulative[i] = sum;
      }

      List<Integer> allServers = new ArrayList<>(servers);
      for (int s = 0; s < servers; s++) {
        allServers.add(s);
      }
      Random placement = new Random(streamSeed(seed, PLACEMENT_STREAM));
      int objects = config.objects();
      pieceServers = new int[objects][];
      livePieces = new ArrayList<>(objects);
      long stored = 0;
      boolean[] dead = new boolean[servers];
      for (int s : config.deadServers()) {
        dead[s] = true;
      }
      // Objects with every piece live share one list per piece count: SP can have thousands of pieces
      // for each of tens of thousands of objects.
      List<List<Integer>> allLive = new ArrayList<>();
      for (int i = 0; i < objects; i++) {
        int pieces = pieceCount(i);
        List<Integer> chosen = SplitPlacement.chooseDistinct(allServers, pieces, placement);
        pieceServers[i] = new int[pieces];
        int lost = 0;
        for (int j = 0; j < pieces; j++) {
          pieceServers[i][j] = chosen.get(j);
          stored += pieceBytes(i, j);
          lost += dead[pieceServers[i][j]] ? 1 : 0;
        }
        if (lost == 0) {
          while (allLive.size() <= pieces) {
            allLive.add(null);
          }
          if (allLive.get(pieces) == null) {
            allLive.set(pieces, Collections.unmodifiableList(new ArrayList<>(allServers.subList(0, pieces))));
          }
          livePieces.add(allLive.get(pieces));
        } else {
          List<Integer> live = new ArrayList<>(pieces - lost);
          for (int j = 0; j < pieces; j++) {
            if (!dead[pieceServers[i][j]]) {
              live.add(j);
            }
          }
          livePieces.add(Collections.unmodifiableList(live));
        }
      }
      this.storedBytes = stored;

      backgroundWeight = new double[servers];
      backgroundOn = new boolean[servers];
      nodeStraggle = new double[servers];
      Arrays.fill(nodeStraggle, 1.0);
      fixedSlowdown = new double[servers];
      Arrays.fill(fixedSlowdown, 1.0);
      config.serverSlowdowns().forEach((s, f) -> fixedSlowdown[s] = f);
    }

    private int pieceCount(int object) {
      switch (scheme) {
        case EC:
          return config.k() + units[object];
        case SR:
        case SP:
          return units[object];
        default:
          return 1;
      }
    }

    /** Bytes of piece j of an object: a split, a copy, or a partition (remainder spread over the first). */
    private long pieceBytes(int object, int piece) {
      long s = config.objectSizeBytes();
      switch (scheme) {
        case EC:
          return s / config.k() + (s % config.k() == 0 ? 0 : 1);
        case SP:
          int parts = units[object];
          return s / parts + (piece < s % parts ? 1 : 0);
        default:
          return s;
      }
    }

    void execute() {
      startDisturbances();
      if (config.closedLoop()) {
        for (int c = 0; c < config.clients(); c++) {
          schedule(0, ISSUE, c, null);
        }
      } else {
        schedule(exponential(workload, 1 / config.openLoopRatePerSec()), ARRIVAL, 0, null);
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
            schedule(exponential(backgroundRandom, backgroundOn[s] ? on : off), BACKGROUND_TOGGLE, s, null);
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
        schedule(config.stragglerEpochSeconds(), STRAGGLER_EPOCH, 0, null);
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
        case ISSUE:
          issue(event.arg, event.time);
          break;
        case ARRIVAL:
          issue(workload.nextInt(config.clients()), event.time);
          schedule(event.time + exponential(workload, 1 / config.openLoopRatePerSec()), ARRIVAL, 0, null);
          break;
        case FINISH:
          finish(event.request, event.time);
          break;
        case BACKGROUND_TOGGLE: {
          int s = event.arg;
          backgroundOn[s] = !backgroundOn[s];
          net.setBackground(event.time, s, backgroundOn[s] ? backgroundWeight[s] : 0);
          double mean = backgroundOn[s] ? config.backgroundMeanOnSeconds() : config.backgroundMeanOffSeconds();
          schedule(event.time + exponential(backgroundRandom, mean), BACKGROUND_TOGGLE, s, null);
          break;
        }
        case STRAGGLER_EPOCH:
          drawNodeStragglers();
          for (int s = 0; s < config.servers(); s++) {
            net.setServerSlowdown(event.time, s, fixedSlowdown[s] * nodeStraggle[s]);
          }
          schedule(event.time + config.stragglerEpochSeconds(), STRAGGLER_EPOCH, 0, null);
          break;
        default:
          throw new IllegalStateException("unknown event type " + event.type);
      }
    }

    private void issue(int client, double now) {
      long id = issued++;
      boolean measured = id >= warmup && id < measuredEnd;
      if (id == warmup) {
        measureStart = now;
      }
      Request request = new Request(id, client, drawObject(), now, measured);
      int object = request.object;
      List<Integer> live = livePieces.get(object);
      List<Integer> chosen;
      switch (scheme) {
        case EC: {
          int k = config.k();
          if (live.size() < k) {
            fallback(request, now);
            return;
          }
          chosen = SplitPlacement.chooseDistinct(live, Math.min(k + config.delta(), live.size()), reads);
          request.needed = k;
          break;
        }
        case SR:
        case SINGLE:
          if (live.isEmpty()) {
            fallback(request, now);
            return;
          }
          chosen = SplitPlacement.chooseDistinct(live, 1, reads);
          request.needed = 1;
          break;
        case SP:
          if (live.size() < units[object]) {
            fallback(request, now);
            return;
          }
          chosen = live;
          request.needed = live.size();
          break;
        default:
          throw new IllegalStateException("unknown scheme " + scheme);
      }
      request.flows = new ProcessorSharingNetwork.Flow[chosen.size()];
      boolean perTransfer = config.stragglerMode() == StragglerMode.PER_TRANSFER
          && config.stragglerProbability() > 0;
      for (int i = 0; i < chosen.size(); i++) {
        int piece = chosen.get(i);
        double slowdown = perTransfer && stragglers.nextDouble() < config.stragglerProbability()
            ? config.stragglerSlowdown() : 1.0;
        request.flows[i] = net.start(now, pieceServers[object][piece], client, pieceBytes(object, piece),
            slowdown, piece, request);
      }
    }

    private int drawObject() {
      int i = Arrays.binarySearch(cumulative, workload.nextDouble());
      int rank = i >= 0 ? i + 1 : -i - 1;
      // nextDouble() < 1 but the sum of probabilities may fall short of 1 by rounding.
      return Math.min(rank, cumulative.length - 1);
    }

    private void fallback(Request request, double now) {
      if (request.measured) {
        fallbackCount++;
      }
      schedule(now + config.fallbackLatencySeconds(), FINISH, 0, request);
    }

    private void onArrival(ProcessorSharingNetwork.Flow flow, double now) {
      Request request = (Request) flow.attachment();
      if (request.measured) {
        bytesPerServer[flow.server()] += flow.bytes();
      }
      request.arrived++;
      if (scheme == Scheme.EC && flow.tag() >= config.k()) {
        request.parityArrived = true;
      }
      if (request.arrived < request.needed) {
        return;
      }
      for (ProcessorSharingNetwork.Flow other : request.flows) {
        if (other.isActive()) {
          double moved = net.cancel(now, other);
          if (request.measured) {
            bytesPerServer[other.server()] += moved;
          }
        }
      }
      double decode = 0;
      if (scheme == Scheme.EC && request.parityArrived) {
        decode = size / config.decodeThroughputBytesPerSec();
        if (request.measured) {
          decodeCount++;
          decodeSeconds += decode;
        }
      }
      if (decode > 0) {
        schedule(now + decode, FINISH, 0, request);
      } else {
        finish(request, now);
      }
    }

    private void finish(Request request, double now) {
      if (request.measured) {
        histogram.recordValue(Math.max(1, Math.round((now - request.start) * 1e6)));
        usefulBytes += config.objectSizeBytes();
        completedMeasured++;
        measureEnd = Math.max(measureEnd, now);
      }
      if (config.closedLoop()) {
        if (config.thinkTimeSeconds() == 0) {
          issue(request.client, now);
        } else {
          schedule(now + config.thinkTimeSeconds(), ISSUE, request.client, null);
        }
      }
    }

    private void schedule(double time, int type, int arg, Request request) {
      events.add(new Event(time, seq++, type, arg, request));
    }

    private static double exponential(Random random, double mean) {
      return -mean * Math.log(1 - random.nextDouble());
    }

    double measuredSeconds() {
      return measureEnd - measureStart;
    }

    SimulationResult result(double spRate, long wallNanos) {
      long[] bytes = new long[bytesPerServer.length];
      for (int s = 0; s < bytes.length; s++) {
        bytes[s] = Math.round(bytesPerServer[s]);
      }
      long objectBytes = config.objectSizeBytes() * config.objects();
      return new SimulationResult(config, scheme, histogram, bytes, usefulBytes, storedBytes, objectBytes,
          decodeCount, decodeSeconds, fallbackCount, completedMeasured, measuredSeconds(), spRate, units,
          wallNanos);
    }
  }
}
