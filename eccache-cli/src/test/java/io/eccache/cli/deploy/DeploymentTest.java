package io.eccache.cli.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deployment files, checked with the tools that read them: docker-compose.yml by
 * {@code docker-compose config}, every shell script by shellcheck, and the EC2 scripts by a dry run
 * that renders the templates and prints every AWS call and the cost. The tools come from
 * scripts/install-deps.sh; a missing one fails the test saying so.
 */
class DeploymentTest {
  /** The repository root (tests run in the eccache-cli module's directory). */
  static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  @TempDir Path out;

  /** Runs a command in the repository root: exit status, stdout, stderr. */
  static String[] run(String... command) throws Exception {
    Path stdout = Files.createTempFile("deploy", ".out");
    Path stderr = Files.createTempFile("deploy", ".err");
    Process p;
    try {
      p = new ProcessBuilder(command).directory(ROOT.toFile())
          .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
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

  @Test
  void composeFileIsValidAndWiresThePluginAndS3() throws Exception {
    String[] config = run("docker-compose", "-f", "docker-compose.yml", "config");
    assertEquals("0", config[0], config[2]);
    String yaml = config[1];
    for (String service : new String[] {"minio:", "minio-bucket:", "alluxio-master:", "worker1:",
        "worker6:", "eccache:"}) {
      assertTrue(yaml.contains("\n  " + service), service + " missing:\n" + yaml);
    }
    assertTrue(yaml.contains("ALLUXIO_CLASSPATH: /opt/eccache/lib/*"), yaml);
    assertTrue(yaml.contains("/opt/eccache/lib/eccache-coordinator.jar:ro"), yaml);
    assertTrue(yaml.contains("-Dalluxio.master.mount.table.root.ufs=s3://eccache/"), yaml);
    assertTrue(yaml.contains("-Dalluxio.master.eccache.namespace.schemes=sr=replica,sp=partition"), yaml);
    String services = run("docker-compose", "-f", "docker-compose.yml", "config", "--services")[1];
    assertEquals(10, services.lines().count(), "MinIO, its bucket, master, 6 workers, eccache: "
        + services);
  }

  @Test
  void everyShellScriptPassesShellcheck() throws Exception {
    List<String> cmd = new ArrayList<>(List.of("shellcheck", "-s", "bash"));
    cmd.addAll(List.of("bin/eccache", "bin/eccache-bench", "bin/eccache-cluster", ".ci/run",
        "deploy/ec2/eccache-ec2.sh", "deploy/ec2/templates/user-data.sh.tpl"));
    try (var scripts = Files.list(ROOT.resolve("scripts"))) {
      scripts.filter(f -> f.toString().endsWith(".sh"))
          .forEach(f -> cmd.add(ROOT.relativize(f).toString()));
    }
    String[] check = run(cmd.toArray(new String[0]));
    assertEquals("0", check[0], check[1] + check[2]);
  }

  @Test
  void ec2DryRunRendersTheTemplatesAndPrintsEveryCallAndTheCost() throws Exception {
    String[] dry = run("bash", "deploy/ec2/eccache-ec2.sh", "all", "--dry-run", "--run-id",
        "eccache-ci", "--out", out.toString());
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
