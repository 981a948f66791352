package io.eccache.cli.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/ec2/eccache-ec2.sh against a stand-in {@code aws} on the PATH (fake-aws.sh: logs every
 * call, answers as the CLI does, fails the call numbered FAKE_AWS_FAIL_AT). A failure at each step
 * of {@code all} in turn must end the script non-zero after tearing down exactly what had been
 * created: the launched instances, the security group, the bucket. The benchmark's failure, a
 * benchmark that never ends, a short quota and bad options are failures too. No AWS account needed.
 */
class Ec2TeardownTest {
  private static final String RUN = "eccache-test";
  private static final String SHA512 = "ab".repeat(64);

  @TempDir Path tmp;

  /** The script's calls to the fake (after the region) and its exit status and stderr. */
  private static final class Run {
    final int status;
    final String stderr;
    final List<String> calls;

    Run(int status, String stderr, List<String> calls) {
      this.status = status;
      this.stderr = stderr;
      this.calls = calls;
    }

    int firstIndex(String prefix) {
      for (int i = 0; i < calls.size(); i++) {
        if (calls.get(i).startsWith(prefix)) {
          return i;
        }
      }
      return -1;
    }

    List<String> after(int index) {
      return calls.subList(index + 1, calls.size());
    }

    @Override
    public String toString() {
      return "status " + status + "\ncalls:\n  " + String.join("\n  ", calls) + "\nstderr:\n"
          + stderr;
    }
  }

  private Run all(Map<String, String> fakeEnv, String... extraArgs) throws Exception {
    List<String> args = new ArrayList<>(List.of("all", "--run-id", RUN, "--region", "us-east-1",
        "--workers", "2", "--clients", "2", "--instance-type", "m5.large", "--master-type",
        "m5.large", "--instance-profile", "eccache-test", "--alluxio-sha512", SHA512));
    args.addAll(Arrays.asList(extraArgs));
    return script(fakeEnv, args);
  }

  private int runs;

