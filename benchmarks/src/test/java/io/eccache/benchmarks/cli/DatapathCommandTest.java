package io.eccache.benchmarks.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.eccache.cli.ExitCodes;
import io.eccache.testkit.SharedCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The data-path benchmark end to end at its tiny size (12 workers, 64 KiB and 1 MiB objects, 1
 * and 2 threads, one round): every file, a row per variant and round with the bytes checked, the
 * paired ratios and the targets table. No timing is asserted.
 */
class DatapathCommandTest {
  /** It starts its own in-process cluster: close this JVM's shared cluster, if any, first. */
  @RegisterExtension
  static final SharedCluster NO_SHARED_CLUSTER = SharedCluster.none();

  @Test
  void tinyRunWritesARowPerVariantAndRoundAndThePairedRatiosBesideTheTargets(@TempDir Path out)
      throws Exception {
    CapturedRun run = CapturedRun.of(() -> EcCacheBench.commandLine().execute("datapath",
        "--tiny", "--out", out.toString()));
    String printed = run.stdout;
    assertEquals(0, run.exit, printed);
    for (String file : List.of("raw.csv", "summary.md", "summary.json", "throughput.png")) {
      assertTrue(Files.size(out.resolve(file)) > 0, file);
    }
    byte[] png = Files.readAllBytes(out.resolve("throughput.png"));
    assertEquals("PNG", new String(png, 1, 3, StandardCharsets.US_ASCII));

    List<String> raw = Files.readAllLines(out.resolve("raw.csv"));
    List<String> columns = Arrays.asList(raw.get(0).split(","));
    // 2 sizes x 2 thread counts x 1 round x 6 variants
    assertEquals(1 + 24, raw.size(), String.join("\n", raw));
    Set<String> seen = new HashSet<>();
    String previous = null; // the row before, in the same round (rows are in running order)
    int afterEccachePuts = 0;
    for (String row : raw.subList(1, raw.size())) {
      String[] c = row.split(",");
      double removalWait = Double.parseDouble(c[columns.indexOf("removal_wait_s")]);
      assertTrue(removalWait >= 0, row);
      if (previous != null && !"1".equals(c[columns.indexOf("order")])) {
        String[] p = previous.split(",");
        if ("PUT".equals(p[columns.indexOf("op")])
            && "eccache".equals(p[columns.indexOf("variant")])) {
          // eccache's deleted objects leave the workers a retired grace (2 s here) after their
          // round: the next variant starts only then, so their removals are not in its span.
          assertTrue(removalWait > 1.0, "waited " + removalWait + " s after\n" + previous
              + "\n" + row);
          afterEccachePuts++;
        }
      }
      previous = row;
      String op = c[columns.indexOf("op")];
      String variant = c[columns.indexOf("variant")];
      long size = Long.parseLong(c[columns.indexOf("size_bytes")]);
      int threadsRun = Integer.parseInt(c[columns.indexOf("threads_run")]);
      int ops = Integer.parseInt(c[columns.indexOf("ops")]);
      assertTrue(seen.add(size + " " + c[columns.indexOf("threads")] + " "
          + c[columns.indexOf("round")] + " " + op + " " + variant), "duplicate row " + row);
      assertTrue(List.of("eccache", "p10", "plain").contains(variant), row);
      assertEquals(threadsRun * 2, ops, "two operations per thread: " + row);
      assertEquals(ops * size, Long.parseLong(c[columns.indexOf("bytes")]), row);
      assertEquals("GET".equals(op) ? ops * size : 0,
          Long.parseLong(c[columns.indexOf("verified_bytes")]), "every GET checked: " + row);
      long decodes = Long.parseLong(c[columns.indexOf("decodes")]);
      assertTrue(decodes >= 0 && decodes <= ops, "one read window per GET at most: " + row);
      if (!("GET".equals(op) && "eccache".equals(variant))) {
        assertEquals(0, decodes + Long.parseLong(c[columns.indexOf("hedges")]), row);
      }
      assertTrue(Double.parseDouble(c[columns.indexOf("mib_per_s")]) > 0, row);
      assertTrue(Double.parseDouble(c[columns.indexOf("cpu_s")]) > 0, row);
      assertTrue(Double.parseDouble(c[columns.indexOf("cpu_ms_per_mib")]) > 0, row);
      double p50 = Double.parseDouble(c[columns.indexOf("p50_ms")]);
      assertTrue(p50 > 0 && Double.parseDouble(c[columns.indexOf("p99_ms")]) >= p50, row);
      if ("PUT".equals(op) && "eccache".equals(variant)) {
        // Each PUT asks S3 (s3proxy, a process of its own) whether the key has a copy there.
        assertTrue(Double.parseDouble(c[columns.indexOf("cpu_s3_s")]) > 0, row);
      }
    }
    assertEquals(24, seen.size());
    assertTrue(afterEccachePuts > 0, "no variant ran after an eccache PUT in a round:\n"
        + String.join("\n", raw));

    JsonNode json = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
    assertTrue(json.get("stamp").get("command").asText()
        .startsWith("bin/eccache-bench datapath --tiny"), json.get("stamp").toString());
    JsonNode cells = json.get("cells");
    assertEquals(8, cells.size(), "GET and PUT x 2 sizes x 2 thread counts: " + cells);
    for (JsonNode cell : cells) {
      JsonNode ratios = cell.get("ratios");
      for (String ratio : List.of("throughputVsPk", "cpuPerMibVsPk", "p50VsPk", "p99VsPk",
          "throughputVsPlain", "p50VsPlain")) {
        double median = ratios.get(ratio).get("median").asDouble();
        assertTrue(median > 0 && Double.isFinite(median), ratio + " of " + cell);
      }
      assertEquals(3, cell.get("variants").size(), cell.toString());
    }
    Set<String> verdicts = new HashSet<>();
    for (JsonNode t : json.get("targets")) {
      String verdict = t.get("verdict").asText();
      verdicts.add(verdict);
      boolean measuredHere = t.get("sizeBytes").asLong() <= (1 << 20);
      assertEquals(measuredHere, !"not measured".equals(verdict), t.toString());
      assertTrue(List.of("met", "not met", "not measured").contains(verdict), t.toString());
    }
    assertTrue(verdicts.contains("not measured"), "8 MiB and up are not in the tiny run");

    String summary = Files.readString(out.resolve("summary.md"), StandardCharsets.UTF_8);
    for (String part : List.of("bin/eccache-bench datapath --tiny", "## Targets (issue 15)",
        "GET CPU per MiB vs p10", "GET throughput vs p10", "small GET p50 vs one plain file",
        "1 MiB PUT p99", "PUT throughput vs p10", "not measured", "MiB/s vs p10",
        "the master and the workers run in this process", "12 workers")) {
      assertTrue(summary.contains(part), part + " missing from\n" + summary);
    }
    assertTrue(printed.contains("## Targets (issue 15)"), printed);
  }

