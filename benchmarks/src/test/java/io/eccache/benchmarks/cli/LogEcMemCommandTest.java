package io.eccache.benchmarks.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.cli.ExitCodes;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The LogECMem evaluation at a tiny size through the whole pipeline, on real memcached. */
class LogEcMemCommandTest {
  @Test
  void aTinyRunWritesEveryFigureWithTheMechanismsOwnCounts(@TempDir Path out)
      throws Exception {
    // No --figure: every figure runs. Five servers a testbed: (3,2) has one each, Fig. 13's
    // (5,4) nine virtual nodes on them.
    int exit = EcCacheBench.commandLine().execute("logecmem", "--records", "60", "--operations",
        "400", "--repeats", "1", "--codes", "3-2", "--wide-codes", "5-4", "--servers", "5",
        "--mix", "read:update 70:30", "--log-nodes", "in-process", "--out", out.toString());
    assertEquals(ExitCodes.OK, exit);
    List<String> raw = Files.readAllLines(out.resolve("fig11/raw.csv"));
    List<String> header = List.of(raw.get(0).split(","));
    assertEquals(1 + 3, raw.size(), "one row per scheme: " + raw);
    for (String row : raw.subList(1, raw.size())) {
      String[] cells = row.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)"); // commas outside quotes
      java.util.function.Function<String, Double> cell =
          name -> Double.parseDouble(cells[header.indexOf(name)]);
      assertEquals(0, cell.apply("wrong_reads"), row);
      assertTrue(cell.apply("updates") > 50 && cell.apply("update_mean_us") > 0, row);
      switch (cells[header.indexOf("scheme")]) {
        case "hybrid": // reads D and P1, writes both, one delta to the one log node (r - 1 = 1)
          assertEquals(1.0, cell.apply("log_appends_per_update"), 1e-9, row);
          assertEquals(2.0, cell.apply("sets_per_update"), 0.1, row);
          assertEquals(2.0, cell.apply("gets_per_update"), 0.1, row);
          break;
        case "inplace": // r + 1 of each
          assertEquals(3.0, cell.apply("gets_per_update"), 0.1, row);
          assertEquals(3.0, cell.apply("sets_per_update"), 0.1, row);
          assertEquals(0.0, cell.apply("log_appends_per_update"), 1e-9, row);
          break;
        default: // fullstripe: a set of the new value and, now and then, a seal or compaction
          assertTrue(cell.apply("sets_per_update") >= 1.0, row);
          assertEquals(0.0, cell.apply("log_appends_per_update"), 1e-9, row);
      }
    }
    String fig11 = Files.readString(out.resolve("fig11/summary.md"));
    assertTrue(fig11.contains("Fig. 11") && fig11.contains("| (3,2) | 70:30 |")
        && fig11.contains("Commit `") && fig11.contains("memcached"), fig11);
    String table2 = Files.readString(out.resolve("table2/summary.md"));
    assertTrue(table2.contains("| (6,3) | ours, paper's chain ((6,3) states, C = k) | 1.03e+09"),
        table2);
    // Memory from memcached's own counters, over the data: (k + 1)/k, (k + r)/k, r + 1 copies,
    // each plus item headers and keys (about 2% of a 4 KiB value) and, in so small a load, the
    // parities of the partial stripes that seal its end (up to 0.15 here).
    List<String> memory = Files.readAllLines(out.resolve("fig12/raw.csv"));
    List<String> columns = List.of(memory.get(0).split(","));
    java.util.Map<String, Double> expected = java.util.Map.of("hybrid", 4 / 3.0, "inplace",
        5 / 3.0, "replication", 3.0);
    assertEquals(1 + 4, memory.size(), memory.toString());
    for (String row : memory.subList(1, memory.size())) {
      String[] cells = row.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)");
      double data = Double.parseDouble(cells[columns.indexOf("data_bytes")]);
      double over = Double.parseDouble(cells[columns.indexOf("dram_bytes")]) / data;
      String scheme = cells[columns.indexOf("scheme")];
      if (scheme.equals("fullstripe")) { // old versions held until its collection frees them
        double after = Double.parseDouble(cells[columns.indexOf("dram_bytes_after_gc")]) / data;
        assertTrue(over > after && over > 5 / 3.0, over + " then " + after + ": " + row);
      } else {
        double bound = expected.get(scheme);
        assertTrue(over >= bound && over <= bound + 0.15, over + ": " + row);
      }
    }
    assertTrue(Files.readString(out.resolve("fig12/summary.md")).contains("| (3,2) | 70:30 |"));
    // Every layout's log nodes wrote the updates' deltas, and every degraded read with two DRAM
    // nodes down was rebuilt with a log node's parity (the figure fails the run otherwise).
    List<String> layouts = Files.readAllLines(out.resolve("fig14/raw.csv"));
    List<String> layoutColumns = List.of(layouts.get(0).split(","));
    assertEquals(1 + 4 * 2, layouts.size(), "4 layouts, 2 mixes: " + layouts);
    for (String row : layouts.subList(1, layouts.size())) {
      String[] cells = row.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)");
      assertTrue(Long.parseLong(cells[layoutColumns.indexOf("disk_writes")]) > 0, row);
      assertTrue(Long.parseLong(cells[layoutColumns.indexOf("degraded_reads")]) > 0, row);
    }
    // Fig. 10: every read checked; a degraded read of LogECMem takes k = 3 DRAM units at most
    // (k - 1 data and P1; fewer where a partial stripe's unit is empty) and no log node's parity,
    // replication's one get of the next copy; vanilla has none.
    List<String> basic = Files.readAllLines(out.resolve("fig10/raw.csv"));
    List<String> basicColumns = List.of(basic.get(0).split(","));
    assertEquals(1 + 2 * 3, basic.size(), "2 mixes, 3 schemes: " + basic);
    for (String row : basic.subList(1, basic.size())) {
      String[] cells = row.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", -1);
      java.util.function.Function<String, String> cell = name -> cells[basicColumns.indexOf(name)];
      assertEquals("0", cell.apply("wrong_reads"), row);
      assertTrue(Long.parseLong(cell.apply("writes")) > 0
          && Double.parseDouble(cell.apply("throughput_ops")) > 0, row);
      switch (cell.apply("scheme")) {
        case "vanilla":
          assertEquals("", cell.apply("degraded_reads"), row);
          assertEquals(1.0, Double.parseDouble(cell.apply("sets_per_write")), 1e-9, row);
          break;
        case "replication": // r + 1 = 3 copies written, the next one read
          assertEquals(3.0, Double.parseDouble(cell.apply("sets_per_write")), 1e-9, row);
          assertEquals(1.0, Double.parseDouble(cell.apply("degraded_gets_per_read")), 1e-9, row);
          break;
        default:
          double gets = Double.parseDouble(cell.apply("degraded_gets_per_read"));
          assertTrue(gets > 1.5 && gets <= 3.0, row);
          assertEquals(0.0, Double.parseDouble(cell.apply("degraded_log_reads_per_read")), 1e-9,
              row);
      }
      if (!cell.apply("scheme").equals("vanilla")) {
        assertTrue(Long.parseLong(cell.apply("degraded_reads")) > 0, row);
      }
    }
    // Fig. 13 on virtual nodes: the same mechanism counts (hybrid 2 gets, 2 sets, r - 1 = 3
    // deltas; IPMem r + 1 = 5 of each) and memory from the shared servers' counters, summed once:
    // (k + 1)/k, (k + r)/k, r + 1 plus headers and the partial stripes of so small a load.
    List<String> wide = Files.readAllLines(out.resolve("fig13/raw.csv"));
    List<String> wideColumns = List.of(wide.get(0).split(","));
    assertEquals(1 + 4, wide.size(), wide.toString());
    java.util.Map<String, Double> wideMemory = java.util.Map.of("hybrid", 6 / 5.0, "inplace",
        9 / 5.0, "replication", 5.0);
    for (String row : wide.subList(1, wide.size())) {
      String[] cells = row.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)");
      java.util.function.Function<String, Double> cell =
          name -> Double.parseDouble(cells[wideColumns.indexOf(name)]);
      String scheme = cells[wideColumns.indexOf("scheme")];
      assertEquals(0, cell.apply("wrong_reads"), row);
      double over = cell.apply("dram_bytes") / cell.apply("data_bytes");
      if (scheme.equals("hybrid")) {
        assertEquals(3.0, cell.apply("log_appends_per_update"), 1e-9, row);
        assertEquals(2.0, cell.apply("gets_per_update"), 0.1, row);
      } else if (scheme.equals("inplace")) {
        assertEquals(5.0, cell.apply("gets_per_update"), 0.1, row);
        assertEquals(5.0, cell.apply("sets_per_update"), 0.1, row);
      }
      if (wideMemory.containsKey(scheme)) {
        double bound = wideMemory.get(scheme);
        assertTrue(over >= bound && over <= bound + 0.2, scheme + " " + over + ": " + row);
      }
    }
    String fig13 = Files.readString(out.resolve("fig13/summary.md"));
    assertTrue(fig13.contains("| (5,4) | 9 | 6 | 5 | 1-2 |") && fig13.contains("| (5,4) | 70:30 |"),
        fig13);
    // Fig. 15: node 0's units rebuilt twice from the same survivors, every one read back equal;
    // plain repair never asks a log node, log assist (3/4 of the stripes for (3,2)) reads one
    // parity per assisted unit and exactly that many DRAM units fewer.
    List<String> repair = Files.readAllLines(out.resolve("fig15/raw.csv"));
    List<String> repairColumns = List.of(repair.get(0).split(","));
    assertEquals(1 + 2, repair.size(), repair.toString());
    java.util.Map<String, long[]> byMode = new java.util.HashMap<>();
    for (String row : repair.subList(1, repair.size())) {
      String[] cells = row.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)");
      java.util.function.Function<String, Long> cell =
          name -> Long.parseLong(cells[repairColumns.indexOf(name)]);
      long units = cell.apply("units");
      assertTrue(units > 5, row);
      assertEquals(units, (long) cell.apply("verified_units"), row);
      assertEquals(units * 4096, (long) cell.apply("bytes"), row);
      byMode.put(cells[repairColumns.indexOf("mode")], new long[] {units,
          cell.apply("assisted_units"), cell.apply("dram_gets"), cell.apply("log_reads")});
    }
    long[] plain = byMode.get("plain");
    long[] assisted = byMode.get("log-assisted");
    assertEquals(0, plain[1]);
    assertEquals(0, plain[3]);
    assertTrue(plain[2] <= 3 * plain[0] && plain[2] >= 2 * plain[0], "k gets a unit: " + plain[2]);
    assertTrue(assisted[1] >= plain[0] / 2 && assisted[1] <= 0.75 * plain[0] + 1,
        "assisted " + assisted[1] + " of " + plain[0]);
    assertEquals(assisted[1], assisted[3]);
    assertEquals(plain[2] - assisted[1], assisted[2]);
    // Fig. 16 and Table 3: points from the grids Figs. 11-13 replayed in this run, not replays
    // of their own (a replay of its own would time otherwise).
    List<String> tradeoff = Files.readAllLines(out.resolve("fig16/raw.csv"));
    List<String> tradeoffColumns = List.of(tradeoff.get(0).split(","));
    assertEquals(1 + 2 * 3, tradeoff.size(), "2 codes, 1 mix, 3 schemes: " + tradeoff);
    java.util.Map<String, String> fig11Latency = new java.util.HashMap<>();
    for (String row : raw.subList(1, raw.size())) {
      String[] cells = row.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)");
      fig11Latency.put(cells[header.indexOf("scheme")],
          cells[header.indexOf("update_mean_with_deferred_us")]);
    }
    java.util.Map<String, Double> memoryOf = new java.util.HashMap<>();
    for (String row : tradeoff.subList(1, tradeoff.size())) {
      String[] cells = row.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)");
      String scheme = cells[tradeoffColumns.indexOf("scheme")];
      String code = cells[tradeoffColumns.indexOf("code")].replace("\"", "");
      memoryOf.put(code + scheme, Double.parseDouble(cells[tradeoffColumns.indexOf(
          "memory_over_data")]));
      if (code.equals("(3,2)")) {
        assertEquals(Double.parseDouble(fig11Latency.get(scheme)), Double.parseDouble(
            cells[tradeoffColumns.indexOf("update_mean_us")]), 1e-6, row);
      }
    }
    for (String code : List.of("(3,2)", "(5,4)")) {
      assertTrue(memoryOf.get(code + "hybrid") < memoryOf.get(code + "inplace")
          && memoryOf.get(code + "inplace") < memoryOf.get(code + "fullstripe"),
          memoryOf::toString);
    }
    String fig16 = Files.readString(out.resolve("fig16/summary.md"));
    assertTrue(fig16.contains("| (5,4) | 70:30 |") && fig16.contains("lowest memory in 2 of 2"),
        fig16);
    String summary = Files.readString(out.resolve("summary.md"));
    assertTrue(summary.contains("## Table 2") && summary.contains("## Fig. 10")
        && summary.contains("## Fig. 11")
        && summary.contains("## Fig. 12") && summary.contains("## Fig. 13")
        && summary.contains("## Fig. 14") && summary.contains("## Fig. 15")
        && summary.contains("## Fig. 16"), summary);
    for (Path png : List.of(out.resolve("table2/table2.png"),
        out.resolve("fig10/fig10-degraded.png"), out.resolve("fig11/fig11-3-2.png"),
        out.resolve("fig12/fig12-3-2.png"), out.resolve("fig13/fig13-5-4.png"),
        out.resolve("fig13/fig13memory-5-4.png"), out.resolve("fig15/fig15-repair.png"),
        out.resolve("fig16/fig16-5-4.png"), out.resolve("fig14/fig14-ios.png"))) {
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

  @Test
  void badSettingsAreRefusedBeforeAnyServerStarts(@TempDir Path out) {
    for (String[] bad : List.of(new String[] {"--codes", "3-5"},
        new String[] {"--wide-codes", "300-4"}, new String[] {"--servers", "81"},
        new String[] {"--codes", "30-4", "--figure", "fig15"},
        new String[] {"--figure",
        "fig99"}, new String[] {"--mix", "read:write 95:5"}, new String[] {"--repeats", "0"},
        new String[] {"--issue", "sideways"}, new String[] {"--profile", "huge"})) {
      List<String> args = new java.util.ArrayList<>(List.of("logecmem", "--out",
          out.toString()));
      args.addAll(List.of(bad));
      assertEquals(ExitCodes.USAGE, EcCacheBench.commandLine().execute(args.toArray(
          new String[0])), String.join(" ", bad));
    }
    assertTrue(Files.notExists(out.resolve("summary.md")));
  }
}
