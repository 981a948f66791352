package io.eccache.benchmarks.sim;

import io.eccache.benchmarks.ComparedScheme;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The simulator's studies: the paper's setup, larger clusters, background load, stragglers, a failure and
 * SP-Cache's setup. A tiny variant of each (a few hundred requests, small clusters) exists for tests.
 */
public final class SimPresets {
  /** Every study's name, in the order {@code --preset all} runs them (validation last). */
  public static final List<String> NAMES =
      List.of("paper", "scale", "background", "stragglers", "failure", "spcache", "validate");

  private static final List<ComparedScheme> ALL = List.of(ComparedScheme.EC, ComparedScheme.SR, ComparedScheme.SP, ComparedScheme.SINGLE);
  private static final List<ComparedScheme> RIVALS = List.of(ComparedScheme.EC, ComparedScheme.SR, ComparedScheme.SP);
  private static final String SKEW = "λ SR 43.45% vs EC 13.14%; SR/EC median 2.64x, mean 2.52x, p99 1.76x,"
      + " p99.9 1.79x";

  /** EC-Cache Figs. 8-9 in the columns of {@link SimReport#RATIO_COLUMNS}. */
  private static final Double[] SKEW_ROW = {2.52, 2.64, 1.76, 1.79, 43.45, 13.14, null, null, null, null};
  private static final Double[] NONE = new Double[SimReport.RATIO_COLUMNS.size()];

  private SimPresets() {}

  /**
   * @param name one of {@link #NAMES} but {@code validate} (see {@link BenchmarkValidation})
   * @param tiny a few hundred requests on small clusters, for tests
   * @return the study
   * @throws IllegalArgumentException for an unknown name
   */
  public static SimPreset named(String name, boolean tiny) {
    switch (name) {
      case "paper": {
        SimulationConfig closed = paper(25, tiny, 200_000);
        Map<String, SimPreset.Run> runs = new LinkedHashMap<>();
        runs.put("closed loop", new SimPreset.Run(closed, ALL));
        // Half the cluster's capacity: SR's hottest server (λ ~ 57%) stays below saturation; a single
        // copy's (λ ~ 240%) would not, so it is left out.
        double capacity = closed.servers() * closed.serverBandwidthBytesPerSec() / closed.objectSizeBytes();
        runs.put("open loop at 50% load", new SimPreset.Run(closed.toBuilder().name("paper-25-open")
            .openLoop(capacity / 2).build(), RIVALS));
        return new SimPreset("paper", "EC-Cache Figs. 8-9 (skew)", SKEW, "", runs,
            "The paper does not give the number of objects or how hard its 30 clients push; here 500"
                + " objects (20 per server), and two loads: closed-loop clients without think time, so"
                + " the links are saturated and the mean latency ratio equals the throughput ratio"
                + " (Little's law); and Poisson arrivals at half the cluster's capacity.", SKEW_ROW);
      }
      case "scale":
        return scale(tiny);
      case "background": {
        SimulationConfig config = paper(25, tiny, 200_000).toBuilder().name("background")
            .background(0.25, 2, 1).build();
        return new SimPreset("background", "EC-Cache Fig. 10 (background network imbalance)",
            "SR/EC median 2.56x, mean 2.47x, p99 1.9x, p99.9 2.56x; λ as without background", "",
            one("25% of links loaded", config, RIVALS),
            "A quarter of the servers carry always-on background flows that share their link as equal"
                + " TCP flows would: 2 on the first, 2/i on the i-th (as the cluster benchmark loads"
                + " them); their bytes are not counted in λ.", 2.47, 2.56, 1.9, 2.56, null, null, null,
            null, null, null);
      }
      case "stragglers": {
        Map<String, SimPreset.Run> runs = new LinkedHashMap<>();
        SimulationConfig base = paper(25, tiny, 200_000);
        runs.put("per transfer 5% x5", new SimPreset.Run(base.toBuilder().name("stragglers-transfer")
            .stragglers(0.05, 5, StragglerMode.PER_TRANSFER).build(), RIVALS));
        runs.put("per server 5% x5", new SimPreset.Run(base.toBuilder().name("stragglers-server")
            .stragglers(0.05, 5, StragglerMode.PER_NODE).stragglerEpochSeconds(1).build(), RIVALS));
        return new SimPreset("stragglers", "EC-Cache 5.2 and Figs. 15-16 (late binding); SP-Cache Fig. 13",
            "EC-Cache: Δ = 1 hides stragglers (Fig. 15: Δ = 0 hurts the tail); SP-Cache: with a node"
                + " straggling w.p. 0.05, SP beats EC-Cache by up to 40% (mean) and 41% (tail)", "", runs,
            "Per transfer: each split or copy read is 5x slower w.p. 0.05 (EC-Cache's model). Per"
                + " server: each server sends 5x slower w.p. 0.05, redrawn every second (SP-Cache's).", NONE);
      }
      case "failure": {
        SimulationConfig config = paper(25, tiny, 200_000).toBuilder().name("failure").deadServer(0).build();
        return new SimPreset("failure", "EC-Cache Fig. 11 (one server dead)", "SR/EC p99 2.7x, p99.9 2.8x",
            "", one("1 of 25 servers dead", config, ALL),
            "Server 0 is dead for the whole run; placement happened before it died and nothing is"
                + " repaired. A read with too few live pieces goes to the under store, charged 1 s.",
            null, null,
            2.7, 2.8, null, null, null, null, null, null);
      }
      case "spcache":
        return spCache(tiny);
      default:
        throw new IllegalArgumentException("unknown preset '" + name + "'; expected one of " + NAMES);
    }
  }

