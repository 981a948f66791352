package io.eccache.benchmarks.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import io.eccache.testkit.LoopbackShaper;
import io.eccache.testkit.SharedCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Every scenario at a tiny size through the whole pipeline: driver, metrics, λ, report, plots. */
class BenchCommandTest {
  /** It starts its own in-process cluster: close this JVM's shared cluster, if any, first. */
  @RegisterExtension
  static final SharedCluster NO_SHARED_CLUSTER = SharedCluster.none();

  @TempDir
  Path out;

  /** Every scenario but failure and slow-server (below): the workers in this JVM. */
  private static final List<String> IN_JVM = List.of("skew", "background", "size", "k", "delta",
      "stragglers", "writes", "spcache");

  /** A raw.csv row's cells: split at commas outside quotes (a label may hold one, quoted). */
  static String[] cells(String row) {
    return row.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)");
  }

  @Test
  void everyScenarioWritesItsResultsSummaryAndPlots() throws Exception {
    List<String> args = new java.util.ArrayList<>(List.of("bench", "--tiny", "--workers", "12",
        "--out", out.toString()));
    for (String scenario : IN_JVM) {
      args.addAll(List.of("--scenario", scenario));
    }
    int exit = new CommandLine(new EcCacheBench()).execute(args.toArray(new String[0]));
    assertEquals(0, exit);
    List<String> scenarios = new java.util.ArrayList<>(List.of("skew", "background",
        "size", "k", "delta", "writes", "spcache"));
    if (LoopbackShaper.isAvailable()) {
      scenarios.add("stragglers"); // a worker's link capped by tc: only where tc shapes
    } else {
      assertTrue(Files.notExists(out.resolve("stragglers")), "run without tc");
    }
    for (String scenario : scenarios) {
      Path dir = out.resolve(scenario);
      List<String> raw = Files.readAllLines(dir.resolve("raw.csv"));
      assertTrue(raw.get(0).startsWith("run,repeat,seed,mode,scheme,requests,memory,memory_after,"
          + "mean_ms"), raw.get(0));
      boolean sweep = List.of("size", "k", "delta", "stragglers", "writes").contains(scenario);
      int runs = sweep ? 3 : 1;
      int schemes = List.of("k", "delta", "stragglers", "writes").contains(scenario) ? 2 : 3;
      assertEquals(1 + runs * schemes, raw.size(), scenario + ": " + raw);
      List<String> header = List.of(raw.get(0).split(","));
      for (String row : raw.subList(1, raw.size())) {
        String[] cells = cells(row);
        java.util.function.Function<String, String> cell = name -> cells[header.indexOf(name)];
        assertEquals("alone", cell.apply("mode"), "measured alone by default: " + row);
        assertEquals("12", cell.apply("requests"), "every measured GET recorded: " + row);
        double mean = Double.parseDouble(cell.apply("mean_ms"));
        double p99 = Double.parseDouble(cell.apply("p99_ms"));
        double lambda = Double.parseDouble(cell.apply("lambda_pct"));
        assertTrue(mean > 0 && p99 >= Double.parseDouble(cell.apply("median_ms")), row);
        // Over the client's bytes λ cannot pass (12 − 1) × 100%; over the kernel's, a worker that
        // sent every byte also sent its packets' headers, so that bound is loosened by 5%.
        double lambdaRead = Double.parseDouble(cell.apply("lambda_read_pct"));
        assertTrue(lambdaRead >= 0 && lambdaRead <= 1100 + 1e-6,
            "λ over read bytes of 12 workers is at most 1100%: " + row);
        assertTrue(lambda >= 0 && lambda <= 12 * 1.05 * 100 - 100,
            "λ over sent bytes of 12 workers is at most 1160%: " + row);
        if (cells[4].equals("sp") || cells[4].equals("ec")) {
          assertTrue(Double.parseDouble(cell.apply("memory")) >= 1.0, row);
        }
        // Pinned: the redundancy measured is the redundancy allocated, and no worker dies here.
        assertEquals("0", cell.apply("rewritten"), row);
        assertEquals("0", cell.apply("fallbacks"), row);
        assertEquals("0", cell.apply("units_added"), "no unit added: " + row);
        assertEquals("0", cell.apply("units_dropped"), "no unit dropped: " + row);
        assertEquals(cell.apply("memory"), cell.apply("memory_after"),
            "memory before and after the phase: " + row);
        if (scenario.equals("spcache")) {
          // SP-Cache's baselines: RS(5,2) is 40% extra; 4 copies of the hottest of 4 objects.
          double memory = Double.parseDouble(cells[6]);
          double expected = Map.of("ec", 1.4, "sr", (4 + 3) / 4.0, "sp", 1.0).get(cells[4]);
          assertEquals(expected, memory, 0.01, row);
        }
      }
      String summary = Files.readString(dir.resolve("summary.md"), StandardCharsets.UTF_8);
      assertEquals(scenario.equals("stragglers"), summary.contains("stragglers=[127."),
          scenario + ": the straggler named in its settings");
      assertTrue(summary.contains("**Paper:**") && summary.contains("SR/EC median")
          && summary.contains("encode % of PUT")
          && summary.contains("read whole and discarded")
          && summary.contains("stopped before their end")
          && summary.contains("measured **alone**") && summary.contains("Commit `")
          && summary.contains("command `bin/eccache-bench bench --tiny"), summary);
      // ratios, reads, redundancy and writes tables: headers plus a row per run (and per run and
      // scheme)
      assertTrue(summary.lines().filter(l -> l.startsWith("| ")).count()
          >= 4 + runs + 3 * runs * schemes,
          summary);
      assertTrue(Files.exists(dir.resolve("summary.json")), scenario);
      try (var pngs = Files.list(dir)) {
        List<Path> plots = pngs.filter(p -> p.toString().endsWith(".png")).collect(
            java.util.stream.Collectors.toList());
        assertTrue(plots.size() >= 2 * runs, scenario + " plots: " + plots);
        for (Path png : plots) {
          BufferedImage image = ImageIO.read(png.toFile());
          Set<Integer> colours = new HashSet<>();
          for (int x = 0; x < image.getWidth(); x += 7) {
            for (int y = 0; y < image.getHeight(); y += 7) {
              colours.add(image.getRGB(x, y));
            }
          }
          assertTrue(colours.size() > 3, png + " looks blank");
        }
      }
    }
    List<String> workers = Files.readAllLines(out.resolve("skew").resolve("workers.csv"));
    assertTrue(workers.size() > 3, workers.toString());
  }

  /**
   * The scenarios on worker processes, on one cluster of 6 (their JVMs take the time) with
   * RS(3, r): failure (a worker SIGKILLed a quarter into each scheme's phase, started again before
   * the next) and slow-server (one frozen 80 ms of every 100).
   */
  @Test
  void theFailureScenarioKillsAWorkerProcessInEachSchemesPhase() throws Exception {
    int exit = new CommandLine(new EcCacheBench()).execute("bench", "--tiny", "--workers", "6",
        "-k", "3", "--scenario", "failure", "--scenario", "slow-server", "--out", out.toString());
    assertEquals(0, exit);
    Path slow = out.resolve("slow-server");
    assertEquals(1 + 3 * 2, Files.readAllLines(slow.resolve("raw.csv")).size(), "Δ 0-2, EC and SR");
    String slowSummary = Files.readString(slow.resolve("summary.md"), StandardCharsets.UTF_8);
    assertTrue(slowSummary.contains("slow servers=[127.0.0."), slowSummary);
    Path dir = out.resolve("failure");
    List<String> raw = Files.readAllLines(dir.resolve("raw.csv"));
    assertEquals(1 + 3, raw.size(), raw.toString());
    List<String> header = List.of(raw.get(0).split(","));
    for (String row : raw.subList(1, raw.size())) {
      String[] cells = cells(row);
      java.util.function.Function<String, String> cell = name -> cells[header.indexOf(name)];
      assertEquals("12", cell.apply("requests"), "every GET answered, none failed: " + row);
      // Units the kill took (or a re-cache from S3 onto fewer live workers) are the scenario's
      // point; a unit added mid-phase would be re-tuning.
      assertEquals("0", cell.apply("units_added"), "no unit added: " + row);
    }
    String summary = Files.readString(dir.resolve("summary.md"), StandardCharsets.UTF_8);
    assertTrue(summary.contains("SIGKILLed [127.0.0.") && summary.contains("at request 3 of each"
        + " phase") && summary.contains("workers as processes of their own"), summary);
    assertTrue(!summary.contains("not whole"), "each phase began with every split live: "
        + summary);
    // Pinned again after each kill: every phase began at the learning pass's targets.
    assertTrue(!summary.contains("not at their target"), summary);
  }
}
