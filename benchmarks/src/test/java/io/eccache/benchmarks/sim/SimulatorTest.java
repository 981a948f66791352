package io.eccache.benchmarks.sim;

import io.eccache.benchmarks.ComparedScheme;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.common.RedundancyScheme;
import io.eccache.policy.RedundancyPlanner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.junit.jupiter.api.Test;

/** The simulator's end-to-end behaviour on small configurations, each in well under a second. */
class SimulatorTest {
  private static final long MB = SimulationConfig.MB;
  private static final double BANDWIDTH = 100e6;

  /** 25 servers, 100 objects of 40 MB, Zipf 0.9, 30 clients: the paper's shape, small. */
  private static SimulationConfig.Builder small() {
    return SimulationConfig.builder().name("small").objects(100).requests(3_000).warmupRequests(300);
  }

  /** One client, one object, 12 idle servers of 100 MB/s: every read runs alone. */
  private static SimulationConfig.Builder alone() {
    return SimulationConfig.builder().servers(12).serverBandwidthBytesPerSec(BANDWIDTH).clients(1)
        .objects(1).objectSizeBytes(40 * MB).requests(50).warmupRequests(0);
  }

  @Test
  void aLoneReadOfACopyTakesSizeOverBandwidth() {
    SimulationResult r = Simulator.run(alone().build(), ComparedScheme.SR);
    double expected = 40 * MB / BANDWIDTH * 1e3;
    assertEquals(expected, r.latency().medianMillis(), expected * 1e-3);
    assertEquals(expected, r.latency().maxMillis(), expected * 1e-3);
  }

  @Test
  void aLoneEcReadTakesOneSplitTimePlusDecodeWhenAParityIsUsed() {
    double decodeRate = 1e9;
    SimulationResult r = Simulator.run(alone().decodeThroughputBytesPerSec(decodeRate).build(), ComparedScheme.EC);
    double split = 4 * MB / BANDWIDTH * 1e3;
    double decode = 40 * MB / decodeRate * 1e3;
    // k + Delta = 11 splits from 11 servers at full speed all end together; whether a parity is among
    // the first k decides the decode.
    Histogram h = r.latencyMicros();
    for (HistogramIterationValue v : h.recordedValues()) {
      double ms = v.getValueIteratedTo() / 1e3;
      assertTrue(Math.abs(ms - split) < split * 1e-3
          || Math.abs(ms - split - decode) < 1e-3 * (split + decode),
          "latency " + ms + " ms is neither " + split + " nor " + (split + decode));
    }
    double mean = split + decode * r.decodeCount() / (double) r.completedRequests();
    assertEquals(mean, r.latency().meanMillis(), mean * 2e-3);
  }

  @Test
  void equalSeedsGiveEqualResultsAndOthersDiffer() {
    SimulationConfig config = small().build();
    for (ComparedScheme scheme : List.of(ComparedScheme.EC, ComparedScheme.SR)) {
      SimulationResult a = Simulator.run(config, scheme);
      SimulationResult b = Simulator.run(config, scheme);
      assertArrayEquals(a.bytesPerServer(), b.bytesPerServer());
      assertEquals(a.latencyMicros(), b.latencyMicros());
      SimulationResult c = Simulator.run(config.toBuilder().seed(7).build(), scheme);
      assertNotEquals(a.latency().meanMillis(), c.latency().meanMillis());
    }
  }

  @Test
  void memoryIsOneCopyPlusTheBudget() {
    SimulationConfig config = small().requests(10).build();
    for (ComparedScheme scheme : List.of(ComparedScheme.EC, ComparedScheme.SR)) {
      double memory = Simulator.run(config, scheme).memoryFactor();
      // Within one unit (a 4 MB parity or a 40 MB copy) of the 15% budget over 4000 MB.
      assertTrue(memory > 1.14 && memory <= 1.1501, scheme + " memory " + memory);
    }
    assertEquals(1.0, Simulator.run(config, ComparedScheme.SINGLE).memoryFactor(), 1e-12);
  }

