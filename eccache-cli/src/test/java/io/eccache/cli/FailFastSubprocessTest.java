package io.eccache.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The eccache command as a user runs it, a separate JVM on the module's runtime classpath (what
 * bin/eccache puts together), against a master that is not there: a closed port and a host that
 * does not exist. Each command must give up within the 15 s, with at most 3 lines on the
 * terminal naming the address it tried and where it came from; the libraries' logging goes to the
 * log file.
 */
class FailFastSubprocessTest {
  @TempDir static Path dir;
  private static String closedPort;
  private static Path input;

  @BeforeAll
  static void setUp() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = "127.0.0.1:" + s.getLocalPort(); // free once closed: nothing listens there
    }
    input = Files.write(dir.resolve("in.bin"), new byte[1000]);
  }

  /** A finished command: exit status, stderr, seconds it took. */
  private static final class Result {
    final int exit;
    final String err;
    final double seconds;

    Result(int exit, String err, double seconds) {
      this.exit = exit;
      this.err = err;
      this.seconds = seconds;
    }

    @Override
    public String toString() {
      return "exit " + exit + " after " + seconds + " s, stderr:\n" + err;
    }
  }

  private static Result eccache(String... args) throws Exception {
    return run(CliProcess.command(List.of(), args));
  }

  private static Result run(List<String> command) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectOutput(dir.resolve("out.txt").toFile())
        .redirectError(dir.resolve("err.txt").toFile());
    builder.environment().put("ECCACHE_LOG_DIR", dir.resolve("logs").toString());
    builder.environment().remove("ALLUXIO_CONF_DIR");
    long started = System.nanoTime();
    Process p = builder.start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(command + " still runs after 60 s");
    }
    return new Result(p.exitValue(), Files.readString(dir.resolve("err.txt")),
        (System.nanoTime() - started) / 1e9);
  }

  private static void assertFailsFastAndQuietly(Result r, String master) {
    assertEquals(ExitCodes.UNAVAILABLE, r.exit, r.toString());
    assertTrue(r.seconds < 15, "gave up within 15 s: " + r);
    assertTrue(r.err.lines().count() <= 3, "at most 3 lines on the terminal: " + r);
    assertTrue(r.err.contains(master) && r.err.contains("(from --master)")
        && r.err.contains("--master HOST[:PORT]"), "names the address, its origin and the cure: " + r);
  }

  @Test
  void aClosedPortFailsFast() throws Exception {
    assertFailsFastAndQuietly(eccache("stat", "k", "--master", closedPort), closedPort);
    assertFailsFastAndQuietly(eccache("get", "k", dir.resolve("out.bin").toString(),
        "--master", closedPort), closedPort);
    assertTrue(Files.notExists(dir.resolve("out.bin")));
    assertTrue(Files.size(dir.resolve("logs").resolve("cli.log")) > 0,
        "the libraries' complaints are in the log file");
  }

  @Test
  void anUnknownHostFailsFast() throws Exception {
    assertFailsFastAndQuietly(eccache("put", input.toString(), "k", "--master",
        "nonexistent.invalid"), "nonexistent.invalid:19998");
    assertFailsFastAndQuietly(eccache("stat", "k", "--master", "nonexistent.invalid:19998"),
        "nonexistent.invalid:19998");
  }

  /** On a terminal (a pseudo-terminal from util-linux's script), get without FILE refuses. */
  @Test
  void binaryIsNotWrittenToATerminal() throws Exception {
    Path script = Path.of("/usr/bin/script");
    Assumptions.assumeTrue(Files.isExecutable(script), "needs util-linux's script for a terminal");
    String line = CliProcess.command(List.of(), "get", "k", "--master", closedPort).stream()
        .map(a -> "'" + a.replace("'", "'\\''") + "'").collect(Collectors.joining(" "));
    Result r = run(List.of(script.toString(), "-qec", line, "/dev/null"));
    String terminal = Files.readString(dir.resolve("out.txt"));
    assertEquals(ExitCodes.USAGE, r.exit, r + terminal);
    assertTrue(terminal.contains("not writing the object to the terminal")
        && terminal.contains("'-'"), "says how to do it anyway: " + terminal);
  }

  /**
   * A GET ended by a signal (Ctrl-C, kill) while it holds its part file: the JVM's shutdown removes
   * it. The part file exists from before the master is contacted, so a master that does not answer
   * holds the command there long enough to signal it.
   */
  @Test
  void aSignalledGetLeavesNoPartFile() throws Exception {
    Path target = Files.createDirectory(dir.resolve("signalled"));
    Process p = new ProcessBuilder(CliProcess.command(List.of(), "get", "k", target.resolve("x.bin").toString(),
        "--master", closedPort, "--timeout", "30s"))
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (listing(target).isEmpty() && System.nanoTime() < deadline && p.isAlive()) {
        Thread.sleep(50);
      }
      assertTrue(listing(target).get(0).endsWith(".part"), "the GET began: " + listing(target));
      p.destroy(); // SIGTERM: the JVM shuts down as on Ctrl-C
      assertTrue(p.waitFor(20, TimeUnit.SECONDS), "the command ended");
      assertEquals(List.of(), listing(target), "no part file left");
    } finally {
      p.destroyForcibly();
    }
  }

  private static List<String> listing(Path d) throws Exception {
    try (var s = Files.list(d)) {
      return s.map(x -> x.getFileName().toString()).collect(Collectors.toList());
    }
  }
}
