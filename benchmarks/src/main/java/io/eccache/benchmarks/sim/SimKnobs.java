package io.eccache.benchmarks.sim;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Workload and cluster settings given on the command line, applied over every run of a study: each one
 * set replaces the preset's value (the swept value too), each one left null keeps it. Mutable, as
 * picocli fills it; {@link #apply} does not change it. An open-loop run keeps its arrival rate's share of
 * the cluster's capacity (servers x link / object size) when the knobs change that capacity.
 */
public final class SimKnobs {
  /** Zipf exponent of object popularity. */
  public Double zipf;
  /** Object size, MiB (may be fractional). */
  public Double objectMib;
  /** Distinct objects. */
  public Integer objects;
  /** Measured requests (per repeat). */
  public Integer requests;
  /** Closed-loop clients. */
  public Integer clients;
  /** Seed of the first repeat; repeat i uses seed + i. */
  public Long seed;
  /** Cache servers (workers). */
  public Integer workers;
  /** Each server's link, Mbit/s. */
  public Double workerMbit;
  /** EC data splits. */
  public Integer k;
  /** EC parities every object gets (the base r). */
  public Integer r;
  /** EC extra reads. */
  public Integer delta;
  /** Memory budget beyond one copy, as a fraction (0.15). */
  public Double budget;
  /** Where the allocation's popularity comes from. */
  public PopularityInput popularity;
  /** Requests of the learning pass. */
  public Integer learning;
  /** What happens to EC's extra splits. */
  public LateBinding lateBinding;
  /** Slice size of {@link LateBinding#SLICE}, KiB. */
  public Integer sliceKib;

  /**
   * @param config a preset's run
   * @return it with every set knob applied
   * @throws IllegalArgumentException if a knob's value is out of range
   */
  public SimulationConfig apply(SimulationConfig config) {
    SimulationConfig.Builder b = config.toBuilder();
    if (zipf != null) {
      b.zipfExponent(zipf);
    }
    if (objectMib != null) {
      b.objectSizeBytes(Math.round(objectMib * SimulationConfig.MB));
    }
    if (objects != null) {
      b.objects(objects);
    }
    if (requests != null) {
      b.requests(requests);
    }
    if (clients != null) {
      b.clients(clients);
    }
    if (workers != null) {
      b.servers(workers);
    }
    if (workerMbit != null) {
      b.serverBandwidthBytesPerSec(workerMbit * 1e6 / 8);
    }
    if (k != null) {
      b.k(k);
    }
    if (r != null) {
      b.baseParities(r);
    }
    if (delta != null) {
      b.delta(delta);
    }
    if (budget != null) {
      b.memoryOverhead(budget);
    }
    if (popularity != null) {
      b.popularityInput(popularity);
    }
    if (learning != null) {
      b.learningRequests(learning);
    }
    if (lateBinding != null) {
      b.lateBinding(lateBinding);
    }
    if (sliceKib != null) {
      b.cancelSliceBytes(sliceKib * 1024L);
    }
    if (seed != null) {
      b.seed(seed);
    }
    SimulationConfig adjusted = b.build();
    if (!config.closedLoop()) {
      // An open loop keeps its share of the cluster's capacity, which the knobs may have changed.
      double share = config.openLoopRatePerSec() / capacity(config);
      adjusted = adjusted.toBuilder().openLoop(share * capacity(adjusted)).build();
    }
    return adjusted;
  }

  /** Whole objects per second all server links can send. */
  private static double capacity(SimulationConfig c) {
    return c.servers() * c.serverBandwidthBytesPerSec() / c.objectSizeBytes();
  }

  /** @return the knobs that are set, by option name, for the summary's stamp */
  public Map<String, String> given() {
    Map<String, String> m = new LinkedHashMap<>();
    put(m, "zipf", zipf);
    put(m, "object-mib", objectMib);
    put(m, "objects", objects);
    put(m, "requests", requests);
    put(m, "clients", clients);
    put(m, "seed", seed);
    put(m, "workers", workers);
    put(m, "worker-mbit", workerMbit);
    put(m, "k", k);
    put(m, "r", r);
    put(m, "delta", delta);
    put(m, "budget", budget);
    put(m, "popularity", popularity == null ? null : popularity.name().toLowerCase(Locale.ROOT));
    put(m, "learning", learning);
    put(m, "late-binding", lateBinding == null ? null : lateBinding.name().toLowerCase(Locale.ROOT));
    put(m, "slice-kib", sliceKib);
    return m;
  }

  private static void put(Map<String, String> m, String name, Object value) {
    if (value != null) {
      m.put(name, String.valueOf(value));
    }
  }
}
