package io.eccache.benchmarks.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.benchmarks.ComparedScheme;
import io.eccache.benchmarks.report.RunStamp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The summary's flags, on made-up outcomes. */
class BenchReportTest {
  @TempDir Path dir;

  private static ClusterBenchmark.Outcome outcome(long ecTcOnW2) {
    BenchSettings s = new BenchSettings();
    ClusterBenchmark.Outcome o = new ClusterBenchmark.Outcome(s);
    o.shaped = true;
    o.pinned = true;
    for (ComparedScheme ns : List.of(ComparedScheme.EC, ComparedScheme.SR)) {
      ClusterBenchmark.SchemeResult r = new ClusterBenchmark.SchemeResult(ns);
      r.latencyMicros.recordValue(ns == ComparedScheme.EC ? 1000 : 2500);
      r.putMicros.recordValue(3000);
      r.bytesByWorker = new TreeMap<>(Map.of("w1", 1000L, "w2", 1000L));
      r.usefulBytes = 2000;
      r.memory = 1.15;
      r.memoryAfter = 1.15;
      o.schemes.put(ns, r);
    }
    o.shaperBytesByWorker = new TreeMap<>(Map.of("w1", 2000L, "w2", 2000L + ecTcOnW2));
    return o;
  }

  @Test
  void aByteRatioAbove105PercentFlagsTheRun() throws Exception {
    assertEquals(List.of(), BenchReport.flags(outcome(100))); // 1.05x: agrees
    List<String> flags = BenchReport.flags(outcome(700)); // 1.35x on w2
    assertEquals(1, flags.size(), flags.toString());
    assertTrue(flags.get(0).contains("w2 1.350x"), flags.toString());
    Scenario scenario = new Scenario("made-up", "Fig. 0", "nothing", "", Map.of());
    String summary = BenchReport.write(dir, scenario, Map.of("run", List.of(outcome(700))), 2,
        "200 Mbit/s per worker", new RunStamp("abc", "bench", Instant.EPOCH, 2));
    assertTrue(summary.contains("**FLAGGED**") && summary.contains("1.350x FLAGGED"), summary);
  }

  @Test
  void s3FallbackBytesExplainAnExcessUpToTheirAmountAndAreServedBytes() throws Exception {
    // 700 bytes more on w2 than the clients counted per worker: 700 bytes of S3 fallback reads
    // went through some worker, which the clients cannot name.
    ClusterBenchmark.Outcome explained = outcome(700);
    explained.schemes.get(ComparedScheme.SR).fallbacks = 1;
    explained.schemes.get(ComparedScheme.SR).fallbackBytes = 700;
    assertEquals(List.of(), BenchReport.flags(explained));
    // 100 bytes of fallbacks do not explain 700 (600 beyond 1.05x).
    ClusterBenchmark.Outcome unexplained = outcome(700);
    unexplained.schemes.get(ComparedScheme.SR).fallbackBytes = 100;
    assertEquals(1, BenchReport.flags(unexplained).size());
    assertEquals(2700, new BenchReport.Numbers(explained.schemes.get(ComparedScheme.SR), 2).served);

    // Late binding stopped reads on w2: their unread 700 bytes had been sent ahead.
    ClusterBenchmark.Outcome stopped = outcome(700);
    stopped.schemes.get(ComparedScheme.EC).unreadByWorker = new TreeMap<>(Map.of("w2", 700L));
    assertEquals(List.of(), BenchReport.flags(stopped));
    BenchReport.Numbers ec = new BenchReport.Numbers(stopped.schemes.get(ComparedScheme.EC), 2);
    assertEquals(0, ec.extraPercent, 1e-9, "read: the 2000 bytes delivered");
    assertEquals(35, ec.extraSentPercent, 1e-9, "sent: 700 more");

    explained.schemes.get(ComparedScheme.EC).unitsByObject = new int[] {3, 1};
    explained.schemes.get(ComparedScheme.SR).unitsByObject = new int[] {2, 1};
    Scenario scenario = new Scenario("made-up", "Fig. 0", "nothing", "", Map.of());
    String summary = BenchReport.write(dir, scenario, Map.of("run", List.of(explained)), 2,
        "200 Mbit/s per worker", new RunStamp("abc", "bench", Instant.EPOCH, 2));
    assertTrue(summary.contains("Flags: none."), summary);
    assertEquals(List.of("run,repeat,seed,scheme,object,units", "run,1,1,ec,0,3", "run,1,1,ec,1,1",
        "run,1,1,sr,0,2", "run,1,1,sr,1,1"), Files.readAllLines(dir.resolve("units.csv")));
  }

