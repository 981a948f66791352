package io.eccache.benchmarks.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.testkit.SharedCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

/** {@code eccache-bench check} end to end for a few seconds, with a cell size of the user's. */
class CheckCommandTest {
  /** It starts its own in-process cluster: close this JVM's shared cluster, if any, first. */
  @RegisterExtension
  static final SharedCluster NO_SHARED_CLUSTER = SharedCluster.none();

  @Test
  void checksForSecondsOnTheCellSizeItWasGiven() {
    CapturedRun run = CapturedRun.of(() -> new CommandLine(new EcCacheBench()).execute("check",
        "--workers", "4", "--keys", "2", "--threads", "3", "--seconds", "3",
        "--max-object", "200000", "-D", "alluxio.master.eccache.cell.size=64KB"));
    assertEquals(0, run.exit, run.stdout);
    // Its own default is 256KB: a -D is the user's choice, not refused as the command's own key.
    assertTrue(run.stdout.contains("cell size 64KB (alluxio.master.eccache.cell.size)"),
        run.stdout);
    assertTrue(run.stdout.contains("0 violations, 0 hangs"), run.stdout);
  }
}