  @Test
  void ecBalancesLoadBetterThanReplicationAndAccountsEveryByte() {
    SimulationConfig config = small().build();
    SimulationResult ec = Simulator.run(config, ComparedScheme.EC);
    SimulationResult sr = Simulator.run(config, ComparedScheme.SR);
    assertTrue(ec.lambdaPercent() < sr.lambdaPercent() / 2,
        "λ EC " + ec.lambdaPercent() + " vs SR " + sr.lambdaPercent());
    assertTrue(sr.latency().p99Millis() > ec.latency().p99Millis());
    // A copy is read whole; EC reads k splits plus Delta extra ones, read whole by default.
    assertEquals(sr.usefulBytes(), sr.servedBytes());
    assertEquals(0, sr.extraBytes());
    assertEquals(3_000 * 40 * MB, ec.usefulBytes());
    assertEquals(ec.usefulBytes() + ec.extraBytes(), ec.servedBytes(), 3_000);
  }

  @Test
  void aDeadServerSendsNothingAndOnlyUncodedSchemesFallBack() {
    SimulationConfig config = small().deadServer(3).build();
    SimulationResult single = Simulator.run(config, ComparedScheme.SINGLE);
    SimulationResult ec = Simulator.run(config, ComparedScheme.EC);
    assertTrue(single.fallbackCount() > 0, "objects on the dead server go to the under store");
    assertEquals(0, ec.fallbackCount(), "k of k + r splits survive one dead server");
    assertEquals(0, single.bytesPerServer()[3]);
    assertEquals(0, ec.bytesPerServer()[3]);
    assertEquals(1000.0, single.latency().maxMillis(), 1.0, "a fallback costs the configured 1 s");
  }

  @Test
  void interleavedSchemesEachServeEveryRequestOfAReplay() {
    int[] sequence = new int[40];
    SimulationConfig config = SimulationConfig.builder().servers(12).clients(4).objectSizeBytes(8 * MB)
        .replay(new double[] {5, 1, 1, 1}, sequence).build();
    Map<ComparedScheme, SimulationResult> results = Simulator.runInterleaved(config, List.of(ComparedScheme.EC, ComparedScheme.SR));
    for (SimulationResult r : results.values()) {
      assertEquals(40, r.completedRequests());
      assertEquals(40 * 8 * MB, r.usefulBytes());
    }
    // Every request is for object 0: replication reads its copies only, so at most that many servers
    // send anything.
    SimulationResult sr = results.get(ComparedScheme.SR);
    long busy = java.util.Arrays.stream(sr.bytesPerServer()).filter(b -> b > 0).count();
    assertTrue(busy <= sr.unitsByRank()[0], busy + " servers sent, " + sr.unitsByRank()[0] + " copies");
  }

  /** 12 servers at 200 Mbit/s, 4 clients, 16 objects of 8 MiB: the cluster benchmark's quick shape. */
  private static SimulationConfig.Builder benchShape() {
    return SimulationConfig.builder().servers(12).serverBandwidthBytesPerSec(25e6).clients(4).objects(16)
        .objectSizeBytes(8 * MB).requests(300).warmupRequests(30);
  }

