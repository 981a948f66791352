package io.eccache.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.conf.Configuration;
import alluxio.conf.PropertyKey;
import alluxio.client.metrics.RetryHandlingMetricsMasterClient;
import alluxio.grpc.MetricType;
import alluxio.grpc.MetricValue;
import alluxio.master.MasterClientContext;
import alluxio.metrics.Metric;
import alluxio.metrics.MetricsSystem;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.eccache.common.EcCacheMetrics;
import io.eccache.common.MasterKeys;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestUsers;
import io.eccache.testkit.TestData;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.nio.file.LinkOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Instant;
import com.google.common.io.BaseEncoding;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
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
      // Small cells, so a 2.5 MB object is striped (several stripes of k cells).
      .property(MasterKeys.CELL_SIZE, "256KB")
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
    return TestData.randomBytes(n, seed);
  }

  @Test
  void aRefusalIsOneLineWithItsOwnExitCodeAndThePath() throws Exception {
    TestUsers.directory(CLUSTER.cluster().fileSystem(), "/perm", null, 0700);
    Path in = Files.write(dir.resolve("perm.bin"), bytes(10_000, 9));
    assertEquals(ExitCodes.OK, eccache("put", in.toString(), "perm/x").exit);
    String asBob = "-Dalluxio.security.login.username=" + TestUsers.BOB;
    for (String[] command : new String[][] {{"stat", "perm/x"}, {"rm", "perm/x"},
        {"get", "perm/x", dir.resolve("bob.out").toString()},
        {"put", in.toString(), "perm/y"}, {"stats"}}) {
      List<String> args = new ArrayList<>(Arrays.asList(command));
      args.add(asBob);
      Run refused = eccache(args.toArray(new String[0]));
      assertEquals(ExitCodes.PERMISSION_DENIED, refused.exit, refused.toString());
      assertEquals(1, refused.err.strip().lines().count(), "one line: " + refused);
      assertTrue(refused.err.contains("user bob may not"), refused.toString());
      if (!command[0].equals("stats")) {
        assertTrue(refused.err.contains("/perm"), "names the path: " + refused);
      }
    }
    assertEquals(ExitCodes.OK, eccache("stat", "perm/x").exit, "the superuser's key is unharmed");
    assertFalse(Files.exists(dir.resolve("bob.out")), "a refused get writes no file");
  }

  @Test
  void putGetStatListRemoveWithJson() throws Exception {
    byte[] data = bytes(2_500_001, 1);
    Path in = Files.write(dir.resolve("a.bin"), data);
    Run put = eccache("put", in.toString(), "json/a", "--json");
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
    assertEquals(ExitCodes.OK, eccache("put", small.toString(), "json/b", "-s", "replica-3").exit);
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
      Run put = eccache("put", "-", "cli/stdin", "-s", "rs-3-1", "-w", "THROUGH");
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
    Run tooWide = eccache("put", in.toString(), "cli/c", "-s", "rs-4-2");
    assertEquals(ExitCodes.REJECTED, tooWide.exit, tooWide.toString());
    assertTrue(tooWide.err.contains("only 4 are live"), tooWide.err);

    Run noFile = eccache("put", dir.resolve("no-such-file").toString(), "cli/c");
    assertEquals(ExitCodes.LOCAL_FILE, noFile.exit, noFile.toString());
    assertTrue(noFile.err.contains("No such file or directory: "), noFile.err);
    Run badScheme = eccache("put", in.toString(), "cli/c", "-s", "raid5");
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
    assertEquals(ExitCodes.OK, eccache("put", in.toString(), "cli/d").exit);
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

  private static String sha256(byte[] data) throws Exception {
    return BaseEncoding.base16().lowerCase().encode(MessageDigest.getInstance("SHA-256").digest(data));
  }

  @Test
  void statShowsTheSha256ComputedDuringThePut() throws Exception {
    byte[] small = bytes(1000, 11);
    Path smallFile = Files.write(dir.resolve("sum-small.bin"), small);
    assertEquals(ExitCodes.OK, eccache("put", smallFile.toString(), "sum/small").exit);
    JsonNode smallStat = eccache("stat", "sum/small", "--json").json();
    assertEquals("replica", smallStat.get("kind").asText(), "a small object is stored as copies");
    assertEquals(sha256(small), smallStat.get("sha256").asText());

    byte[] big = bytes(2_500_001, 12);
    Path bigFile = Files.write(dir.resolve("sum-big.bin"), big);
    assertEquals(ExitCodes.OK, eccache("put", bigFile.toString(), "sum/big", "-s", "rs-2-1").exit);
    JsonNode bigStat = eccache("stat", "sum/big", "--json").json();
    assertTrue(bigStat.get("stripes").asInt() > 1, "striped: " + bigStat);
    assertEquals(sha256(big), bigStat.get("sha256").asText());
    assertTrue(Instant.parse(bigStat.get("committed").asText()).isAfter(Instant.now().minusSeconds(600)),
        bigStat.toString());
    // As sha256sum prints it: digest, two spaces, name.
    Run stat = eccache("stat", "sum/big");
    assertTrue(stat.out.contains("sha256:       " + sha256(big) + "  sum/big"), stat.out);
    assertEquals("", stat.err, "nothing about the master when all is well");
    Run verbose = eccache("stat", "sum/big", "-v");
    assertTrue(verbose.err.startsWith("eccache: using the master at " + master + " (from --master)"),
        verbose.err);

    Run ls = eccache("ls", "sum/", "-l");
    List<String> lines = ls.out.lines().collect(Collectors.toList());
    assertTrue(lines.get(0).contains("SIZE") && lines.get(0).contains("COMMITTED")
        && lines.get(0).endsWith("KEY"), ls.out);
    assertEquals(3, lines.size(), ls.out);
    assertTrue(lines.get(1).matches(".*\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}  sum/big"), ls.out);
  }

  @Test
  void getNeverReplacesSpecialFilesLinksOrDirectories() throws Exception {
    byte[] data = bytes(300_000, 21);
    Path in = Files.write(dir.resolve("safe.bin"), data);
    assertEquals(ExitCodes.OK, eccache("put", in.toString(), "safe/dir/obj.bin").exit);

    Path devNull = Path.of("/dev/null");
    Run toNull = eccache("get", "safe/dir/obj.bin", devNull.toString());
    assertEquals(ExitCodes.OK, toNull.exit, toNull.toString());
    assertFalse(Files.isRegularFile(devNull), "/dev/null is still a device");
    assertTrue(Files.exists(devNull));

    Path fifo = dir.resolve("fifo");
    assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
    CompletableFuture<byte[]> reader = CompletableFuture.supplyAsync(() -> {
      try {
        return Files.readAllBytes(fifo);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    Run toFifo = eccache("get", "safe/dir/obj.bin", fifo.toString());
    assertEquals(ExitCodes.OK, toFifo.exit, toFifo.toString());
    assertArrayEquals(data, reader.get(30, TimeUnit.SECONDS), "the FIFO's reader got the object");
    assertFalse(Files.isRegularFile(fifo, LinkOption.NOFOLLOW_LINKS), "still a FIFO");

    Path real = Files.write(dir.resolve("real.bin"), new byte[] {1});
    Path link = Files.createSymbolicLink(dir.resolve("link.bin"), real.getFileName());
    assertEquals(ExitCodes.OK, eccache("get", "safe/dir/obj.bin", link.toString()).exit);
    assertTrue(Files.isSymbolicLink(link), "the link stays a link");
    assertArrayEquals(data, Files.readAllBytes(real), "written through to what it points to");

    Path into = Files.createDirectory(dir.resolve("into"));
    assertEquals(ExitCodes.OK, eccache("get", "safe/dir/obj.bin", into.toString()).exit);
    assertArrayEquals(data, Files.readAllBytes(into.resolve("obj.bin")), "DIR/<last segment>");
    Path slash = dir.resolve("slash");
    Files.createDirectory(slash);
    assertEquals(ExitCodes.OK, eccache("get", "safe/dir/obj.bin", slash + "/").exit);
    assertArrayEquals(data, Files.readAllBytes(slash.resolve("obj.bin")));
  }

  @Test
  void failedGetsLeaveNothingAndNameTheLocalError() throws Exception {
    Path target = Files.createDirectory(dir.resolve("failing"));
    Run noKey = eccache("get", "safe/none", target.toString());
    assertEquals(ExitCodes.NOT_FOUND, noKey.exit, noKey.toString());
    Run noKeyFile = eccache("get", "safe/none", target.resolve("x.bin").toString());
    assertEquals(ExitCodes.NOT_FOUND, noKeyFile.exit, noKeyFile.toString());
    try (Stream<Path> left = Files.list(target)) {
      assertEquals(List.of(), left.collect(Collectors.toList()), "no file, no .part");
    }

    Run missingDir = eccache("get", "safe/none", dir.resolve("no/such/dir/x").toString());
    assertEquals(ExitCodes.LOCAL_FILE, missingDir.exit, missingDir.toString());
    assertTrue(missingDir.err.contains("No such file or directory: " + dir.resolve("no/such/dir")),
        missingDir.err);
    Run slashMissing = eccache("get", "safe/none", dir.resolve("nodir") + "/");
    assertEquals(ExitCodes.LOCAL_FILE, slashMissing.exit, slashMissing.toString());

    // Root writes anywhere a mode allows nothing; /sys refuses new files even to root.
    Path readOnly = dir.resolve("read-only");
    if ("root".equals(System.getProperty("user.name"))) {
      readOnly = Path.of("/sys");
    } else {
      Files.createDirectory(readOnly);
      Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
    }
    Run denied = eccache("get", "safe/none", readOnly.resolve("x.bin").toString());
    assertEquals(ExitCodes.LOCAL_FILE, denied.exit, "checked before the key is looked up: "
        + denied);
    assertTrue(denied.err.contains("Permission denied: " + readOnly), denied.err);
    assertEquals(1, denied.err.trim().lines().count(), denied.err);
  }

  @Test
  void localInputIsCheckedBeforeTheMasterAndTheOldOrderIsRefused() throws Exception {
    // A closed port: had the command contacted the master, it would fail with exit 4.
    String nowhere = "--master=127.0.0.1:1";
    Run directory = eccache("put", dir.toString(), "in/dir", nowhere);
    assertEquals(ExitCodes.LOCAL_FILE, directory.exit, directory.toString());
    assertTrue(directory.err.startsWith("eccache put: Is a directory: "), directory.err);
    Run missing = eccache("put", dir.resolve("absent").toString(), "in/absent", nowhere);
    assertEquals(ExitCodes.LOCAL_FILE, missing.exit, missing.toString());
    assertTrue(missing.err.contains("No such file or directory: "), missing.err);

    Path file = Files.write(dir.resolve("order.bin"), bytes(10, 31));
    Run old = eccache("put", "in/order", file.toString(), nowhere);
    assertEquals(ExitCodes.USAGE, old.exit, old.toString());
    assertTrue(old.err.contains("eccache put " + file + " in/order"), "shows the new order: "
        + old.err);
    // Not detectable (neither is a local file): taken as FILE KEY, and FILE is missing.
    assertEquals(ExitCodes.LOCAL_FILE, eccache("put", "in/a", "in/b", nowhere).exit);
    assertEquals(List.of(), eccache("ls", "in/").out.lines().collect(Collectors.toList()),
        "no object entry was created");
  }

  @Test
  void metricsOptionPrintsTheClientsOwnMetrics() throws Exception {
    Path in = Files.write(dir.resolve("m.bin"), bytes(1_500_000, 41));
    assertEquals(ExitCodes.OK, eccache("put", in.toString(), "m/obj", "-s", "rs-2-1").exit);
    Run get = eccache("get", "m/obj", dir.resolve("m.out").toString(), "--metrics", "--json");
    assertEquals(ExitCodes.OK, get.exit, get.toString());
    JsonNode metrics = get.json().get("clientMetrics");
    assertTrue(metrics.get(EcCacheMetrics.SPLITS_READ).asLong() >= 2, metrics.toString());
    assertTrue(metrics.get("bytesByWorker").size() >= 2, metrics.toString());
    assertFalse(metrics.has("EcCacheLookups"), "the master's metrics are not the client's");
    Run text = eccache("get", "m/obj", dir.resolve("m2.out").toString(), "--metrics");
    assertTrue(text.err.startsWith("client metrics:") && text.err.contains(EcCacheMetrics.BYTES_READ),
        text.err);
  }

  /**
   * The path docs/metrics.md gives a long-running client (a Spark executor): with
   * alluxio.user.metrics.collection.enabled, Alluxio's client starts the sinks of its
   * metrics.properties, and eccache's client metrics reach them. A JVM of its own, as Alluxio
   * starts sinks once per JVM (this one's are the embedded master's); it lingers past a report.
   */
  @Test
  void aLongRunningClientsSinksReceiveItsMetrics() throws Exception {
    Path in = Files.write(dir.resolve("sink.bin"), bytes(1_500_000, 61));
    assertEquals(ExitCodes.OK, eccache("put", in.toString(), "sink/obj", "-s", "rs-2-1").exit);
    Path csv = Files.createDirectories(dir.resolve("sink-csv"));
    // Alluxio refuses a period under 1 s.
    Path conf = Files.writeString(dir.resolve("metrics.properties"),
        "sink.csv.class=alluxio.metrics.sink.CsvSink\nsink.csv.period=1\n"
            + "sink.csv.unit=seconds\nsink.csv.directory=" + csv + "\n");
    String[] hostPort = master.split(":");
    Process p = new ProcessBuilder(CliProcess.java(List.of(
        "-Dalluxio.master.hostname=" + hostPort[0], "-Dalluxio.master.rpc.port=" + hostPort[1],
        "-Dalluxio.user.metrics.collection.enabled=true", "-Dalluxio.metrics.conf.file=" + conf),
        LongRunningClientMain.class, "sink/obj", "2500"))
        .redirectErrorStream(true).redirectOutput(dir.resolve("sink.log").toFile()).start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the client ended");
    assertEquals(0, p.exitValue(), Files.readString(dir.resolve("sink.log")));
    try (var files = Files.list(csv)) {
      List<String> names = files.map(f -> f.getFileName().toString())
          .filter(n -> n.startsWith("Client." + EcCacheMetrics.SPLITS_READ))
          .collect(Collectors.toList());
      assertEquals(1, names.size(), "the CSV sink got the client's split reads: " + names);
      List<String> rows = Files.readAllLines(csv.resolve(names.get(0)));
      assertTrue(rows.stream().skip(1).anyMatch(r -> !r.endsWith(",0")),
          "the sink saw the GET's split reads: " + rows);
    }
  }

  private static String http(String url) throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), url);
    return r.body();
  }

  /**
   * What docs/metrics.md says of the master's endpoints and of Alluxio's client metrics heartbeat:
   * the coordinator's gauges are on /metrics/json/ and /metrics/prometheus/; a client heartbeat
   * (the RPC alluxio.user.metrics.collection.enabled sends) adds Alluxio's own cluster counters on
   * the master, and drops eccache's client metrics.
   */
  @Test
  void masterEndpointsServeTheCoordinatorsMetricsButNotTheClients() throws Exception {
    Path in = Files.write(dir.resolve("e.bin"), bytes(1000, 51));
    assertEquals(ExitCodes.OK, eccache("put", in.toString(), "e/obj").exit);
    String web = "http://127.0.0.1:" + Configuration.getInt(PropertyKey.MASTER_WEB_PORT);
    JsonNode json = JSON.readTree(http(web + "/metrics/json/"));
    assertTrue(json.get("gauges").has("Master." + EcCacheMetrics.LOOKUPS), json.toString());
    assertTrue(http(web + "/metrics/prometheus/").contains("Master_" + EcCacheMetrics.LOOKUPS));

    try (RetryHandlingMetricsMasterClient master = new RetryHandlingMetricsMasterClient(
        MasterClientContext.newBuilder(alluxio.ClientContext.create(
            new ClusterOptions().configuration())).build())) {
      double before = master.getMetrics().get("Cluster.BytesReadLocal").getDoubleValue();
      master.heartbeat(List.of(alluxio.grpc.ClientMetrics.newBuilder().setSource("eccache-test")
          .addMetrics(new Metric(MetricsSystem.InstanceType.CLIENT, "client-host",
              MetricType.COUNTER, "BytesReadLocal", 12345.0).toProto())
          .addMetrics(new Metric(MetricsSystem.InstanceType.CLIENT, "client-host",
              MetricType.COUNTER, EcCacheMetrics.SPLITS_READ, 777.0).toProto())
          .build()));
      Map<String, MetricValue> after = master.getMetrics();
      assertEquals(before + 12345, after.get("Cluster.BytesReadLocal").getDoubleValue(),
          "Alluxio's own client counters are summed on the master");
      List<String> eccache = after.keySet().stream()
          .filter(k -> k.contains(EcCacheMetrics.SPLITS_READ) && !k.startsWith("Client."))
          .collect(Collectors.toList());
      assertEquals(List.of(), eccache, "eccache's client metrics are dropped by the master");
      assertTrue(after.values().stream().noneMatch(v -> v.getDoubleValue() == 777.0));
    }
  }
}
