package io.eccache.localcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster command's checks that need no cluster: bad input refused before anything is created,
 * directories that are not a cluster's never used or purged, and a recorded pid now held by another
 * process never taken for the cluster's. The command against real processes: LocalClusterTest in
 * eccache-cli.
 */
class LocalClusterCommandTest {
  @TempDir
  Path temp;

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

  @Test
  void badInputIsRefusedBeforeAnythingIsCreated() {
    Path fresh = temp.resolve("never");
    Run one = cluster("start", "--dir", fresh.toString(), "--workers", "1");
    assertEquals(LocalClusterCommand.USAGE, one.exit, one.toString());
    assertTrue(one.err.contains("--workers 1"), one.toString());
    Run many = cluster("start", "--dir", fresh.toString(), "--workers", "254");
    assertEquals(LocalClusterCommand.USAGE, many.exit, many.toString());
    Run memory = cluster("start", "--dir", fresh.toString(), "--worker-memory", "lots");
    assertEquals(LocalClusterCommand.USAGE, memory.exit, memory.toString());
    assertTrue(memory.err.contains("--worker-memory lots"), memory.toString());
    Run tiny = cluster("start", "--dir", fresh.toString(), "--worker-memory", "1MB");
    assertEquals(LocalClusterCommand.USAGE, tiny.exit, tiny.toString());
    Run property = cluster("start", "--dir", fresh.toString(), "-D", "no.such.key=1");
    assertEquals(LocalClusterCommand.USAGE, property.exit, property.toString());
    assertTrue(property.err.contains("no.such.key"), property.toString());
    Run option = cluster("start", "--dir", fresh.toString(), "--no-such-option");
    assertEquals(LocalClusterCommand.USAGE, option.exit, option.toString());
    assertFalse(Files.exists(fresh));
  }

  @Test
  void aDirectoryThatIsNotAClustersIsNeverUsedOrPurged() throws Exception {
    Path other = Files.createDirectories(temp.resolve("other"));
    Files.writeString(other.resolve("notes.txt"), "mine");
    Run start = cluster("start", "--dir", other.toString());
    assertEquals(LocalClusterCommand.USAGE, start.exit, start.toString());
    assertTrue(start.err.contains("holds other files"), start.toString());
    Run purge = cluster("stop", "--dir", other.toString(), "--purge");
    assertEquals(LocalClusterCommand.OK, purge.exit, purge.toString());
    assertTrue(purge.out.contains("nothing to stop"), purge.toString());
    assertTrue(Files.exists(other.resolve("notes.txt")));
    Path file = Files.writeString(temp.resolve("a-file"), "x");
    Run onFile = cluster("start", "--dir", file.toString());
    assertEquals(LocalClusterCommand.USAGE, onFile.exit, onFile.toString());
    assertTrue(onFile.err.contains("not a directory"), onFile.toString());
  }

  @Test
  void statusAndStopOfNoClusterSaySo() {
    Path none = temp.resolve("none");
    Run status = cluster("status", "--dir", none.toString());
    assertEquals(LocalClusterCommand.NOT_RUNNING, status.exit, status.toString());
    assertTrue(status.out.contains("no eccache cluster in " + none), status.toString());
    Run stop = cluster("stop", "--dir", none.toString());
    assertEquals(LocalClusterCommand.OK, stop.exit, stop.toString());
    assertTrue(stop.out.contains("nothing to stop"), stop.toString());
    assertFalse(Files.exists(none));
  }

  @Test
  void aRecordedPidNowHeldByAnotherProcessIsNotTheClusters() throws Exception {
    ProcessHandle self = ProcessHandle.current();
    ClusterState state = new ClusterState();
    state.record("master", self, "127.0.0.1:1");
    state.set("workers", 3);
    state.write(temp);
    List<ClusterState.ProcessRecord> read = ClusterState.read(temp).orElseThrow().processes();
    assertEquals(1, read.size());
    assertEquals(self.pid(), read.get(0).pid());
    assertEquals("127.0.0.1:1", read.get(0).address());
    assertTrue(read.get(0).isAlive(), "this JVM, recorded with its start time, is alive");
    assertEquals(3, ClusterState.read(temp).orElseThrow().getLong("workers", -1));

    // The same pid with another start time: a process that reused the pid after the cluster's died.
    String file = Files.readString(temp.resolve(ClusterState.FILE));
    String started = "process.master.started=" + self.info().startInstant().orElseThrow()
        .toEpochMilli();
    assertTrue(file.contains(started), file);
    Files.writeString(temp.resolve(ClusterState.FILE), file.replace(started,
        "process.master.started=12345"));
    assertFalse(ClusterState.read(temp).orElseThrow().processes().get(0).isAlive());
  }

  /**
   * The cluster's directory is under {@code $HOME} as the shell's {@code ~} is (Java's
   * {@code user.home} ignores it), or under {@code $ECCACHE_HOME}: in a JVM of its own, whose
   * environment the test sets.
   */
  @Test
  void theClusterLivesUnderHomeOrEccacheHome(@TempDir Path home) throws Exception {
    assertTrue(status(Map.of("HOME", home.toString()))
        .contains(home.resolve(".eccache").resolve("cluster").toString()));
    Path own = home.resolve("own");
    assertTrue(status(Map.of("HOME", home.toString(), "ECCACHE_HOME", own.toString()))
        .contains(own.resolve("cluster").toString()));
  }

  private static String status(Map<String, String> env) throws Exception {
    // Output to a file, so a hung child fails the bounded wait instead of blocking a read.
    Path output = Files.createTempFile("eccache-status", ".txt");
    try {
      ProcessBuilder pb = new ProcessBuilder(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
          System.getProperty("java.class.path"), LocalClusterCommand.class.getName(), "status")
          .redirectErrorStream(true).redirectOutput(output.toFile());
      pb.environment().remove(io.eccache.common.EcCacheHome.VARIABLE);
      pb.environment().putAll(env);
      Process p = pb.start();
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("eccache cluster status did not end within 60 s");
      }
      String text = Files.readString(output, StandardCharsets.UTF_8);
      assertEquals(3, p.exitValue(), "no cluster there: " + text);
      return text;
    } finally {
      Files.deleteIfExists(output);
    }
  }
}
