package io.eccache.benchmarks.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eccache.benchmarks.ComparedScheme;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Repeats short of their redundancy target run again on new seeds, on made-up outcomes. */
class RepeatsTest {
  private static final java.io.PrintStream QUIET =
      new java.io.PrintStream(java.io.OutputStream.nullOutputStream());

  /** An outcome whose SP-Cache had {@code unsettled} objects short of their target. */
  private static ClusterBenchmark.Outcome outcome(BenchSettings s, int unsettled) {
    ClusterBenchmark.Outcome o = new ClusterBenchmark.Outcome(s);
    ClusterBenchmark.SchemeResult sp = new ClusterBenchmark.SchemeResult(ComparedScheme.SP);
    sp.unsettled = unsettled;
    o.schemes.put(ComparedScheme.SP, sp);
    return o;
  }

  @Test
  void aRepeatShortOfItsTargetRunsAgainOnANewSeed() throws Exception {
    BenchSettings base = new BenchSettings();
    base.seed = 1;
    Set<Long> shortSeeds = Set.of(2L, 4L); // seed 2 falls short, and so does its first rerun
    List<Long> ran = new ArrayList<>();
    List<Long> seeds = new ArrayList<>();
    List<ClusterBenchmark.Outcome> reps = Repeats.run("zipf 0.9", base, 3, s -> {
      ran.add(s.seed);
      return outcome(s, shortSeeds.contains(s.seed) ? 1 : 0);
    }, seeds, QUIET);
    assertEquals(List.of(1L, 2L, 4L, 5L, 3L), ran);
    assertEquals(List.of(1L, 5L, 3L), seeds);
    assertEquals(3, reps.size());
    assertEquals(List.of(), reps.get(0).replaced);
    assertEquals(List.of(
        "seed 2: sp: 1 objects not at their target redundancy when measuring began",
        "seed 4: sp: 1 objects not at their target redundancy when measuring began"),
        reps.get(1).replaced);
    assertEquals("1, 5, 3", Repeats.seedList(seeds));
  }

  @Test
  void aRepeatThatNeverReachesItsTargetIsKeptFlaggedAfterTheLastRerun() throws Exception {
    BenchSettings base = new BenchSettings();
    base.seed = 7;
    List<Long> seeds = new ArrayList<>();
    List<ClusterBenchmark.Outcome> reps = Repeats.run("run", base, 1,
        s -> outcome(s, 2), seeds, QUIET);
    assertEquals(Repeats.MAX_RERUNS, reps.get(0).replaced.size());
    assertEquals(2, reps.get(0).schemes.get(ComparedScheme.SP).unsettled); // its flag stays
    assertEquals("7-8", Repeats.seedList(List.of(7L, 8L)));
    assertEquals("9", Repeats.seedList(seeds));
  }

  @Test
  void aRepeatWhosePhaseBeganBeforeAKilledWorkerWasRestoredRunsAgain() throws Exception {
    BenchSettings base = new BenchSettings();
    base.seed = 1;
    List<Long> seeds = new ArrayList<>();
    List<ClusterBenchmark.Outcome> reps = Repeats.run("killed", base, 1, s -> {
      ClusterBenchmark.Outcome o = outcome(s, 0);
      o.killed.add("w1");
      o.phasesNotWhole = s.seed == 1 ? 1 : 0;
      return o;
    }, seeds, QUIET);
    assertEquals(List.of(2L), seeds);
    assertEquals(List.of("seed 1: 1 phase(s) began with objects not whole after the last phase's"
        + " kill"), reps.get(0).replaced);
  }
}
