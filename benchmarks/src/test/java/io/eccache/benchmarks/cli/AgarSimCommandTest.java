package io.eccache.benchmarks.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.benchmarks.sim.agar.AgarSimReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code agar-sim} on short runs through the whole pipeline: runs, CSV, summary, plots. */
class AgarSimCommandTest {
  @TempDir
  Path out;

  @Test
  void bothSweepsWriteTheCsvSummaryAndPlots() throws Exception {
    Path dir = out.resolve("agar");
    int exit = new CommandLine(new EcCacheBench()).execute("agar-sim", "--repeats", "2", "--requests",
        "150", "--warmup-periods", "2", "--out", dir.toString());
    assertEquals(0, exit);

    List<String> raw = Files.readAllLines(dir.resolve("raw.csv"));
    assertEquals(String.join(",", AgarSimReport.CSV_COLUMNS), raw.get(0));
    assertTrue(raw.get(0).endsWith(",jitter_sigma,cache_ms,fill"), raw.get(0));
    assertTrue(raw.get(0).startsWith("sweep,x,cache_chunks,zipf,policy,seed,requests,mean_ms,median_ms,"
        + "p99_ms"), raw.get(0));
    // 2 sweeps x 5 points x 2 seeds x 12 policies.
    assertEquals(2 * 5 * 2 * 12, raw.size() - 1);
    Set<String> policies = new HashSet<>();
    for (String row : raw.subList(1, raw.size())) {
      String[] cells = row.split(",");
      policies.add(cells[4]);
      assertEquals("150", cells[6], row);
      double mean = Double.parseDouble(cells[7]);
      assertTrue(mean > 0 && mean <= 3400, row);
      if (cells[4].equals("backend")) {
        assertEquals(3400, mean, 1e-9, row);
      }
    }
    assertEquals(Set.of("Agar", "LFU-1", "LFU-3", "LFU-5", "LFU-7", "LFU-9", "LRU-1", "LRU-3", "LRU-5",
        "LRU-7", "LRU-9", "backend"), policies);

    String summary = Files.readString(dir.resolve("summary.md"), StandardCharsets.UTF_8);
    assertTrue(summary.contains("command `bin/eccache-bench agar-sim --repeats 2"), summary);
    assertTrue(summary.contains("## Fig. 8a") && summary.contains("## Fig. 8b")
        && summary.contains("## The default setting"), summary);
    assertTrue(summary.contains("Differences from the paper"), summary);
    for (String png : List.of("cache-latency.png", "cache-lead.png", "skew-latency.png", "skew-lead.png",
        "default-latency.png", "default-hits.png", "default-latency-cdf.png")) {
      assertTrue(Files.size(dir.resolve(png)) > 1000, png);
    }
  }

  @Test
  void aBadSweepOrSettingFailsBeforeAnythingIsWritten() {
    Path dir = out.resolve("bad");
    assertNotEquals(0, exitOf("agar-sim", "--sweep", "size", "--out", dir.toString()));
    assertNotEquals(0, exitOf("agar-sim", "--cache-ms", "0", "--out", dir.toString()));
    assertNotEquals(0, exitOf("agar-sim", "--requests", "0", "--out", dir.toString()));
    assertNotEquals(0, exitOf("agar-sim", "--jitter", "-1", "--out", dir.toString()));
    assertNotEquals(0, exitOf("agar-sim", "--fill", "prefetch", "--out", dir.toString()));
    assertFalse(Files.exists(dir));
  }

  private static int exitOf(String... args) {
    return EcCacheBench.commandLine().execute(args);
  }
}
