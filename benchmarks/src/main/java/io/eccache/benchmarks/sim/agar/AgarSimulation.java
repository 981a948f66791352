package io.eccache.benchmarks.sim.agar;

import io.eccache.policy.ZipfSampler;
import io.eccache.policy.agar.ChunkCachePolicy;
import io.eccache.policy.agar.ChunkLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * Agar's evaluation (ICDCS'17, section V) in simulated time: closed-loop clients in one region read
 * Zipf-chosen objects through that region's chunk cache; the policy is reconfigured every period.
 *
 * <p>A read of object i asks the policy which chunks are cached; those that a reader has actually written
 * to the cache since they were configured come from the cache, the k - c nearest others from their regions,
 * in parallel, and the read takes as long as the slowest ({@link ChunkLayout#readLatency}). When it
 * completes, the reader writes the chunks the policy now holds for i (as the paper's client writes to the
 * cache after reading, off the measured path); a chunk the policy drops is gone at once. With
 * {@link AgarSimConfig#fillAtTick()} a reconfiguration instead puts every configured chunk in at once. Without jitter the
 * latency is exactly the read model's; with jitter each chunk read is multiplied by a lognormal factor of
 * mean 1, and the client still picks chunks by the nominal latencies.
 *
 * <p>Everything random comes from the seed: one stream per client for its object sequence (the same for
 * every policy) and one for the jitter. No thread, no clock: a run of a few thousand reads takes
 * milliseconds plus the policy's own work per period.
 */
public final class AgarSimulation {
  private static final int TICK = 0;
  private static final int COMPLETE = 1;
  private static final int ISSUE = 2;

  private AgarSimulation() {}

  /**
   * Runs one policy.
   *
   * @param config the setup
   * @param spec the policy
   * @return the measured reads
   * @throws IllegalArgumentException if the policy does not fit the layout (e.g. c > k)
   */
  public static AgarRunResult run(AgarSimConfig config, CachePolicySpec spec) {
    ChunkLayout layout = config.layout();
    ChunkCachePolicy policy = spec.create(layout, config.capacityChunks());
    ZipfSampler zipf = new ZipfSampler(config.objects(), config.skew());
    String[] keys = new String[config.objects()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = "obj-" + i;
    }
    Random[] clientRandom = new Random[config.clients()];
    for (int c = 0; c < clientRandom.length; c++) {
      clientRandom[c] = new Random(mix(config.seed(), c));
    }
    Random jitter = new Random(mix(config.seed(), -1));
    long periodMicros = micros(config.period());
    long warmupEndMicros = Math.multiplyExact(periodMicros, (long) config.warmupPeriods());
    int measured = config.measuredRequests();

    // What readers have written to the cache, per key; a subset of what the policy holds at any time.
    Map<String, List<Integer>> written = new HashMap<>();
    PriorityQueue<Event> events = new PriorityQueue<>();
    long[] seq = {0};
    events.add(new Event(periodMicros, TICK, seq[0]++, -1, null, false, 0, 0));
    for (int c = 0; c < config.clients(); c++) {
      events.add(new Event(0, ISSUE, seq[0]++, c, null, false, 0, 0));
    }
    long[] latencies = new long[measured];
    int issuedMeasured = 0;
    int done = 0;
    long hits = 0;
    long fullHits = 0;
    long cachedChunkReads = 0;
    long firstMeasuredIssue = -1;
    long now = 0;
    int ticks = 0;
    while (done < measured) {
      Event e = events.poll();
      if (e == null) {
        throw new IllegalStateException("the simulation ran out of events after " + done + " of "
            + measured + " measured reads: a bug (every client should issue until the measured reads"
            + " are all issued)");
      }
      now = e.time;
      switch (e.type) {
        case TICK:
          policy.tick();
          ticks++;
          // Chunks the new configuration drops are evicted at once; new ones wait for a reader.
          written.replaceAll((key, chunks) -> intersect(chunks, policy.cachedChunks(key)));
          // LRU is updated by reads, not ticks; only the periodic policies' configurations are prefetched.
          if (config.fillAtTick() && spec.kind() != CachePolicySpec.Kind.LRU) {
            for (String key : keys) {
              List<Integer> holds = policy.cachedChunks(key);
              if (!holds.isEmpty()) {
                written.put(key, holds);
              }
            }
          }
          events.add(new Event(now + periodMicros, TICK, seq[0]++, -1, null, false, 0, 0));
          break;
        case ISSUE: {
          boolean measuring = now >= warmupEndMicros;
          if (measuring && issuedMeasured >= measured) {
            break; // this client is finished
          }
          String key = keys[zipf.next(clientRandom[e.client])];
          List<Integer> present = intersect(written.getOrDefault(key, List.of()), policy.cachedChunks(key));
          long latency = readMicros(layout, present, config.jitterSigma(), jitter);
          policy.recordRead(key);
          if (measuring) {
            issuedMeasured++;
            if (firstMeasuredIssue < 0) {
              firstMeasuredIssue = now;
            }
          }
          events.add(new Event(now + latency, COMPLETE, seq[0]++, e.client, key, measuring, latency,
              present.size()));
          break;
        }
        case COMPLETE:
        default:
          List<Integer> holds = policy.cachedChunks(e.key);
          if (holds.isEmpty()) {
            written.remove(e.key);
          } else {
            written.put(e.key, holds);
          }
          if (e.measured) {
            latencies[done++] = e.latencyMicros;
            cachedChunkReads += Math.min(e.cachedChunks, layout.k());
            if (e.cachedChunks > 0) {
              hits++;
            }
            if (e.cachedChunks >= layout.k()) {
              fullHits++;
            }
          }
          events.add(new Event(now, ISSUE, seq[0]++, e.client, null, false, 0, 0));
          break;
      }
    }
    return new AgarRunResult(config, spec, latencies, hits, fullHits, cachedChunkReads,
        (now - Math.max(firstMeasuredIssue, 0)) / 1e6, ticks);
  }

  /**
   * The latency of one read with these chunks in the cache: the read model's, or with jitter the slowest of
   * the jittered chunk reads the model's client makes.
   */
  static long readMicros(ChunkLayout layout, List<Integer> cached, double sigma, Random jitter) {
    if (sigma == 0) {
      return micros(layout.readLatency(cached));
    }
    double slowest = 0;
    for (int i = 0; i < cached.size(); i++) {
      slowest = Math.max(slowest, micros(layout.cacheLatency()) * factor(sigma, jitter));
    }
    int missing = layout.k() - cached.size();
    for (int chunk : layout.nearestFirst()) {
      if (missing <= 0) {
        break;
      }
      if (!cached.contains(chunk)) {
        slowest = Math.max(slowest, micros(layout.region(chunk).readLatency()) * factor(sigma, jitter));
        missing--;
      }
    }
    return Math.max(1, Math.round(slowest));
  }

  /** A lognormal factor of mean 1: exp(sigma Z - sigma^2 / 2). */
  private static double factor(double sigma, Random random) {
    return Math.exp(sigma * random.nextGaussian() - sigma * sigma / 2);
  }

  private static List<Integer> intersect(List<Integer> a, List<Integer> b) {
    if (a.isEmpty() || b.isEmpty()) {
      return List.of();
    }
    List<Integer> both = new ArrayList<>(a.size());
    for (int x : a) {
      if (b.contains(x)) {
        both.add(x);
      }
    }
    return both;
  }

  private static long micros(Duration d) {
    return d.toNanos() / 1000;
  }

  /** Independent seeds per stream from one seed (SplitMix64's finaliser). */
  private static long mix(long seed, long stream) {
    long z = seed * 0x9E3779B97F4A7C15L + stream * 0xBF58476D1CE4E5B9L + 0x94D049BB133111EBL;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** A point in simulated time; ties go to ticks, then completions, then issues, then insertion order. */
  private static final class Event implements Comparable<Event> {
    final long time;
    final int type;
    final long seq;
    final int client;
    final String key;
    final boolean measured;
    final long latencyMicros;
    final int cachedChunks;

    Event(long time, int type, long seq, int client, String key, boolean measured, long latencyMicros,
        int cachedChunks) {
      this.time = time;
      this.type = type;
      this.seq = seq;
      this.client = client;
      this.key = key;
      this.measured = measured;
      this.latencyMicros = latencyMicros;
      this.cachedChunks = cachedChunks;
    }

    @Override
    public int compareTo(Event o) {
      int c = Long.compare(time, o.time);
      if (c != 0) {
        return c;
      }
      c = Integer.compare(type, o.type);
      return c != 0 ? c : Long.compare(seq, o.seq);
    }
  }
}
