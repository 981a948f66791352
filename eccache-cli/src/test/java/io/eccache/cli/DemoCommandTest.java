package io.eccache.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The demo end to end at a tiny size: its table has both schemes with sane numbers. */
class DemoCommandTest {
  @Test
  void demoPrintsBothSchemesWithLatenciesAndImbalance() {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    int exit;
    try {
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      exit = new CommandLine(new EcCacheCli()).execute("demo", "--workers", "4", "-k", "2", "-r",
          "1", "--objects", "6", "--object-mb", "1", "--reads", "30", "--threads", "2");
    } finally {
      System.setOut(stdout);
    }
    String out = captured.toString(StandardCharsets.UTF_8);
    assertEquals(0, exit, out);
    List<String> rows = Arrays.stream(out.split("\n")).filter(l -> l.startsWith("| ")
        && !l.startsWith("| scheme")).collect(Collectors.toList());
    assertEquals(2, rows.size(), out);
    assertTrue(rows.get(0).startsWith("| EC-Cache RS(2,1), delta 1 |"), rows.get(0));
    assertTrue(rows.get(1).startsWith("| single copy |"), rows.get(1));
    for (String row : rows) {
      String[] cells = row.split("\\|");
      double mean = Double.parseDouble(cells[2].trim());
      double p99 = Double.parseDouble(cells[4].trim());
      double lambda = Double.parseDouble(cells[6].trim().replace("%", ""));
      assertTrue(mean > 0 && p99 >= Double.parseDouble(cells[3].trim()), row);
      assertTrue(lambda >= 0 && lambda <= 300, "λ of 4 workers is at most 300%: " + row);
    }
  }
}