  @Test
  void redundancyThatChangedDuringThePhaseIsFlagged() {
    ClusterBenchmark.Outcome o = outcome(0);
    ClusterBenchmark.SchemeResult sr = o.schemes.get(ComparedScheme.SR);
    sr.memoryAfter = 1.05;
    sr.unitsDropped = 2;
    List<String> flags = BenchReport.flags(o);
    assertEquals(1, flags.size(), flags.toString());
    assertTrue(flags.get(0).startsWith("sr redundancy changed during the phase: memory 1.150x"
        + " before, 1.050x after; 2 units dropped, 0 added; 0 objects rewritten"),
        flags.toString());
  }

  @Test
  void unitsASigkilledWorkerTookAreTheScenarioNotAFlag() {
    ClusterBenchmark.Outcome o = outcome(0);
    o.killed.add("w2");
    ClusterBenchmark.SchemeResult ec = o.schemes.get(ComparedScheme.EC);
    ec.memoryAfter = 1.10;
    ec.unitsDropped = 7;
    assertEquals(List.of(), BenchReport.flags(o));
    ec.unitsAdded = 1; // but a unit added mid-phase is the coordinator retuning: flagged
    assertEquals(1, BenchReport.flags(o).size(), BenchReport.flags(o).toString());
  }

  @Test
  void aSchemeShortOfItsTargetIsNotAsPinnedAndFlagged() {
    ClusterBenchmark.Outcome o = outcome(0);
    assertEquals(List.of(), BenchReport.notAsPinned(o));
    o.schemes.get(ComparedScheme.SR).unsettled = 1;
    assertEquals(List.of("sr: 1 objects not at their target redundancy when measuring began"),
        BenchReport.notAsPinned(o));
    assertEquals(BenchReport.notAsPinned(o), BenchReport.flags(o));
  }

  @Test
  void aPhaseBegunBeforeTheKilledWorkersUnitsWereBackIsNotAsPinned() {
    ClusterBenchmark.Outcome o = outcome(0);
    o.killed.add("w2");
    o.phasesNotWhole = 1;
    assertEquals(List.of("1 phase(s) began with objects not whole after the last phase's kill"),
        BenchReport.notAsPinned(o));
    o.phasesNotWhole = 0;
    o.schemes.get(ComparedScheme.EC).unitsAdded = 3; // repaired mid-phase: not the kill
    assertEquals(1, BenchReport.notAsPinned(o).size(), BenchReport.notAsPinned(o).toString());
  }

  @Test
  void aReplacedRepeatIsNamedInTheSummary() throws Exception {
    ClusterBenchmark.Outcome o = outcome(100);
    o.replaced.add("seed 2: sp: 1 objects not at their target redundancy when measuring began");
    Scenario scenario = new Scenario("made-up", "Fig. 0", "nothing", "", Map.of());
    String summary = BenchReport.write(dir, scenario, Map.of("run", List.of(o)), 2,
        "200 Mbit/s per worker", new RunStamp("abc", "bench", Instant.EPOCH, 2));
    assertTrue(summary.contains("Flags: none."), summary);
    assertTrue(summary.contains("Run again (redundancy not as pinned, not published):"
        + "\n\n- run, repeat 1 replaced seed 2: sp: 1 objects not at their target"), summary);
  }
}