  @Test
  void withProcessesTheServersRunApartAndTheirCpuIsCountedToTheirSides(@TempDir Path out)
      throws Exception {
    CapturedRun run = CapturedRun.of(() -> EcCacheBench.commandLine().execute("datapath",
        "--tiny", "--processes", "--workers", "3", "-k", "2", "-r", "1", "--sizes", "1MiB",
        "--threads", "1", "--stored-bytes-files", "--out", out.toString()));
    assertEquals(0, run.exit, run.stdout);
    List<String> raw = Files.readAllLines(out.resolve("raw.csv"));
    List<String> columns = Arrays.asList(raw.get(0).split(","));
    // the six variants and, asked for, PUT p2+1
    assertEquals(1 + 7, raw.size(), String.join("\n", raw));
    assertTrue(raw.stream().anyMatch(row -> row.contains(",PUT,p2+1,")), String.join("\n", raw));
    for (String row : raw.subList(1, raw.size())) {
      String[] c = row.split(",");
      double workers = Double.parseDouble(c[columns.indexOf("cpu_workers_s")]);
      double client = Double.parseDouble(c[columns.indexOf("cpu_client_s")]);
      double process = Double.parseDouble(c[columns.indexOf("process_cpu_s")]);
      double total = Double.parseDouble(c[columns.indexOf("cpu_s")]);
      // The workers ran in other processes: counted from them, beside this process's own.
      assertTrue(workers > 0 && client > 0, row);
      assertTrue(total > process, "the servers' CPU is in the total: " + row);
      if ("PUT".equals(c[columns.indexOf("op")])
          && "eccache".equals(c[columns.indexOf("variant")])) {
        // A PUT asks S3 whether the key has a copy there: s3proxy's work, counted apart.
        assertTrue(Double.parseDouble(c[columns.indexOf("cpu_s3_s")]) > 0, row);
      }
      if ("GET".equals(c[columns.indexOf("op")])) {
        assertEquals(2L << 20, Long.parseLong(c[columns.indexOf("verified_bytes")]), row);
      }
    }
    String summary = Files.readString(out.resolve("summary.md"), StandardCharsets.UTF_8);
    for (String part : List.of("3 workers as processes of their own", "-Xmx1g",
        "that of the master's and every worker's process",
        "## eccache over p2+1, the bytes it stores as plain files", "| PUT | 1 MiB | 1 |")) {
      assertTrue(summary.contains(part), part + " missing from\n" + summary);
    }
  }

