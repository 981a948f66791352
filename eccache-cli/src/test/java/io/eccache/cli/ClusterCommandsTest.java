package io.eccache.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.conf.Configuration;
import alluxio.conf.PropertyKey;
import alluxio.metrics.MetricsSystem;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.eccache.common.EcCacheMetrics;
import io.eccache.common.MasterKeys;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.SharedCluster;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** put, get, stat, ls, rm and stats against a real 4-worker cluster, as a script would use them. */
class ClusterCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @RegisterExtension
  static final SharedCluster CLUSTER = SharedCluster.of(EmbeddedCluster.builder().workers(4)
      .workerMemoryBytes(64L << 20)
      .property(MasterKeys.DEFAULT_K, 2).property(MasterKeys.DEFAULT_R, 1)
      // What a deployment running the demo and the benchmark sets on its master.
      .property(MasterKeys.NAMESPACE_SCHEMES, "sr=replica,sp=partition")
      .property(MasterKeys.POPULARITY_PERIOD, "5s").property(MasterKeys.RETUNE_INTERVAL, "1s"));
  private static String master;

  @TempDir static Path dir;

  @BeforeAll
  static void start() throws Exception {
    CLUSTER.cluster();
    master = Configuration.getString(PropertyKey.MASTER_HOSTNAME) + ":"
        + Configuration.getInt(PropertyKey.MASTER_RPC_PORT);
  }

  /** A finished command: exit status, stdout, stderr. */
  private static final class Run {
    final int exit;
    final String out;
    final String err;

    Run(int exit, String out, String err) {
      this.exit = exit;
      this.out = out;
      this.err = err;
    }

    JsonNode json() throws Exception {
      return JSON.readTree(out);
    }

    @Override
    public String toString() {
      return "exit " + exit + "\nstdout: " + out + "\nstderr: " + err;
    }
  }

  private static Run eccache(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = EcCacheCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    List<String> all = new ArrayList<>(Arrays.asList(args));
    if (all.stream().noneMatch(a -> a.startsWith("--master"))) {
      all.add("--master=" + master);
    }
    int exit = cli.execute(all.toArray(new String[0]));
    return new Run(exit, out.toString(), err.toString());
  }

  private static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  @Test
  void putGetStatListRemoveWithJson() throws Exception {
    byte[] data = bytes(2_500_001, 1);
    Path in = Files.write(dir.resolve("a.bin"), data);
    Run put = eccache("put", "json/a", in.toString(), "--json");
    assertEquals(ExitCodes.OK, put.exit, put.toString());
    JsonNode stored = put.json();
    assertEquals("ec", stored.get("kind").asText(), put.out);
    assertEquals("rs-2-1", stored.get("scheme").asText(), "the cluster's default code");
    assertEquals(2_500_001, stored.get("size").asLong());
    assertTrue(stored.get("seconds").asDouble() > 0, put.out);

    Path out = dir.resolve("a.out");
    Run get = eccache("get", "json/a", out.toString(), "--delta", "0");
    assertEquals(ExitCodes.OK, get.exit, get.toString());
    assertArrayEquals(data, Files.readAllBytes(out));
    assertTrue(get.out.startsWith("get json/a: 2.4 MiB to "), get.out);

    JsonNode stat = eccache("stat", "json/a", "--json").json();
    assertEquals(stat.get("splits").asInt(), stat.get("liveSplits").asInt());
    assertFalse(stat.get("persisted").asBoolean(), "CACHE_ONLY by default");
    assertTrue(eccache("stat", "json/a").out.contains("stored as:    RS(2,"));

    Path small = Files.write(dir.resolve("b.bin"), bytes(1000, 2));
    assertEquals(ExitCodes.OK, eccache("put", "json/b", small.toString(), "-s", "replica-3").exit);
    assertEquals("json/a\njson/b\n", eccache("ls", "json/").out);
    JsonNode listed = eccache("ls", "json/", "-l", "--json").json();
    assertEquals(2, listed.size(), listed.toString());
    assertEquals("3 copies", listed.get(1).get("shape").asText());
    assertTrue(eccache("ls", "json/", "-l").out.contains("3 copies"));

    Run rm = eccache("rm", "json/a", "json/b", "json/never", "--json");
    assertEquals(ExitCodes.NOT_FOUND, rm.exit, "one key did not exist: " + rm);
    assertEquals("[\"json/never\"]", rm.json().get("missing").toString());
    assertEquals(ExitCodes.OK, eccache("rm", "-f", "json/never").exit);
    assertEquals("", eccache("ls", "json/").out);
  }

  @Test
  void stdinAndStdoutStreamTheObject() throws Exception {
    byte[] data = bytes(1_300_000, 3);
    InputStream stdin = System.in;
    try {
      System.setIn(new ByteArrayInputStream(data));
      Run put = eccache("put", "cli/stdin", "-s", "rs-3-1", "-w", "THROUGH");
      assertEquals(ExitCodes.OK, put.exit, put.toString());
      assertTrue(put.out.contains("as RS(3,1), THROUGH"), put.out);
    } finally {
      System.setIn(stdin);
    }
    assertTrue(eccache("stat", "cli/stdin", "--json").json().get("persisted").asBoolean());
    Path out = dir.resolve("stdin.out");
    assertEquals(ExitCodes.OK, eccache("get", "cli/stdin", out.toString()).exit);
    assertArrayEquals(data, Files.readAllBytes(out));
  }

  @Test
  void failuresExitWithMeaningfulCodesAndOneLineMessages() throws Exception {
    Run missing = eccache("get", "cli/none", dir.resolve("none.out").toString());
    assertEquals(ExitCodes.NOT_FOUND, missing.exit, missing.toString());
    assertTrue(missing.err.startsWith("eccache get: ") && missing.err.contains("cli/none")
        && missing.err.trim().lines().count() == 1, missing.err);
    assertFalse(Files.exists(dir.resolve("none.out")), "no file for a failed GET");

    Path in = Files.write(dir.resolve("c.bin"), bytes(2_000_000, 4));
    Run tooWide = eccache("put", "cli/c", in.toString(), "-s", "rs-4-2");
    assertEquals(ExitCodes.REJECTED, tooWide.exit, tooWide.toString());
    assertTrue(tooWide.err.contains("only 4 are live"), tooWide.err);

    assertEquals(ExitCodes.NOT_FOUND,
        eccache("put", "cli/c", dir.resolve("no-such-file").toString()).exit);
    Run badScheme = eccache("put", "cli/c", in.toString(), "-s", "raid5");
    assertEquals(ExitCodes.USAGE, badScheme.exit, badScheme.toString());
    assertTrue(badScheme.err.contains("rs-K-R"), badScheme.err);

    Run noCluster = eccache("stat", "cli/c", "-D", "alluxio.user.rpc.retry.max.duration=2s",
        "--master=127.0.0.1:1");
    assertEquals(ExitCodes.UNAVAILABLE, noCluster.exit, noCluster.toString());
    assertTrue(noCluster.err.contains("127.0.0.1"), "names the master it tried: " + noCluster.err);
  }

  @Test
  void statsShowsTheCoordinatorAndItsMetrics() throws Exception {
    Path in = Files.write(dir.resolve("d.bin"), bytes(1_500_000, 5));
    assertEquals(ExitCodes.OK, eccache("put", "cli/d", in.toString()).exit);
    assertEquals(ExitCodes.OK, eccache("get", "cli/d", dir.resolve("d.out").toString()).exit);
    Run stats = eccache("stats", "--json");
    assertEquals(ExitCodes.OK, stats.exit, stats.toString());
    JsonNode s = stats.json();
    assertEquals(4, s.get("liveWorkers").asInt());
    assertTrue(s.get("objects").asLong() >= 1 && s.get("lookups").asLong() >= 1, stats.out);
    JsonNode metrics = s.get("metrics");
    assertTrue(metrics.has("Master." + EcCacheMetrics.LOOKUPS), "the coordinator's gauges reach "
        + "the master's metrics system: " + metrics);
    assertTrue(metrics.get("Master." + EcCacheMetrics.LOOKUPS).asDouble() >= 1, metrics.toString());
    assertTrue(eccache("stats").out.contains("master metrics:"));
    // The client side: this JVM's GET went into Alluxio's registry.
    long gets = MetricsSystem.METRIC_REGISTRY.getTimers().entrySet().stream()
        .filter(e -> e.getKey().contains(EcCacheMetrics.GET_LATENCY))
        .mapToLong(e -> e.getValue().getCount()).sum();
    long splitsRead = MetricsSystem.METRIC_REGISTRY.getCounters().entrySet().stream()
        .filter(e -> e.getKey().contains(EcCacheMetrics.SPLITS_READ))
        .mapToLong(e -> e.getValue().getCount()).sum();
    assertTrue(splitsRead >= 2, "a GET of an RS(2,1) object uses at least k = 2 splits");
    assertEquals(0, gets, "the CLI streams (openStream), it does not time byte-array GETs");
  }
}
