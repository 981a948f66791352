package io.eccache.benchmarks.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Every simulator preset at a tiny size through the whole pipeline: runs, CSV, summary, plots. */
class SimCommandTest {
  @TempDir
  Path out;

  @Test
  void everyPresetWritesNumbersForEachSchemeAndTheValidationTable() throws Exception {
    Path measured = out.resolve("measured.csv");
    Files.writeString(measured, "run,scheme,requests,memory,mean_ms,median_ms,p99_ms,p999_ms,lambda_pct\n"
        + "zipf 0.9,ec,120,1.14,90,92,150,212,19\n"
        + "zipf 0.9,sr,120,1.13,668,528,1393,1445,370\n"
        + "zipf 0.9,sp,120,1.0,309,162,1463,1484,123\n");
    int exit = new CommandLine(new EcCacheBench()).execute("sim", "--preset", "all", "--tiny", "--out",
        out.resolve("sim").toString(), "--measured", measured.toString());
    assertEquals(0, exit);

    for (String preset : List.of("paper", "scale", "background", "stragglers", "failure", "spcache")) {
      Path dir = out.resolve("sim").resolve(preset);
      List<String> raw = Files.readAllLines(dir.resolve("raw.csv"));
      assertTrue(raw.get(0).startsWith("run,scheme,servers,requests,memory,mean_ms"), raw.get(0));
      Map<String, Double> lambdaByScheme = new HashMap<>();
      for (String row : raw.subList(1, raw.size())) {
        String[] cells = row.split(",");
        double mean = Double.parseDouble(cells[5]);
        double median = Double.parseDouble(cells[6]);
        double p99 = Double.parseDouble(cells[7]);
        assertTrue(mean > 0 && p99 >= median && median > 0, preset + ": " + row);
        assertTrue(Double.parseDouble(cells[4]) >= 1.0, "memory: " + row);
        lambdaByScheme.putIfAbsent(cells[1], Double.parseDouble(cells[9]));
      }
      assertTrue(lambdaByScheme.keySet().containsAll(List.of("EC", "SR", "SP")), preset + ": " + raw);
      String summary = Files.readString(dir.resolve("summary.md"), StandardCharsets.UTF_8);
      assertTrue(summary.contains("**Paper:**") && summary.contains("| paper |"), summary);
      for (String scheme : List.of("EC-Cache", "selective replication", "SP-Cache")) {
        assertTrue(Pattern.compile("\\| " + scheme + " \\| \\d+\\.\\d+x \\| \\d").matcher(summary).find(),
            preset + " has no numbers for " + scheme + ":\n" + summary);
      }
      try (Stream<Path> files = Files.list(dir)) {
        assertTrue(files.anyMatch(p -> p.getFileName().toString().startsWith("latency-cdf")
            && p.toFile().length() > 1000), preset + " has no latency CDF plot");
      }
      if (!preset.equals("spcache")) {
        assertTrue(lambdaByScheme.get("EC") < lambdaByScheme.get("SR"),
            preset + ": λ EC " + lambdaByScheme.get("EC") + " vs SR " + lambdaByScheme.get("SR"));
      }
    }
    assertTrue(Files.exists(out.resolve("sim").resolve("scale").resolve("lambda.png")));

    String validate = Files.readString(out.resolve("sim").resolve("validate").resolve("summary.md"),
        StandardCharsets.UTF_8);
    for (String metric : List.of("λ EC %", "λ SR %", "SR/EC mean", "SR/EC median", "SR/EC p99")) {
      Matcher row = Pattern.compile("\\| " + Pattern.quote(metric)
          + " \\| (\\d+\\.\\d+) \\| (\\d+\\.\\d+) \\| .* \\| ([+-]\\d+)% \\|").matcher(validate);
      assertTrue(row.find(), metric + " has no measured, simulated and difference cells:\n" + validate);
      double real = Double.parseDouble(row.group(1));
      double sim = Double.parseDouble(row.group(2));
      assertEquals(Math.round((sim - real) / real * 100), Long.parseLong(row.group(3)), 1, metric);
    }
    assertFalse(validate.contains("NOT FOUND"), validate);
  }
}