  @Test
  void getsAloneWriteNoPutAndSayThePutTargetsWereNotMeasured(@TempDir Path out)
      throws Exception {
    CapturedRun run = CapturedRun.of(() -> EcCacheBench.commandLine().execute("datapath",
        "--tiny", "--operations", "GET", "--sizes", "1MiB", "--threads", "1",
        "--settle-passes", "2", "-D", "alluxio.master.eccache.cell.size=64KB", "--out",
        out.toString()));
    assertEquals(0, run.exit, run.stdout);
    List<String> raw = Files.readAllLines(out.resolve("raw.csv"));
    List<String> columns = Arrays.asList(raw.get(0).split(","));
    assertEquals(1 + 3, raw.size(), String.join("\n", raw)); // eccache, p10, plain
    for (String row : raw.subList(1, raw.size())) {
      assertEquals("GET", row.split(",")[columns.indexOf("op")], row);
    }
    String summary = Files.readString(out.resolve("summary.md"), StandardCharsets.UTF_8);
    assertTrue(summary.contains("| 1 MiB PUT p99 | 1 MiB | 1 | < 60 ms |  | not measured |"),
        summary);
    assertTrue(summary.contains("3 variants (GET only) run one after the other"), summary);
    // -D set the started cluster's property, and the method says so.
    assertTrue(summary.contains("set with -D/--conf: {alluxio.master.eccache.cell.size=64KB}"),
        summary);
    // Settling passes ran (one or two: the JIT's share decides) and the summary says how they
    // ended; none is in raw.csv.
    assertTrue(summary.matches("(?s).*unmeasured passes of every variant until the JIT compilers"
        + " took at most 2% of a pass's CPU \\(at most 2 passes; [12] passes in all, the last of"
        + " each cell at [0-9.]+-[0-9.]+%\\).*"), summary);
  }

  @Test
  void badInputFailsBeforeAnyClusterStarts(@TempDir Path out) {
    CommandLine cli = EcCacheBench.commandLine();
    cli.setErr(new java.io.PrintWriter(new java.io.StringWriter()));
    assertEquals(ExitCodes.REJECTED, cli.execute("datapath", "--sizes", "12XB", "--out",
        out.toString()));
    assertEquals(ExitCodes.REJECTED, cli.execute("datapath", "--zipf", "1", "--out",
        out.toString()));
    assertEquals(ExitCodes.REJECTED, cli.execute("datapath", "--threads", "0", "--out",
        out.toString()));
    assertEquals(ExitCodes.REJECTED, cli.execute("datapath", "-k", "12", "--out",
        out.toString()));
    assertEquals(ExitCodes.REJECTED, cli.execute("datapath", "--warmup", "soon", "--out",
        out.toString()));
    assertEquals(ExitCodes.REJECTED, cli.execute("datapath", "--warmup", "-1s", "--out",
        out.toString()));
    assertEquals(ExitCodes.REJECTED, cli.execute("datapath", "--settle-passes", "-1", "--out",
        out.toString()));
    // Not an operation: picocli's usage error, before the command runs.
    assertEquals(ExitCodes.USAGE, cli.execute("datapath", "--operations", "DELETE", "--out",
        out.toString()));
    // A running cluster brings its own workers and master settings; no cluster is started.
    assertEquals(ExitCodes.REJECTED, cli.execute("datapath", "--master", "localhost:1",
        "--processes", "--out", out.toString()));
    assertEquals(ExitCodes.REJECTED, cli.execute("datapath", "--master", "localhost:1",
        "--workers", "3", "--out", out.toString()));
    assertEquals(ExitCodes.REJECTED, cli.execute("datapath", "--master", "localhost:1",
        "--journal-flush-batch", "5ms", "--out", out.toString()));
    // -D for the cluster started here: a property the command sets from its own options, or
    // no property at all, is refused before the cluster starts.
    assertEquals(ExitCodes.REJECTED, cli.execute("datapath", "-D",
        "alluxio.user.eccache.layout.cache.ttl=5s", "--out", out.toString()));
    assertEquals(ExitCodes.REJECTED, cli.execute("datapath", "-D",
        "alluxio.master.journal.flush.batch.time=5ms", "--out", out.toString()));
    assertEquals(ExitCodes.REJECTED, cli.execute("datapath", "-D", "alluxio.no.such.key=1",
        "--out", out.toString()));
    assertFalse(Files.exists(out.resolve("raw.csv")));
  }
}
