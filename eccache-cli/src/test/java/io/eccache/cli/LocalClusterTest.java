package io.eccache.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.conf.AlluxioConfiguration;
import io.eccache.client.EcCacheClient;
import io.eccache.client.PutOptions;
import io.eccache.client.WriteMode;
import io.eccache.localcluster.ClusterState;
import io.eccache.localcluster.LocalClusterCommand;
import io.eccache.localcluster.ProcessCluster;
import io.eccache.testkit.SharedCluster;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code eccache cluster start|stop|status} as a new user runs it: real detached processes in a
 * directory, an object stored through the client configured from the alluxio-site.properties the
 * command wrote, stop, start again on the same directory, and the object read back whole. (Here,
 * not in eccache-local-cluster, because it needs the client, whose tests need that module; the
 * command's checks that start no process are in LocalClusterCommandTest there.)
 */
class LocalClusterTest {
  /** Its servers are other JVMs: close this JVM's shared cluster, if any, first. */
  @RegisterExtension
  static final SharedCluster NO_SHARED_CLUSTER = SharedCluster.none();

  @TempDir
  static Path temp;

  /** Every pid any cluster of this class had, killed after the class whatever happened. */
  private static final Set<Long> PIDS = new TreeSet<>();

  @AfterAll
  static void killLeftovers() throws Exception {
    // Each child is recorded as soon as it is launched, also by a launcher that failed or was killed.
    if (Files.exists(temp.resolve("cluster").resolve(ClusterState.FILE))) {
      pids(temp.resolve("cluster"));
    }
    for (long pid : PIDS) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
    for (long pid : PIDS) {
      Optional<ProcessHandle> h = ProcessHandle.of(pid);
      if (h.isPresent()) {
        h.get().onExit().get(30, TimeUnit.SECONDS);
      }
    }
  }

  private static final class Run {
    final int exit;
    final String out;
    final String err;

    Run(int exit, String out, String err) {
      this.exit = exit;
      this.out = out;
      this.err = err;
    }

    @Override
    public String toString() {
      return "exit " + exit + "\nstdout: " + out + "\nstderr: " + err;
    }
  }

  private static Run cluster(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = LocalClusterCommand.execute(new PrintWriter(out), new PrintWriter(err), args);
    return new Run(exit, out.toString(), err.toString());
  }

  /** The pids the directory records, remembered for the clean-up. */
  private static List<Long> pids(Path dir) throws IOException {
    List<Long> pids = new ArrayList<>();
    for (ClusterState.ProcessRecord r : ClusterState.read(dir).orElseThrow().processes()) {
      pids.add(r.pid());
    }
    PIDS.addAll(pids);
    return pids;
  }

  /** A client configured from the site file the command wrote, as the CLI would read it. */
  private static EcCacheClient client(Path dir) throws IOException {
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(dir.resolve("conf/alluxio-site.properties"),
        StandardCharsets.UTF_8)) {
      p.load(in);
    }
    Map<String, String> site = new HashMap<>();
    p.stringPropertyNames().forEach(k -> site.put(k, p.getProperty(k)));
    AlluxioConfiguration conf = ProcessCluster.clientConfiguration(site);
    return EcCacheClient.create(conf);
  }

  /**
   * Runs the command's main in a JVM of its own, as bin/eccache-cluster does, and returns when that
   * JVM has exited.
   */
  private static Run launcher(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (option.startsWith("--add-") || option.startsWith("-Dio.netty")) {
        command.add(option);
      }
    }
    command.addAll(List.of("-Xmx256m", "-cp", System.getProperty("java.class.path"),
        LocalClusterCommand.class.getName()));
    command.addAll(List.of(args));
    Path out = Files.createTempFile(temp, "launcher", ".out");
    Path err = Files.createTempFile(temp, "launcher", ".err");
    Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
        .start();
    if (!p.waitFor(240, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("the launcher did not return in 240 s: " + Files.readString(out)
          + Files.readString(err));
    }
    return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  /** The session a process belongs to (/proc/PID/stat, the field after pgrp). */
  private static long session(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
    String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(after[3]); // state, ppid, pgrp, session
  }

  @Test
  void startStopAndStartAgainKeepTheObjects() throws Exception {
    Path dir = temp.resolve("cluster");
    String[] start = {"start", "--dir", dir.toString(), "--workers", "3", "--worker-memory", "64MB"};
    // The first start in a JVM that exits, as from bin/eccache-cluster: the cluster outlives it.
    Run started = launcher(start);
    assertEquals(0, started.exit, started.toString());
    assertTrue(started.out.contains("export ALLUXIO_CONF_DIR=" + dir.resolve("conf")),
        started.toString());
    for (long pid : pids(dir)) {
      // Each in a session of its own: the terminal's hang-up and Ctrl-C do not reach it.
      assertEquals(pid, session(pid), "process " + pid + " leads its own session");
    }
    Run status = cluster("status", "--dir", dir.toString());
    assertEquals(0, status.exit, status.toString());
    assertTrue(status.out.contains(": running") && status.out.contains("workers registered: 3 of 3"),
        status.toString());

    // A second start on a running directory starts nothing.
    List<Long> before = pids(dir);
    Run again = cluster(start);
    assertEquals(0, again.exit, again.toString());
    assertTrue(again.out.contains("already running"), again.toString());
    assertEquals(before, pids(dir));

    Random random = new Random(13);
    byte[] through = new byte[3_000_000];
    random.nextBytes(through);
    byte[] cached = new byte[2_000_000];
    random.nextBytes(cached);
    try (EcCacheClient client = client(dir)) {
      client.put("kept/through.bin", through, PutOptions.defaults().writeMode(WriteMode.THROUGH));
      client.put("kept/cached.bin", cached);
      assertArrayEquals(through, client.get("kept/through.bin"));
    }

    Run stopped = cluster("stop", "--dir", dir.toString());
    assertEquals(0, stopped.exit, stopped.toString());
    for (long pid : before) {
      assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
          "process " + pid + " survived stop");
    }
    Run down = cluster("status", "--dir", dir.toString());
    assertEquals(LocalClusterCommand.NOT_RUNNING, down.exit, down.toString());
    assertTrue(down.out.contains("not running"), down.toString());
    Run stopAgain = cluster("stop", "--dir", dir.toString());
    assertEquals(0, stopAgain.exit, stopAgain.toString());
    assertTrue(stopAgain.out.contains("is not running"), stopAgain.toString());

    // The same directory again: the journal is not formatted, S3's objects and tiers are there.
    Run restarted = cluster("start", "--dir", dir.toString());
    pids(dir);
    assertEquals(0, restarted.exit, restarted.toString());
    assertTrue(restarted.out.contains("restarting") && restarted.out.contains("3 workers"),
        restarted.toString());
    try (EcCacheClient client = client(dir)) {
      assertArrayEquals(through, client.get("kept/through.bin"));
      assertArrayEquals(cached, client.get("kept/cached.bin"));
    }
    List<Long> after = pids(dir);
    Run end = cluster("stop", "--dir", dir.toString());
    assertEquals(0, end.exit, end.toString());
    for (long pid : after) {
      assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
          "process " + pid + " survived stop");
    }
  }
}