  private Run script(Map<String, String> fakeEnv, List<String> args) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("run" + (++runs)));
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path aws = bin.resolve("aws");
    try (InputStream in = Ec2TeardownTest.class.getResourceAsStream("fake-aws.sh")) {
      Files.copy(in, aws);
    }
    assertTrue(aws.toFile().setExecutable(true));
    Map<String, String> env = new HashMap<>(fakeEnv);
    env.put("PATH", bin + ":" + System.getenv("PATH"));
    env.put("FAKE_AWS_DIR", dir.toString());
    env.put("ECCACHE_BUILD_ROOT", buildTree().toString());
    env.put("ECCACHE_EC2_POLL_SECONDS", "0");
    List<String> command = new ArrayList<>(List.of("bash", "deploy/ec2/eccache-ec2.sh"));
    command.addAll(args);
    command.addAll(List.of("--out", dir.resolve("out").toString()));
    String[] result = DeploymentTest.run(env, command.toArray(new String[0]));
    Path log = dir.resolve("calls.log");
    List<String> calls = new ArrayList<>();
    if (Files.exists(log)) {
      for (String line : Files.readAllLines(log)) {
        calls.add(line.substring(line.indexOf(' ') + 1));  // drop the call's number
      }
    }
    return new Run(Integer.parseInt(result[0]), result[2], calls);
  }

  /** What `up` uploads, as empty stand-ins. */
  private Path buildTree() throws IOException {
    Path root = tmp.resolve("build");
    if (!Files.exists(root)) {
      for (String jar : new String[] {
          "eccache-coordinator/target/eccache-coordinator-0.2.0.jar",
          "eccache-policy/target/eccache-policy-0.2.0.jar",
          "eccache-worker/target/eccache-worker-0.2.0.jar",
          "eccache-lognode/target/eccache-lognode-0.2.0.jar",
          "eccache-shell/target/eccache-shell-0.2.0-alluxio.jar",
          "benchmarks/target/classes/Stub.class", "benchmarks/target/lib/stub.jar"}) {
        Files.createDirectories(root.resolve(jar).getParent());
        Files.createFile(root.resolve(jar));
      }
    }
    return root;
  }

  /** The resources the calls before {@code end} created, as the teardown must name them. */
  private static Set<String> createdBefore(List<String> calls, int end) {
    Set<String> created = new TreeSet<>();
    Pattern launch = Pattern.compile("--count (\\d+) .*Key=eccache-role,Value=([a-z]+)");
    for (String call : calls.subList(0, end)) {
      if (call.startsWith("s3 mb s3://" + RUN)) {
        created.add("bucket " + RUN);
      } else if (call.startsWith("ec2 create-security-group")) {
        created.add("security-group sg-0fake");
      } else if (call.startsWith("ec2 run-instances")) {
        Matcher m = launch.matcher(call);
        assertTrue(m.find(), call);
        for (int i = 1; i <= Integer.parseInt(m.group(1)); i++) {
          created.add("instance i-" + m.group(2) + i);
        }
      }
    }
    return created;
  }

  /** The resources the teardown calls in {@code calls} removed. */
  private static Set<String> removedIn(List<String> calls) {
    Set<String> removed = new TreeSet<>();
    for (String call : calls) {
      if (call.startsWith("ec2 terminate-instances --instance-ids ")) {
        for (String id : call.substring("ec2 terminate-instances --instance-ids ".length())
            .trim().split("\\s+")) {
          removed.add("instance " + id);
        }
      } else if (call.startsWith("ec2 delete-security-group --group-id ")) {
        removed.add("security-group " + call.substring(call.lastIndexOf(' ') + 1));
      } else if (call.startsWith("s3 rb s3://")) {
        removed.add("bucket " + call.split(" ")[2].substring("s3://".length()));
      }
    }
    return removed;
  }

  /** A call's service, operation and last argument (paths differ from run to run). */
  private static String verb(String call) {
    String[] words = call.split(" ");
    return words[0] + " " + words[1] + " " + words[words.length - 1];
  }

  /** Calls a teardown makes; after a failure nothing else may run. */
  private static boolean isTeardown(String call) {
    return call.startsWith("ec2 describe-instances --filters")
        || call.startsWith("ec2 describe-security-groups") || call.startsWith("ec2 terminate-instances")
        || call.startsWith("ec2 wait instance-terminated")
        || call.startsWith("ec2 delete-security-group") || call.startsWith("s3 rb ");
  }

  @Test
  void successfulRunBenchmarksCollectsAndTearsEverythingDown() throws Exception {
    Run ok = all(Map.of());
    assertEquals(0, ok.status, ok.toString());
    int teardown = ok.firstIndex("ec2 describe-instances --filters");
    assertTrue(teardown > 0, ok.toString());
    assertEquals(Set.of("bucket " + RUN, "security-group sg-0fake", "instance i-master1",
        "instance i-worker1", "instance i-worker2", "instance i-client1", "instance i-client2"),
        createdBefore(ok.calls, teardown));
    assertEquals(createdBefore(ok.calls, teardown), removedIn(ok.after(teardown - 1)), ok.toString());
    // Quota before anything is created; SSM registration and cloud-init before the benchmark; each
    // client's invocation read before the results are collected.
    assertTrue(ok.firstIndex("service-quotas get-service-quota --service-code ec2 --quota-code "
        + "L-1216C47A") < ok.firstIndex("s3 mb"), ok.toString());
    int bench = ok.firstIndex("ssm send-command --document-name AWS-RunShellScript --instance-ids "
        + "i-client1 i-client2 --comment eccache " + RUN + ": benchmark");
    assertTrue(bench > 0, ok.toString());
    for (String id : new String[] {"i-master1", "i-worker1", "i-worker2", "i-client1",
        "i-client2"}) {
      int online = ok.firstIndex("ssm describe-instance-information --filters Key=InstanceIds,Values="
          + id + " ");
      assertTrue(online >= 0 && online < bench, id + " registered before the benchmark: " + ok);
    }
    int ready = ok.firstIndex("ssm send-command --document-name AWS-RunShellScript --instance-ids "
        + "i-master1 i-worker1 i-worker2 i-client1 i-client2 --comment eccache " + RUN
        + ": cloud-init finished --parameters commands=[\"cloud-init status --wait\"]");
    assertTrue(ready >= 0 && ready < bench, ok.toString());
    for (String id : new String[] {"i-client1", "i-client2"}) {
      assertTrue(ok.calls.indexOf("ssm get-command-invocation --command-id cmd-bench-" + (bench + 1)
          + " --instance-id " + id + " --query Status --output text") > bench, ok.toString());
    }
    assertTrue(ok.firstIndex("s3 cp --recursive s3://" + RUN + "/results/") < teardown);
    // SSH stays closed: the only ingress rule is the group itself.
    assertEquals(List.of("ec2 authorize-security-group-ingress --group-id sg-0fake --protocol -1 "
        + "--source-group sg-0fake"), ok.calls.stream().filter(c -> c.contains("ingress"))
        .collect(Collectors.toList()));
  }

  @Test
  void aFailureAtEveryStepTearsDownExactlyWhatWasCreated() throws Exception {
    Run ok = all(Map.of());
    assertEquals(0, ok.status, ok.toString());
    int steps = ok.firstIndex("ec2 describe-instances --filters");
    for (int failAt = 1; failAt <= steps; failAt++) {
      Run failed = all(Map.of("FAKE_AWS_FAIL_AT", String.valueOf(failAt)));
      String what = "failing call " + failAt + " (" + ok.calls.get(failAt - 1) + "): " + failed;
      assertNotEquals(0, failed.status, what);
      assertEquals(verb(ok.calls.get(failAt - 1)), verb(failed.calls.get(failAt - 1)), what);
      List<String> afterFailure = failed.after(failAt - 1);
      assertTrue(afterFailure.stream().allMatch(Ec2TeardownTest::isTeardown),
          "nothing but teardown after the failure: " + what);
      assertEquals(createdBefore(failed.calls, failAt - 1), removedIn(afterFailure), what);
      assertFalse(failed.stderr.contains("INCOMPLETE"), what);
    }
  }

  @Test
  void aFailedBenchmarkFailsTheRunAfterTearingDown() throws Exception {
    Run failed = all(Map.of("FAKE_AWS_BENCH_STATUS", "Failed"));
    assertNotEquals(0, failed.status, failed.toString());
    assertTrue(failed.stderr.contains("'benchmark' failed on 2 of 2 instances (i-client1: Failed "
        + "i-client2: Failed)"), failed.toString());
    assertEquals(-1, failed.firstIndex("s3 cp --recursive"), "no results collected");
    int teardown = failed.firstIndex("ec2 describe-instances --filters");
    assertEquals(createdBefore(failed.calls, teardown), removedIn(failed.after(teardown - 1)));
    assertEquals(7, removedIn(failed.calls).size(), failed.toString());
  }

  @Test
  void aBenchmarkThatNeverEndsIsGivenUpAfterItsTimeout() throws Exception {
    Run stuck = all(Map.of("FAKE_AWS_BENCH_STATUS", "InProgress",
        "ECCACHE_EC2_BENCH_TIMEOUT", "1", "ECCACHE_EC2_WAIT_MARGIN", "0"));
    assertNotEquals(0, stuck.status, stuck.toString());
    assertTrue(stuck.stderr.contains("'benchmark' did not end on i-client1 within 1s"),
        stuck.toString());
    assertEquals(7, removedIn(stuck.calls).size(), stuck.toString());
  }

  @Test
  void aShortVcpuQuotaStopsTheRunBeforeAnythingIsCreated() throws Exception {
    // 5 m5.large need 10 vCPUs.
    Run refused = all(Map.of("FAKE_AWS_QUOTA", "8.0"));
    assertNotEquals(0, refused.status, refused.toString());
    assertTrue(refused.stderr.contains("needs 10 vCPUs") && refused.stderr.contains("is 8"),
        refused.toString());
    assertEquals(List.of("service-quotas get-service-quota --service-code ec2 --quota-code "
        + "L-1216C47A --query Quota.Value --output text", "ec2 describe-instance-types "
        + "--instance-types m5.large --query InstanceTypes[0].VCpuInfo.DefaultVCpus --output text"),
        refused.calls);
  }

  @Test
  void aFailingTeardownStepDoesNotStopTheRestAndFailsTheRun() throws Exception {
    Run ok = all(Map.of());
    int terminate = ok.firstIndex("ec2 terminate-instances");
    Run failed = all(Map.of("FAKE_AWS_FAIL_AT", String.valueOf(terminate + 1)));
    assertNotEquals(0, failed.status, failed.toString());
    assertTrue(failed.stderr.contains("teardown of " + RUN + " is INCOMPLETE")
        && failed.stderr.contains("terminating instances"), failed.toString());
    // The bucket and the group are still attempted.
    assertTrue(failed.firstIndex("s3 rb s3://" + RUN + " --force") > terminate, failed.toString());
    assertTrue(failed.firstIndex("ec2 delete-security-group") > terminate, failed.toString());
  }

  @Test
  void downWithoutAStateFileFindsTheRunByItsTags() throws Exception {
    // Another machine, or an instance whose id was lost: the tag finds them.
    Run down = script(Map.of("FAKE_AWS_TAGGED_INSTANCES", "i-lost1\ti-lost2",
        "FAKE_AWS_BUCKET_TAG", RUN), List.of("down", "--run-id", RUN));
    assertEquals(0, down.status, down.toString());
    assertEquals(Set.of("instance i-lost1", "instance i-lost2", "bucket " + RUN),
        removedIn(down.calls), down.toString());

    Run nothing = script(Map.of(), List.of("down", "--run-id", RUN));
    assertEquals(0, nothing.status, nothing.toString());
    assertEquals(Set.of(), removedIn(nothing.calls), "no bucket, nothing tagged: " + nothing);
  }

  @Test
  void sshOpensOnlyToTheGivenRangeAndBadInputIsRefusedBeforeAnyCall() throws Exception {
    Run ssh = all(Map.of(), "--ssh-cidr", "203.0.113.7/32");
    assertEquals(0, ssh.status, ssh.toString());
    assertTrue(ssh.calls.contains("ec2 authorize-security-group-ingress --group-id sg-0fake "
        + "--protocol tcp --port 22 --cidr 203.0.113.7/32"), ssh.toString());

    Run world = all(Map.of(), "--ssh-cidr", "0.0.0.0/0");
    assertEquals(2, world.status, world.toString());
    assertTrue(world.stderr.contains("whole internet"), world.toString());
    assertEquals(List.of(), world.calls);

    List<String> noChecksum = new ArrayList<>(List.of("all", "--run-id", RUN, "--workers", "2",
        "--clients", "2", "--instance-profile", "p"));
    Run unpinned = script(Map.of(), noChecksum);
    assertEquals(2, unpinned.status, unpinned.toString());
    assertTrue(unpinned.stderr.contains("SHA-512 is not pinned")
        && unpinned.stderr.contains("alluxio-2.9.6-bin.tar.gz.sha512"), unpinned.toString());
    assertEquals(List.of(), unpinned.calls);
  }
}