  /** The paper's setup (see {@link SimulationConfig#paper(int)}) with a request count for the budget. */
  private static SimulationConfig paper(int servers, boolean tiny, int requests) {
    SimulationConfig config = SimulationConfig.paper(servers);
    return tiny ? config.toBuilder().requests(400).warmupRequests(100).build()
        : config.toBuilder().requests(requests).build();
  }

  private static SimPreset scale(boolean tiny) {
    Map<String, SimPreset.Run> runs = new LinkedHashMap<>();
    runs.put("25", new SimPreset.Run(paper(25, tiny, 200_000), RIVALS));
    runs.put(tiny ? "50" : "100", new SimPreset.Run(paper(tiny ? 50 : 100, tiny, 100_000), RIVALS));
    if (!tiny) {
      SimulationConfig large = paper(1000, false, 30_000);
      // Closed-loop clients saturate the links, so the rate SP-Cache's coordinator would measure is the
      // cluster's capacity; giving it directly skips two pilot runs and allocations of ~45 s each.
      double capacity = large.servers() * large.serverBandwidthBytesPerSec() / large.objectSizeBytes();
      runs.put("1000", new SimPreset.Run(large.toBuilder().spRequestRatePerSec(capacity).build(), RIVALS));
    }
    return new SimPreset("scale", "beyond the paper: larger clusters",
        "the paper measures 25 servers only; " + SKEW, "servers", runs,
        "Each size keeps the paper's load per server: 1.2 clients and 20 objects per server. At 1000"
            + " servers fewer requests are measured (30,000), and SP-Cache's allocator is given the"
            + " cluster's capacity (servers x bandwidth / object size) as its request rate instead of"
            + " measuring it in pilot runs: one allocation takes ~45 s there.", SKEW_ROW);
  }

  private static SimPreset spCache(boolean tiny) {
    SimulationConfig config = SimulationConfig.builder().name("spcache").servers(30)
        .serverBandwidthBytesPerSec(1e9 / 8).clients(20).objects(tiny ? 100 : 500)
        .objectSizeBytes(100 * SimulationConfig.MB).zipfExponent(1.05).openLoop(18)
        .memoryOverhead(0.4).baseParities(4).requests(tiny ? 300 : 20_000)
        .warmupRequests(tiny ? 50 : 1_000).build();
    return new SimPreset("spcache", "SP-Cache Fig. 10 (load imbalance η)",
        "η SP 0.18, EC-Cache 0.44, SR 1.18 (500 files of 100 MB, Zipf 1.05, 18 req/s Poisson, 30 servers"
            + " at 1 Gbps)", "", one("SP-Cache setup", config, RIVALS),
        "SP-Cache's setup: 30 servers at 1 Gbps, 500 objects of 100 MB, Zipf 1.05, Poisson arrivals at"
            + " 18 req/s. EC-Cache is RS(10, 4) as SP-Cache ran it (40% overhead, nothing left for extra"
            + " parities); selective replication gets the same 40% from our ReplicaAllocator, where"
            + " SP-Cache gave the top 10% four copies (30%). η = (L_max − L_avg)/L_avg over bytes served.",
        null, null, null, null, null, null,
        null, 118.0, 44.0, 18.0);
  }

  private static Map<String, SimPreset.Run> one(String label, SimulationConfig config, List<ComparedScheme> schemes) {
    Map<String, SimPreset.Run> runs = new LinkedHashMap<>();
    runs.put(label, new SimPreset.Run(config, schemes));
    return runs;
  }
}