  @Test
  void interleavingTheSchemesMakesEcLookFasterThanAlone() {
    SimulationConfig config = benchShape().build();
    List<ComparedScheme> schemes = List.of(ComparedScheme.EC, ComparedScheme.SR, ComparedScheme.SP);
    Map<ComparedScheme, SimulationResult> alone = Simulator.simulate(config, schemes, SimMode.ALONE);
    Map<ComparedScheme, SimulationResult> mixed = Simulator.simulate(config, schemes, SimMode.INTERLEAVED);
    // Same placement and allocation in both modes: only the sharing of the links differs.
    for (ComparedScheme scheme : List.of(ComparedScheme.EC, ComparedScheme.SR)) {
      assertArrayEquals(alone.get(scheme).unitsByRank(), mixed.get(scheme).unitsByRank());
    }
    // Alone, each scheme runs as if simulated by itself.
    assertEquals(Simulator.run(config, ComparedScheme.EC).latencyMicros(),
        alone.get(ComparedScheme.EC).latencyMicros());
    // Interleaved, EC's reads overlap SR's and SP's on the hot links only part of the time, while alone its
    // 4 clients keep every link busy with EC reads: EC looks faster interleaved (issue 14).
    double ecAlone = alone.get(ComparedScheme.EC).latency().meanMillis();
    double ecMixed = mixed.get(ComparedScheme.EC).latency().meanMillis();
    assertTrue(ecMixed < ecAlone, "EC mean interleaved " + ecMixed + " ms vs alone " + ecAlone + " ms");
    double ratioAlone = alone.get(ComparedScheme.SR).latency().meanMillis() / ecAlone;
    double ratioMixed = mixed.get(ComparedScheme.SR).latency().meanMillis() / ecMixed;
    assertTrue(ratioMixed > ratioAlone, "SR/EC interleaved " + ratioMixed + " vs alone " + ratioAlone);
  }

  @Test
  void theExtraSplitIsReadWholeSoExtraBytesAreDeltaOverK() {
    for (int delta : new int[] {1, 2}) {
      // As many base parities as extra reads, so every read has Δ splits beyond k to send.
      SimulationResult ec = Simulator.run(small().requests(500).delta(delta).baseParities(delta)
          .lateBinding(LateBinding.WHOLE).build(), ComparedScheme.EC);
      long needed = ec.servedBytes() - ec.extraBytes();
      // 40 MiB in 10 splits of 4 MiB: every read needs 40 MiB and sends Δ more splits whole.
      assertEquals(ec.usefulBytes(), needed);
      assertEquals(500L * delta * 4 * MB, ec.extraBytes());
      assertEquals(100.0 * delta / 10, ec.extraPercent(), 1e-9);
      assertEquals(0, ec.savedBytes());
    }
  }

  @Test
  void sliceAndInstantCancellationSendLessThanWholeButNoLessThanNothing() {
    // The default is what the client's links carry: the whole split (Alluxio sends ahead).
    assertEquals(LateBinding.WHOLE, small().build().lateBinding());
    SimulationConfig whole = small().requests(500).build();
    SimulationResult w = Simulator.run(whole, ComparedScheme.EC);
    SimulationResult slice = Simulator.run(whole.toBuilder().lateBinding(LateBinding.SLICE)
        .cancelSliceBytes(MB).build(), ComparedScheme.EC);
    SimulationResult instant = Simulator.run(whole.toBuilder().lateBinding(LateBinding.INSTANT).build(),
        ComparedScheme.EC);
    assertTrue(instant.extraBytes() < slice.extraBytes() && slice.extraBytes() < w.extraBytes(),
        "instant " + instant.extraBytes() + ", slice " + slice.extraBytes() + ", whole " + w.extraBytes());
    for (SimulationResult r : List.of(slice, instant)) {
      assertEquals(w.extraBytes(), r.extraBytes() + r.savedBytes(), 1_000, "sent and saved make the splits");
      assertEquals(r.usefulBytes() + r.extraBytes(), r.servedBytes(), 1_000);
    }
    // A slice no smaller than the split leaves nothing to cancel: the same as reading it whole.
    SimulationResult bigSlice = Simulator.run(whole.toBuilder().lateBinding(LateBinding.SLICE)
        .cancelSliceBytes(4 * MB).build(), ComparedScheme.EC);
    assertEquals(w.extraBytes(), bigSlice.extraBytes());
    assertEquals(w.latencyMicros(), bigSlice.latencyMicros());
  }

