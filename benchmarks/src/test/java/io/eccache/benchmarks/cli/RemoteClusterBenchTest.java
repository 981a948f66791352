package io.eccache.benchmarks.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.conf.Configuration;
import alluxio.conf.PropertyKey;
import io.eccache.cli.ExitCodes;
import io.eccache.client.EcCacheClient;
import io.eccache.common.MasterKeys;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.SharedCluster;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code eccache-bench demo} and {@code bench} against a running 4-worker cluster (--master). */
class RemoteClusterBenchTest {
  @RegisterExtension
  static final SharedCluster CLUSTER = SharedCluster.of(EmbeddedCluster.builder().workers(4)
      .workerMemoryBytes(64L << 20)
      .property(MasterKeys.DEFAULT_K, 2).property(MasterKeys.DEFAULT_R, 1)
      // What a deployment running the demo and the benchmark sets on its master.
      .property(MasterKeys.NAMESPACE_SCHEMES, "sr=replica,sp=partition")
      .property(MasterKeys.POPULARITY_PERIOD, "5s").property(MasterKeys.RETUNE_INTERVAL, "1s"));
  private static EmbeddedCluster cluster;
  private static String master;

  @TempDir static Path dir;

  @BeforeAll
  static void start() throws Exception {
    cluster = CLUSTER.cluster();
    master = Configuration.getString(PropertyKey.MASTER_HOSTNAME) + ":"
        + Configuration.getInt(PropertyKey.MASTER_RPC_PORT);
  }

  private static int bench(StringWriter err, String... args) {
    CommandLine cli = EcCacheBench.commandLine();
    cli.setErr(new PrintWriter(err, true));
    String[] all = java.util.Arrays.copyOf(args, args.length + 1);
    all[args.length] = "--master=" + master;
    return cli.execute(all);
  }

  @Test
  void demoAndBenchRunAgainstARunningCluster() throws Exception {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    StringWriter err = new StringWriter();
    int demo;
    int bench;
    Path results = dir.resolve("bench");
    try {
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      demo = bench(err, "demo", "--objects", "4", "--object-mib", "2", "--requests", "12",
          "--clients", "2");
      bench = bench(err, "bench", "--tiny", "--scenario", "skew", "--scenario", "failure",
          "--client-jvms", "2", "--out", results.toString());
    } finally {
      System.setOut(stdout);
    }
    String printed = captured.toString(StandardCharsets.UTF_8);
    assertEquals(ExitCodes.OK, demo, err + printed);
    assertTrue(printed.contains("4 workers (running cluster at " + master + ", unshaped"),
        printed);
    assertTrue(printed.contains("12 GETs per scheme (alone)") && printed.contains("not pinned"),
        "a running cluster re-tunes by itself: " + printed);
    for (String scheme : new String[] {"| EC-Cache delta 1 |", "| selective replication |",
        "| SP-Cache partition |", "| single copy |"}) {
      assertTrue(printed.contains(scheme), scheme + " missing: " + printed);
    }
    assertEquals(ExitCodes.OK, bench, err + printed);
    String summary = Files.readString(results.resolve("skew").resolve("summary.md"));
    assertTrue(summary.contains("running cluster at " + master), summary);
    assertTrue(summary.contains("measured **alone**") && summary.contains("not pinned"), summary);
    // Two reader JVMs served the 12 measured requests: every one is in the merged results.
    List<String> raw = Files.readAllLines(results.resolve("skew").resolve("raw.csv"));
    assertEquals(4, raw.size(), raw.toString());
    List<String> header = List.of(raw.get(0).split(","));
    for (String row : raw.subList(1, raw.size())) {
      String[] cells = BenchCommandTest.cells(row); // a quoted label holds commas
      java.util.function.Function<String, String> cell = name -> cells[header.indexOf(name)];
      assertEquals("12", cell.apply("requests"), "every measured GET recorded: " + row);
      assertTrue(Long.parseLong(cell.apply("served_bytes"))
          >= Long.parseLong(cell.apply("useful_bytes")),
          "bytes served (from the readers' own counts) cover the useful bytes: " + row);
    }
    assertTrue(summary.contains("split reads used") && !summary.contains(": 0 split reads used"),
        "the readers' metrics came back: " + summary);
    assertFalse(Files.exists(results.resolve("failure")), "failure needs the in-process cluster");
    try (EcCacheClient client = EcCacheClient.create(cluster.fileSystemContext())) {
      assertEquals(List.of(), client.list("ec/"), "the benchmark removes its objects");
    }
  }

  @Test
  void datapathRunsAgainstARunningClusterAndCountsOnlyTheClientsCpu() throws Exception {
    StringWriter err = new StringWriter();
    Path results = dir.resolve("datapath");
    CapturedRun run = CapturedRun.of(() -> bench(err, "datapath", "--tiny", "-k", "2", "-r", "1",
        "--sizes", "1MiB", "--threads", "1", "--out", results.toString()));
    assertEquals(ExitCodes.OK, run.exit, err + run.stdout);
    List<String> raw = Files.readAllLines(results.resolve("raw.csv"));
    List<String> columns = List.of(raw.get(0).split(","));
    assertEquals(1 + 6, raw.size(), String.join("\n", raw));
    for (String row : raw.subList(1, raw.size())) {
      String[] c = row.split(",");
      assertTrue(Double.parseDouble(c[columns.indexOf("cpu_client_s")]) > 0, row);
      if ("GET".equals(c[columns.indexOf("op")])) {
        assertEquals(2L << 20, Long.parseLong(c[columns.indexOf("verified_bytes")]), row);
      }
    }
    String summary = Files.readString(results.resolve("summary.md"));
    for (String part : List.of("the running cluster at " + master + " (4 workers",
        "this client process's CPU time only")) {
      assertTrue(summary.contains(part), part + " missing from\n" + summary);
    }
    try (EcCacheClient client = EcCacheClient.create(cluster.fileSystemContext())) {
      assertEquals(List.of(), client.list("eccache-datapath/"), "the benchmark removes its objects");
    }
  }
}
