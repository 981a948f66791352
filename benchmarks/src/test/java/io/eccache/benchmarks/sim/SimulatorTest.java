package io.eccache.benchmarks.sim;

import io.eccache.benchmarks.ComparedScheme;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
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
    // A copy is read whole; EC reads k splits plus up to Delta cancelled ones.
    assertEquals(sr.usefulBytes(), sr.servedBytes());
    assertEquals(3_000 * 40 * MB, ec.usefulBytes());
    assertTrue(ec.servedBytes() > ec.usefulBytes() && ec.servedBytes() <= ec.usefulBytes() * 1.1 + 1_000,
        "served " + ec.servedBytes() + " for " + ec.usefulBytes());
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
}