  @Test
  void allocationIsTheCoordinatorPlannersFromTheSamePopularity() {
    double[] counts = {40, 12, 6, 1, 1, 0};
    int[] sequence = {0, 0, 1, 2, 0, 3, 4, 0};
    SimulationConfig config = SimulationConfig.builder().servers(14).clients(2).objectSizeBytes(40 * MB)
        .memoryOverhead(0.3).replay(counts, sequence).build();
    for (ComparedScheme scheme : List.of(ComparedScheme.EC, ComparedScheme.SR)) {
      RedundancyScheme start = scheme == ComparedScheme.EC ? RedundancyScheme.erasureCoded(10, 1)
          : RedundancyScheme.replicated(1);
      List<String> workers = new ArrayList<>();
      List<String> twice = new ArrayList<>();
      for (int w = 0; w < 14; w++) {
        workers.add("w" + w);
      }
      twice.addAll(workers);
      twice.addAll(workers);
      List<RedundancyPlanner.ObjectState> states = new ArrayList<>();
      for (int i = 0; i < counts.length; i++) {
        states.add(new RedundancyPlanner.ObjectState("key-" + i, "v1", start, 40 * MB,
            start.unitBytes(40 * MB), true, true, twice.subList(i, i + start.splits()), counts[i], 1));
      }
      RedundancyPlanner.Result plan = new RedundancyPlanner(0.3, 25e6).plan(states, workers, 0,
          new Random(1));
      int[] expected = new int[counts.length];
      for (int i = 0; i < counts.length; i++) {
        expected[i] = plan.targets.get("key-" + i).redundancy();
      }
      int[] units = Simulator.run(config, scheme).unitsByRank();
      assertArrayEquals(expected, units, scheme.toString());
      assertTrue(units[0] > units[5], scheme + ": the hottest object holds more units: "
          + java.util.Arrays.toString(units));
    }
  }

  @Test
  void pinnedUnitsAreUsedAsGivenAndLearnedPopularityDiffersFromZipf() {
    int[] copies = {3, 1, 1, 2};
    SimulationConfig pinned = SimulationConfig.builder().servers(12).clients(2).objects(4)
        .objectSizeBytes(8 * MB).requests(20).warmupRequests(0).pinnedUnits(ComparedScheme.SR, copies)
        .build();
    SimulationResult sr = Simulator.run(pinned, ComparedScheme.SR);
    assertArrayEquals(copies, sr.unitsByRank());
    assertEquals(7.0 / 4, sr.memoryFactor(), 1e-12);

    SimulationConfig learned = small().learningRequests(50).build();
    double[] counts = learned.allocatorPopularity();
    assertEquals(50, java.util.Arrays.stream(counts).sum(), 1e-9);
    assertArrayEquals(counts, learned.allocatorPopularity(), "a seed's learning pass is reproducible");
    double[] zipf = learned.toBuilder().popularityInput(PopularityInput.ZIPF).build().allocatorPopularity();
    assertEquals(1.0, java.util.Arrays.stream(zipf).sum(), 1e-9);
  }

  @Test
  void anOpenLoopBeyondCapacityStopsWithAnErrorInsteadOfExhaustingTheHeap() {
    SimulationConfig config = benchShape().requests(1_000_000).build();
    double capacity = 12 * 25e6 / (8 * MB);
    IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
        () -> Simulator.run(config.toBuilder().openLoop(3 * capacity).build(), ComparedScheme.SR));
    assertTrue(e.getMessage().contains("outpace"), e.getMessage());
  }

  @Test
  void beyondTheCoordinatorsSplitCapTheAllocatorsAreCalledDirectly() {
    SimulationConfig big = SimulationConfig.builder().servers(300).clients(4).objects(30)
        .objectSizeBytes(8 * MB).requests(50).warmupRequests(0).spRequestRatePerSec(1e6).build();
    assertEquals(PlannedAllocation.DIRECT, PlannedAllocation.source(big));
    assertEquals(PlannedAllocation.PLANNER, PlannedAllocation.source(small().build()));
    // At a rate that saturates the cluster SP-Cache wants more partitions than the coordinator's 255.
    int[] partitions = Simulator.run(big, ComparedScheme.SP).unitsByRank();
    assertTrue(partitions[0] > RedundancyScheme.MAX_SPLITS, "hottest object's partitions " + partitions[0]);
  }
}
