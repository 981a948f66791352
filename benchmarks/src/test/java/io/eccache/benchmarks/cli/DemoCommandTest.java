package io.eccache.benchmarks.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.LoopbackShaper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The demo end to end at a tiny size: its table has every scheme with sane numbers. */
class DemoCommandTest {
  /** It starts its own in-process cluster: close this JVM's shared cluster, if any, first. */
  @RegisterExtension
  static final SharedCluster NO_SHARED_CLUSTER = SharedCluster.none();

  @Test
  void demoPrintsEverySchemeWithMemoryLatenciesAndImbalance(@TempDir Path report)
      throws Exception {
    CapturedRun run = CapturedRun.of(() -> new CommandLine(new EcCacheBench()).execute("demo",
        "--workers", "4", "-k", "2", "-r", "1", "--objects", "6", "--object-mib", "1",
        "--requests", "30", "--clients", "2", "--out", report.toString()));
    int exit = run.exit;
    String out = run.stdout;
    assertEquals(0, exit, out);
    assertTrue(out.contains("30 GETs per scheme (alone, pinned)"), out);
    // As root the links are shaped and one worker straggles; else the demo says what it lacks.
    assertEquals(LoopbackShaper.isAvailable(), out.contains("straggler(s) during the measured"
        + " phase: 127.0.0."), out);
    assertEquals(!LoopbackShaper.isAvailable(), out.contains("unshaped loopback"), out);
    // The committed demo numbers come from this report: stamped, each scheme alone, pinned.
    String summary = Files.readString(report.resolve("summary.md"), StandardCharsets.UTF_8);
    assertTrue(summary.contains("bin/eccache-bench demo --workers 4 -k 2"), summary);
    assertTrue(summary.contains("each scheme measured **alone**"), summary);
    assertTrue(summary.contains("pinned for the measured phase"), summary);
    List<String> raw = Files.readAllLines(report.resolve("raw.csv"));
    assertEquals(1 + 4, raw.size(), "a header and a row per scheme: " + raw);
    List<String> columns = Arrays.asList(raw.get(0).split(","));
    for (String row : raw.subList(1, raw.size())) {
      String[] cells = row.split(",");
      assertEquals("0", cells[columns.indexOf("units_dropped")], "pinned: " + row);
      assertEquals("0", cells[columns.indexOf("units_added")], "pinned: " + row);
    }
    List<String> rows = Arrays.stream(out.split("\n")).filter(l -> l.startsWith("| ")
        && !l.startsWith("| scheme")).collect(Collectors.toList());
    assertEquals(4, rows.size(), out);
    assertTrue(rows.get(0).startsWith("| EC-Cache RS(2,1+), delta 1 |"), rows.get(0));
    assertTrue(rows.get(1).startsWith("| selective replication |"), rows.get(1));
    assertTrue(rows.get(2).startsWith("| SP-Cache partition |"), rows.get(2));
    assertTrue(rows.get(3).startsWith("| single copy |"), rows.get(3));
    double[] memory = new double[rows.size()];
    for (int i = 0; i < rows.size(); i++) {
      String row = rows.get(i);
      String[] cells = row.split("\\|");
      memory[i] = Double.parseDouble(cells[2].trim().replace("x", ""));
      double mean = Double.parseDouble(cells[3].trim());
      double p99 = Double.parseDouble(cells[5].trim());
      double lambda = Double.parseDouble(cells[7].trim().replace("%", ""));
      assertTrue(mean > 0 && p99 >= Double.parseDouble(cells[4].trim()), row);
      // At most (4 − 1) × 100% over bytes read; over the kernel's counters (when tc shapes),
      // a worker that sent every byte also sent its packets' headers: 5% slack.
      assertTrue(lambda >= 0 && lambda <= 4 * 1.05 * 100 - 100,
          "λ of 4 workers is at most 320%: " + row);
    }
    assertTrue(memory[0] >= 1.5, "RS(2,1) keeps at least its base parity: " + out);
    assertTrue(memory[1] >= 1.0 && memory[1] <= 1.5, "one copy each plus at most the budget "
        + "(and one copy's rounding): " + out);
    assertEquals(1.0, memory[2], 1e-9, "SP-Cache has no redundancy: " + out);
    assertEquals(1.0, memory[3], 1e-9, out);
  }
}
