package io.eccache.benchmarks.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.benchmarks.agar.AgarClusterReport;
import io.eccache.testkit.SharedCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code agar} through the whole pipeline on a tiny run: a real cluster over six loopback regions,
 * Agar and no cache, the CSV and the summary.
 */
@Timeout(300)
class AgarCommandTest {
  /** The command starts its own cluster: no class's shared one may still run in this JVM. */
  @RegisterExtension
  static final SharedCluster NO_SHARED_CLUSTER = SharedCluster.none();

  @TempDir
  Path out;

  @Test
  void aTinyRunMeasuresAgarAgainstNoCache() throws Exception {
    Path dir = out.resolve("agar");
    int exit = new CommandLine(new EcCacheBench()).execute("agar", "--tiny", "--out",
        dir.toString());
    assertEquals(0, exit);
    List<String> raw = Files.readAllLines(dir.resolve("raw.csv"));
    assertEquals(String.join(",", AgarClusterReport.CSV_COLUMNS), raw.get(0));
    List<String> columns = Arrays.asList(raw.get(0).split(","));
    assertEquals(2, raw.size() - 1, "Agar and no cache, one seed: " + raw);
    for (String row : raw.subList(1, raw.size())) {
      String[] c = row.split(",");
      String policy = c[columns.indexOf("policy")];
      assertEquals("12", c[columns.indexOf("reads")], row);
      double hits = Double.parseDouble(c[columns.indexOf("hit_ratio")]);
      if (policy.equals("backend")) {
        assertEquals(0, hits, 1e-9, "no cache, no hit: " + row);
        assertEquals("0", c[columns.indexOf("cached_splits_at_end")], row);
      } else {
        assertEquals("Agar", policy);
        // A cache as large as every read set: what the warm-up periods read is loaded.
        assertTrue(hits > 0, "Agar cached what was read: " + row);
        assertNotEquals("0", c[columns.indexOf("cached_splits_at_end")], row);
      }
    }
    String summary = Files.readString(dir.resolve("summary.md"), StandardCharsets.UTF_8);
    assertTrue(summary.contains("command `bin/eccache-bench agar --tiny"), summary);
    assertTrue(summary.contains("Differences from the paper"), summary);
    assertFalse(summary.contains("Not run."), summary);
  }

  @Test
  void anUnknownProfileIsRefusedBeforeAnythingStarts() {
    Path dir = out.resolve("none");
    int exit = new CommandLine(new EcCacheBench()).execute("agar", "--profile", "huge", "--out",
        dir.toString());
    assertNotEquals(0, exit);
    assertFalse(Files.exists(dir));
  }

  @Test
  void aBadPeriodOrSweepIsRefusedBeforeAnythingStarts() {
    for (String[] bad : new String[][] {{"--period", "0s"}, {"--period", "soon"},
        {"--sweeps", "default,size"}}) {
      Path dir = out.resolve("bad");
      java.io.StringWriter err = new java.io.StringWriter();
      CommandLine cli = new CommandLine(new EcCacheBench());
      cli.setErr(new java.io.PrintWriter(err));
      int exit = cli.execute("agar", bad[0], bad[1], "--out", dir.toString());
      assertNotEquals(0, exit, String.join(" ", bad));
      assertTrue(err.toString().contains(bad[0]), err.toString());
      assertFalse(Files.exists(dir));
    }
  }
}
