package io.eccache.benchmarks.packed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.benchmarks.packed.PackedUpdateBench.Mode;
import io.eccache.benchmarks.report.RunStamp;
import io.eccache.client.form.UpdatePhases.Phase;
import io.eccache.testkit.SharedCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tier 2 of LogECMem's evaluation at a tiny size, on a real in-process cluster with log nodes:
 * the hybrid mode's memory, its updates in place timed phase by phase, the master's journal and
 * CPU counted, every value read back, and the report's files.
 */
class PackedUpdateBenchTest {
  /** It starts its own in-process cluster: close this JVM's shared cluster, if any, first. */
  @RegisterExtension
  static final SharedCluster NO_SHARED_CLUSTER = SharedCluster.none();

  @Test
  void hybridUpdatesAreTimedByPhaseCountedAtTheMasterAndReadBack(@TempDir Path out)
      throws Exception {
    PackedUpdateBench.Settings s = new PackedUpdateBench.Settings();
    s.k = 3;
    s.r = 2;
    s.values = 24;
    s.valueBytes = 1024;
    s.updatesPerStep = 12;
    s.threads = List.of(1, 2);
    s.modes = List.of(Mode.HYBRID);
    s.repeats = 1;
    List<PackedUpdateBench.Run> runs = new PackedUpdateBench(s).run(line -> { });

    assertEquals(1, runs.size());
    PackedUpdateBench.Run run = runs.get(0);
    assertEquals(0, run.wrong, "every value reads back as last written");
    // Sealed stripes hold k data units and P1; values not yet in a stripe are replicas.
    assertTrue(run.memoryAfterLoad >= 4 / 3.0 - 0.01, "at least (k+1)/k: " + run.memoryAfterLoad);
    assertEquals(2, run.steps.size());
    for (PackedUpdateBench.Step step : run.steps) {
      assertEquals(12, step.updates, "every update measured");
      assertTrue(step.inPlace > 0, "some values updated in place");
      assertEquals(step.inPlace, step.phases.updates(), "each update in place timed once");
      assertTrue(step.phases.meanMicros(Phase.LOG_ACKS) > 0, "the delta goes to a log node");
      assertTrue(step.phases.meanMicros(Phase.COMMIT) > 0);
      assertTrue(step.journalEntriesPerUpdate >= 1, "a commit is journaled: "
          + step.journalEntriesPerUpdate);
      assertTrue(step.masterCpuMsPerUpdate > 0);
    }

    String summary = PackedUpdateReport.write(out, runs, s,
        new RunStamp("abc", "packed-bench", Instant.now(), 2));
    assertTrue(summary.contains("| LogECMem | 2 |"), summary);
    assertEquals(3, Files.readAllLines(out.resolve("raw.csv")).size(), "a header and 2 steps");
    assertTrue(Files.size(out.resolve("throughput.png")) > 0);
    assertTrue(Files.size(out.resolve("phases.png")) > 0);
  }
}
