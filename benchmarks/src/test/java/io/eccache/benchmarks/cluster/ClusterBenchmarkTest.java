package io.eccache.benchmarks.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.eccache.benchmarks.ComparedScheme;
import io.eccache.benchmarks.report.RunStamp;
import io.eccache.common.ClientKeys;
import io.eccache.common.MasterKeys;
import io.eccache.common.SharedKeys;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.SharedCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver's method on a tiny in-process cluster configured as {@code bench} configures its own:
 * redundancy allocated from the learning pass and pinned through the measured phase, each scheme's
 * phase on its own, and the summary stamped with commit, command and settings.
 */
class ClusterBenchmarkTest {
  @RegisterExtension
  static final SharedCluster CLUSTER = SharedCluster.of(EmbeddedCluster.builder().workers(5)
      .workerMemoryBytes(64L << 20)
      .property(MasterKeys.DEFAULT_K, 2).property(MasterKeys.DEFAULT_R, 1)
      .property(MasterKeys.NAMESPACE_SCHEMES, "sr=replica,sp=partition")
      .property(MasterKeys.POPULARITY_PERIOD, PinnedRetuning.PERIOD.toMillis() + "ms")
      .property(MasterKeys.RETUNE_INTERVAL, "0")
      .property(MasterKeys.MEMORY_OVERHEAD, 0.6)
      .property(SharedKeys.SMALL_OBJECT_THRESHOLD, "16KB")
      .property(ClientKeys.IO_THREADS, 8));

  private static ClusterBenchmark bench;
  private static ClusterBenchmark.Outcome alone;
  private static ClusterBenchmark.Outcome interleaved;

  @TempDir static Path dir;

  @BeforeAll
  static void run() throws Exception {
    EmbeddedCluster cluster = CLUSTER.cluster();
    bench = new ClusterBenchmark(BenchCluster.of(cluster), null, line -> { }, 2,
        new PinnedRetuning(cluster.coordinator()));
    alone = bench.run(settings(BenchSettings.MeasureMode.ALONE));
    interleaved = bench.run(settings(BenchSettings.MeasureMode.INTERLEAVED));
  }

  private static BenchSettings settings(BenchSettings.MeasureMode mode) {
    BenchSettings s = new BenchSettings();
    s.objects = 5;
    s.objectBytes = 128 << 10;
    s.zipf = 1.2;
    s.learning = 40;
    s.requests = 16;
    s.clients = 2;
    s.mode = mode;
    return s;
  }

  @Test
  void theMeasuredPhaseKeepsThePinnedUnits() {
    for (ClusterBenchmark.Outcome o : List.of(alone, interleaved)) {
      assertTrue(o.pinned);
      for (ClusterBenchmark.SchemeResult r : o.schemes.values()) {
        String what = o.settings.mode + " " + r.scheme + ": " + r.hottest;
        assertEquals(0, r.unitsDropped, what);
        assertEquals(0, r.unitsAdded, what);
        assertEquals(r.memory, r.memoryAfter, 1e-12, what);
        assertEquals(0, r.unsettled, what);
        assertEquals(16, r.latencyMicros.getTotalCount(), what);
      }
      // The budget was spent, on the hottest objects: RS(2,1) alone is 1.5x, one copy 1.0x.
      ClusterBenchmark.SchemeResult ec = o.schemes.get(ComparedScheme.EC);
      ClusterBenchmark.SchemeResult sr = o.schemes.get(ComparedScheme.SR);
      assertTrue(ec.memory > 1.5 + 1e-9 && ec.hottestHoldsMost, ec.memory + " " + ec.hottest);
      assertTrue(sr.memory > 1.0 + 1e-9 && sr.hottestHoldsMost, sr.memory + " " + sr.hottest);
      assertTrue(BenchReport.flags(o).isEmpty(), BenchReport.flags(o).toString());
    }
  }

  @Test
  void aloneSchemesDoNotShareALoopAndInterleavedOnesDo() {
    List<ClusterBenchmark.SchemeResult> byStart = new ArrayList<>(alone.schemes.values());
    byStart.sort(Comparator.comparingLong(r -> r.firstIssuedNanos));
    assertEquals(3, byStart.size());
    for (int i = 1; i < byStart.size(); i++) {
      ClusterBenchmark.SchemeResult before = byStart.get(i - 1);
      ClusterBenchmark.SchemeResult after = byStart.get(i);
      assertTrue(before.lastDoneNanos <= after.firstIssuedNanos, before.scheme + " still read"
          + " when " + after.scheme + " began");
    }
    assertEquals(alone.order.get(0), byStart.get(0).scheme);
    // The same check tells the modes apart: interleaved phases do overlap.
    ClusterBenchmark.SchemeResult ec = interleaved.schemes.get(ComparedScheme.EC);
    ClusterBenchmark.SchemeResult sr = interleaved.schemes.get(ComparedScheme.SR);
    assertTrue(ec.firstIssuedNanos < sr.lastDoneNanos && sr.firstIssuedNanos < ec.lastDoneNanos);
  }

  @Test
  void theSummaryCarriesCommitCommandSettingsAndMethod() throws Exception {
    RunStamp stamp = new RunStamp("0123abc-dirty", "bin/eccache-bench bench --zipf 1.2",
        Instant.parse("2026-11-24T23:00:00Z"), 2);
    Map<String, List<ClusterBenchmark.Outcome>> outcomes = new LinkedHashMap<>();
    outcomes.put("zipf 1.2", List.of(alone, alone));
    Scenario scenario = new Scenario("tiny", "Fig. 0", "nothing", "", Map.of());
    String summary = BenchReport.write(dir.resolve("alone"), scenario, outcomes, 5, "unshaped",
        stamp);
    assertTrue(summary.contains("0123abc-dirty") && summary.contains("--zipf 1.2"), summary);
    assertTrue(summary.contains("zipf=1.2") && summary.contains("mode=ALONE")
        && summary.contains("objectBytes=131072") && summary.contains("ioThreads=8"), summary);
    assertTrue(summary.contains("measured **alone**") && summary.contains("pinned")
        && summary.contains("median over 2 runs"), summary);
    assertTrue(summary.contains("Flags: none."), summary);
    List<String> raw = Files.readAllLines(dir.resolve("alone").resolve("raw.csv"));
    assertTrue(raw.get(0).endsWith(",commit") && raw.get(1).endsWith(",0123abc-dirty"),
        raw.toString());
    assertEquals(1 + 2 * 3, raw.size());
    JsonNode json = new ObjectMapper().readTree(
        Files.readString(dir.resolve("alone").resolve("summary.json"), StandardCharsets.UTF_8));
    assertEquals("0123abc-dirty", json.path("stamp").path("commit").asText());
    assertEquals("1.2", json.path("runs").path("zipf 1.2").path("settings").path("zipf")
        .asText());

    outcomes.put("zipf 1.2", List.of(interleaved));
    String other = BenchReport.write(dir.resolve("interleaved"), scenario, outcomes, 5,
        "unshaped", stamp);
    assertTrue(other.contains("**INTERLEAVED**"), other);
    assertFalse(other.contains("measured **alone**"), other);
  }
}
