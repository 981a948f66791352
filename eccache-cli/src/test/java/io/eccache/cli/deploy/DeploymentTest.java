package io.eccache.cli.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deployment files, checked with the tools that read them: docker-compose.yml by
 * {@code docker-compose config} (skipped without docker-compose), the image's entrypoint with
 * stand-ins for Alluxio's, every shell script by shellcheck, and the EC2 scripts by a dry run
 * that renders the templates and prints every AWS call and the cost. The tools come from
 * scripts/install-deps.sh; a missing shellcheck fails the test saying so.
 */
class DeploymentTest {
  /** The repository root (tests run in the eccache-cli module's directory). */
  static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  @TempDir Path out;

  /** Runs a command in the repository root: exit status, stdout, stderr. */
  static String[] run(String... command) throws Exception {
    return run(Map.of(), command);
  }

  /** Runs a command in the repository root with extra environment: exit status, stdout, stderr. */
  static String[] run(Map<String, String> env, String... command) throws Exception {
    Path stdout = Files.createTempFile("deploy", ".out");
    Path stderr = Files.createTempFile("deploy", ".err");
    Process p;
    try {
      ProcessBuilder pb = new ProcessBuilder(command).directory(ROOT.toFile())
          .redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
      pb.environment().putAll(env);
      p = pb.start();
    } catch (IOException missing) {
      throw new AssertionError(command[0] + " is not installed: run scripts/install-deps.sh "
          + "(it installs docker-compose and shellcheck)", missing);
    }
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " did not finish in 2 minutes");
    }
    String[] result = {String.valueOf(p.exitValue()), Files.readString(stdout),
        Files.readString(stderr)};
    Files.delete(stdout);
    Files.delete(stderr);
    return result;
  }

  /** {@code docker-compose config} rendered with {@code .env.example} as the .env file, parsed. */
  private static JsonNode composeConfig(Map<String, String> env, String envFile) throws Exception {
    String[] config = run(env, "docker-compose", "--env-file", envFile, "-f", "docker-compose.yml",
        "config");
    assertEquals("0", config[0], config[2]);
    return new ObjectMapper(new YAMLFactory()).readTree(config[1]);
  }

  private static void assumeDockerCompose() {
    boolean present;
    try {
      present = new ProcessBuilder("docker-compose", "version").redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor() == 0;
    } catch (IOException | InterruptedException e) {
      present = false;
    }
    Assumptions.assumeTrue(present, "docker-compose is not installed (scripts/install-deps.sh "
        + "installs it): the compose file is not checked");
  }

  @Test
  void composeFileIsValidAndWiresThePluginAndS3() throws Exception {
    assumeDockerCompose();
    JsonNode services = composeConfig(Map.of(), ".env.example").get("services");
    List<String> names = new ArrayList<>();
    services.fieldNames().forEachRemaining(names::add);
    assertEquals(List.of("alluxio-master", "eccache", "minio", "minio-bucket", "worker1", "worker2",
        "worker3", "worker4", "worker5", "worker6"), names.stream().sorted().collect(
        Collectors.toList()), "MinIO, its bucket, master, 6 workers, eccache");
    JsonNode master = services.get("alluxio-master");
    assertEquals("/opt/eccache/lib/*", master.at("/environment/ALLUXIO_CLASSPATH").asText());
    assertTrue(master.get("volumes").toString().contains("/opt/eccache/lib/eccache-coordinator.jar:ro"),
        master.toString());
    JsonNode worker = services.get("worker1");
    assertTrue(worker.get("volumes").toString().contains("/opt/eccache/lib/eccache-worker.jar:ro"),
        "the worker plugin (log nodes) on the workers: " + worker);
    String opts = master.at("/environment/ALLUXIO_JAVA_OPTS").asText();
    assertTrue(opts.contains("-Dalluxio.master.mount.table.root.ufs=s3://eccache/"), opts);
    assertTrue(opts.contains("-Dalluxio.master.eccache.namespace.schemes=sr=replica,sp=partition"), opts);
  }

  @Test
  void composeKeepsDataAcrossRestartsAndStartsInHealthOrder() throws Exception {
    assumeDockerCompose();
    JsonNode config = composeConfig(Map.of(), ".env.example");
    JsonNode services = config.get("services");
    JsonNode master = services.get("alluxio-master");
    // Never formats an existing journal: the image's entrypoint formats an empty one only.
    assertEquals(List.of("master-only", "--no-format"), strings(master.get("command")));
    assertEquals(List.of("master-journal:/journal:rw"), volumesNamed(master, "master-journal"));
    assertTrue(master.at("/environment/ALLUXIO_JAVA_OPTS").asText()
        .contains("-Dalluxio.master.journal.folder=/journal/master"), master.toString());
    assertHealthcheck(master, "19999");
    assertEquals("service_completed_successfully",
        master.at("/depends_on/minio-bucket/condition").asText(), master.toString());
    for (int i = 1; i <= 6; i++) {
      JsonNode worker = services.get("worker" + i);
      assertEquals(List.of("worker-only", "--no-format"), strings(worker.get("command")));
      assertEquals(List.of("worker-storage:/storage:rw"), volumesNamed(worker, "worker-storage"));
      assertHealthcheck(worker, "30000");
      assertEquals("service_healthy", worker.at("/depends_on/alluxio-master/condition").asText(),
          worker.toString());
    }
    JsonNode tool = services.get("eccache");
    for (String dependency : new String[] {"alluxio-master", "worker1", "worker6"}) {
      assertEquals("service_healthy", tool.at("/depends_on/" + dependency + "/condition").asText(),
          tool.toString());
    }
    JsonNode minio = services.get("minio");
    assertEquals(List.of("minio-data:/data:rw"), volumesNamed(minio, "minio-data"));
    assertTrue(minio.has("healthcheck"), minio.toString());
    List<String> volumes = new ArrayList<>();
    config.get("volumes").fieldNames().forEachRemaining(volumes::add);
    assertEquals(List.of("master-journal", "minio-data", "worker-storage"),
        volumes.stream().sorted().collect(Collectors.toList()));
  }

  @Test
  void composePortsListenOnLoopbackUnlessToldOtherwise() throws Exception {
    assumeDockerCompose();
    List<String> ports = publishedPorts(composeConfig(Map.of(), ".env.example"));
    assertEquals(List.of("127.0.0.1:19998:19998/tcp", "127.0.0.1:19999:19999/tcp",
        "127.0.0.1:9001:9001/tcp"), ports);
    List<String> widened = publishedPorts(composeConfig(Map.of("ECCACHE_BIND", "192.0.2.7"),
        ".env.example"));
    assertTrue(widened.stream().allMatch(p -> p.startsWith("192.0.2.7:")), widened.toString());
  }

  @Test
  void composeTakesCredentialsFromDotEnvAndKeepsThemOffEveryCommandLine() throws Exception {
    assumeDockerCompose();
    assertTrue(Files.readAllLines(ROOT.resolve(".gitignore")).contains(".env"),
        ".env (the credentials) must be ignored by git");
    Properties example = new Properties();
    try (var in = Files.newBufferedReader(ROOT.resolve(".env.example"))) {
      example.load(in);
    }
    String secret = example.getProperty("ECCACHE_S3_SECRET_KEY");
    assertTrue(secret != null && secret.length() >= 8, "a secret in .env.example: " + secret);
    JsonNode services = composeConfig(Map.of(), ".env.example").get("services");
    List<String> carriers = new ArrayList<>();
    services.fields().forEachRemaining(service -> {
      JsonNode s = service.getValue();
      for (String option : new String[] {"command", "entrypoint", "healthcheck"}) {
        assertFalse(s.path(option).toString().contains(secret),
            service.getKey() + "'s " + option + " holds the S3 secret: " + s.path(option));
      }
      s.path("environment").fields().forEachRemaining(e -> {
        if (e.getValue().asText().contains(secret)) {
          carriers.add(service.getKey() + "." + e.getKey());
          assertFalse(e.getKey().contains("JAVA_OPTS"), e.getKey() + " is on a command line");
        }
      });
    });
    // The secret reaches exactly what reads it from the environment: Alluxio's S3 client (AWS SDK
    // default chain) in the master and every worker, MinIO, and mc's alias.
    List<String> expected = new ArrayList<>(List.of("alluxio-master.AWS_SECRET_ACCESS_KEY",
        "minio-bucket.MC_HOST_s3", "minio.MINIO_ROOT_PASSWORD"));
    for (int i = 1; i <= 6; i++) {
      expected.add("worker" + i + ".AWS_SECRET_ACCESS_KEY");
    }
    assertEquals(expected.stream().sorted().collect(Collectors.toList()),
        carriers.stream().sorted().collect(Collectors.toList()));

    // Without a .env, compose refuses to start and says what to do.
    Path empty = Files.createFile(out.resolve("empty.env"));
    String[] missing = run(Map.of(), "docker-compose", "--env-file", empty.toString(), "-f",
        "docker-compose.yml", "config");
    assertNotEquals("0", missing[0]);
    assertTrue(missing[2].contains("copy .env.example to .env"), missing[2]);
  }

  /**
   * deploy/docker/eccache-entrypoint.sh with stand-ins for Alluxio's entrypoint and bin/alluxio:
   * the master formats an empty journal once, never a kept one; workers get their own storage
   * directory on the volume.
   */
  @Test
  void imageEntrypointFormatsTheJournalOnlyWhenItIsEmpty() throws Exception {
    Path log = out.resolve("calls.log");
    Path fakeEntrypoint = out.resolve("entrypoint.sh");
    Files.writeString(fakeEntrypoint, "#!/usr/bin/env bash\necho \"entrypoint $* ram=${ALLUXIO_RAM_FOLDER:-}\" >> \""
        + log + "\"\n");
    Path fakeAlluxio = out.resolve("alluxio");
    Files.writeString(fakeAlluxio, "#!/usr/bin/env bash\necho \"alluxio $*\" >> \"" + log + "\"\n");
    fakeEntrypoint.toFile().setExecutable(true);
    fakeAlluxio.toFile().setExecutable(true);
    Path journal = out.resolve("journal/master");
    Map<String, String> env = Map.of("ECCACHE_ALLUXIO_ENTRYPOINT", fakeEntrypoint.toString(),
        "ECCACHE_ALLUXIO_BIN", fakeAlluxio.toString(), "ECCACHE_JOURNAL_DIR", journal.toString(),
        "ECCACHE_WORKER_STORAGE", out.resolve("storage").toString());
    String script = "deploy/docker/eccache-entrypoint.sh";

    String[] first = run(env, "bash", script, "master-only", "--no-format");
    assertEquals("0", first[0], first[2]);
    assertEquals(List.of("alluxio formatJournal", "entrypoint master-only --no-format ram="),
        Files.readAllLines(log), "first start: format, then start without formatting");
    Files.writeString(journal.resolve("raft-log"), "the journal a master wrote");
    Files.delete(log);
    String[] second = run(env, "bash", script, "master-only", "--no-format");
    assertEquals("0", second[0], second[2]);
    assertEquals(List.of("entrypoint master-only --no-format ram="), Files.readAllLines(log),
        "a kept journal is never formatted");
    assertTrue(Files.exists(journal.resolve("raft-log")));

    Files.delete(log);
    String[] worker = run(env, "bash", script, "worker-only", "--no-format");
    assertEquals("0", worker[0], worker[2]);
    String hostname = run(Map.of(), "hostname")[1].trim();
    Path storage = out.resolve("storage").resolve(hostname);
    assertEquals(List.of("entrypoint worker-only --no-format ram=" + storage),
        Files.readAllLines(log));
    assertTrue(Files.isDirectory(storage), storage + " created");
  }

  private static void assertHealthcheck(JsonNode service, String port) {
    String test = service.path("healthcheck").path("test").toString();
    assertTrue(test.contains("http://localhost:" + port + "/"), "healthcheck probes " + port + ": "
        + service);
  }

  private static List<String> strings(JsonNode array) {
    List<String> list = new ArrayList<>();
    array.forEach(n -> list.add(n.asText()));
    return list;
  }

  private static List<String> volumesNamed(JsonNode service, String name) {
    return strings(service.get("volumes")).stream().filter(v -> v.startsWith(name + ":"))
        .collect(Collectors.toList());
  }

  private static List<String> publishedPorts(JsonNode config) {
    List<String> ports = new ArrayList<>();
    config.get("services").forEach(s -> s.path("ports").forEach(p -> ports.add(p.asText())));
    return ports.stream().sorted().collect(Collectors.toList());
  }

  @Test
  void everyShellScriptPassesShellcheck() throws Exception {
    List<String> cmd = new ArrayList<>(List.of("shellcheck", "-s", "bash"));
    cmd.addAll(List.of("bin/eccache", "bin/eccache-bench", "bin/eccache-cluster",
        "bin/eccache-spark-example", "bin/lib/launcher.sh", ".ci/run", "deploy/ec2/eccache-ec2.sh",
        "deploy/ec2/templates/user-data.sh.tpl", "deploy/docker/eccache-entrypoint.sh",
        "eccache-cli/src/test/resources/io/eccache/cli/deploy/fake-aws.sh"));
    try (var scripts = Files.list(ROOT.resolve("scripts"))) {
      scripts.filter(f -> f.toString().endsWith(".sh"))
          .forEach(f -> cmd.add(ROOT.relativize(f).toString()));
    }
    String[] check = run(cmd.toArray(new String[0]));
    assertEquals("0", check[0], check[1] + check[2]);
  }

  @Test
  void ec2DryRunRendersTheTemplatesAndPrintsEveryCallAndTheCost() throws Exception {
    String sha512 = "0123456789abcdef".repeat(8);
    String[] dry = run("bash", "deploy/ec2/eccache-ec2.sh", "all", "--dry-run", "--run-id",
        "eccache-ci", "--out", out.toString(), "--alluxio-sha512", sha512);
    assertEquals("0", dry[0], dry[2]);
    List<String> calls = dry[2].lines().filter(l -> l.startsWith("+ aws ")).collect(
        Collectors.toList());
    List<Integer> counts = new ArrayList<>();
    for (String call : calls) {
      Matcher m = Pattern.compile("run-instances .*--count (\\d+)").matcher(call);
      if (m.find()) {
        counts.add(Integer.parseInt(m.group(1)));
      }
    }
    assertEquals(List.of(1, 25, 30), counts, "master, 25 workers, 30 clients: " + calls);
    for (String step : new String[] {"s3 mb s3://eccache-ci", "ec2 create-security-group",
        "ssm send-command", "s3 cp --recursive s3://eccache-ci/results/",
        "ec2 terminate-instances", "ec2 delete-security-group", "s3 rb s3://eccache-ci --force"}) {
      assertTrue(calls.stream().anyMatch(c -> c.contains(step)), step + " missing: " + calls);
    }
    assertFalse(calls.stream().anyMatch(c -> c.contains("0.0.0.0/0") || c.contains("--port 22")),
        "SSH closed by default: " + calls);
    assertTrue(calls.indexOf(calls.stream().filter(c -> c.contains("terminate-instances"))
        .findFirst().get()) > calls.indexOf(calls.stream().filter(c -> c.contains("send-command"))
        .findFirst().get()), "teardown comes after the benchmark");
    double cost = cost(dry[1] + dry[2]);
    // 56 c4.8xlarge for 3 h at $1.591/h is $267.29, plus at most $1.15 of S3
    assertEquals(268.44, cost, 0.01, dry[2]);

    Path worker = out.resolve("alluxio-site.properties.worker");
    String site = Files.readString(worker);
    assertTrue(site.contains("alluxio.master.hostname=10.0.0.10"), site);
    assertTrue(site.contains("alluxio.worker.ramdisk.size=8GB"), site);
    assertTrue(site.contains("alluxio.master.mount.table.root.ufs=s3://eccache-ci/data/"), site);
    for (String role : new String[] {"master", "worker", "client"}) {
      String userData = Files.readString(out.resolve("user-data." + role + ".sh"));
      assertFalse(userData.contains("@@"), "unrendered placeholder in " + role + ":\n" + userData);
      assertTrue(userData.contains("role=\"" + role + "\""), userData);
      assertTrue(userData.contains("alluxio.master.eccache.default.k=10"), "site file embedded");
      // The tarball is checked before it is unpacked.
      assertTrue(userData.contains("echo \"" + sha512 + "  /opt/alluxio-2.9.6-bin.tar.gz\" | "
          + "sha512sum -c -"), userData);
    }
    assertFalse(Files.exists(ROOT.resolve("benchmarks/results/ec2/eccache-ci")),
        "a dry run creates nothing");
  }

  @Test
  void costFollowsTheClusterAndRefusesUnknownTypes() throws Exception {
    String[] small = run("bash", "deploy/ec2/eccache-ec2.sh", "cost", "--workers", "4",
        "--clients", "2", "--instance-type", "m5.large", "--master-type", "m5.large",
        "--hours", "2");
    assertEquals("0", small[0], small[2]);
    // 7 m5.large for 2 h at $0.096/h = $1.344, plus $1.15 of S3
    assertEquals(2.49, cost(small[1]), 0.01, small[1]);
    String[] unknown = run("bash", "deploy/ec2/eccache-ec2.sh", "cost", "--instance-type",
        "x9.huge");
    assertNotEquals("0", unknown[0]);
    assertTrue(unknown[2].contains("no price for x9.huge"), unknown[2]);
  }

  private static double cost(String text) {
    Matcher m = Pattern.compile("Estimated cost: \\$([0-9.]+)").matcher(text);
    assertTrue(m.find(), "no cost estimate in: " + text);
    return Double.parseDouble(m.group(1));
  }
}
