package io.eccache.examples.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README's quick start, run literally: the fenced block under the {@code quick-start} marker is run
 * with bash from the clone's root, every line checked ({@code set -euxo pipefail}). It starts a real
 * local cluster ({@code bin/eccache cluster start}), puts and gets a file with {@code bin/eccache},
 * reads and writes a table with Spark through an {@code eccache://} path and stops the cluster.
 *
 * <p>Runs after {@code package} (failsafe), so the launchers find their jars built and are told
 * not to build ({@code ECCACHE_NO_BUILD}). Isolated from the machine's own files: HOME and Java's
 * {@code user.home} point at a temporary directory (so {@code ~/.eccache/cluster} is there), and
 * the block's {@code /tmp/} paths are rewritten into it.
 */
class QuickStartIT {
  private static final Path ROOT = Paths.get(System.getProperty("user.dir")).resolve("../..")
      .normalize();
  private static final Pattern BLOCK = Pattern.compile(
      "<!-- quick-start[^>]*-->\\s*```bash\\n(.*?)```", Pattern.DOTALL);

  @TempDir
  Path home;

  @AfterEach
  void stopWhateverIsLeft() throws Exception {
    // The block stops its cluster; this covers a failure half-way (stop is a no-op when stopped).
    Path dir = home.resolve(".eccache/cluster");
    if (Files.exists(dir)) {
      run(List.of("bash", ROOT.resolve("bin/eccache").toString(), "cluster", "stop", "--dir",
          dir.toString()), 180);
    }
  }

  @Test
  void readmeQuickStartRunsAsWritten() throws Exception {
    String readme = Files.readString(ROOT.resolve("README.md"));
    Matcher m = BLOCK.matcher(readme);
    assertTrue(m.find(), "README.md has no ```bash block after a <!-- quick-start --> marker");
    String block = m.group(1);
    assertTrue(block.contains("bin/eccache cluster start") && block.contains("eccache://")
        && block.contains("bin/eccache put") && block.contains("bin/eccache get")
        && block.contains("bin/eccache cluster stop"), "the quick start lost a step:\n" + block);
    Path tmp = Files.createDirectories(home.resolve("tmp"));
    String script = "set -euxo pipefail\n" + block.replace("/tmp/", tmp + "/");

    Result result = run(List.of("bash", "-c", script), 900);
    assertEquals(0, result.exit, "README's quick start failed:\n" + result.output);
    // The block compares the file itself (cmp); these check each step's visible outcome.
    assertTrue(result.output.contains("export ALLUXIO_CONF_DIR="), result.output);
    assertTrue(Files.exists(home.resolve(".eccache/cluster/conf/alluxio-site.properties")));
    List<String> leftovers = Files.list(tmp).map(p -> p.getFileName().toString())
        .filter(n -> n.endsWith(".part")).collect(Collectors.toList());
    assertTrue(leftovers.isEmpty(), "get left " + leftovers);
    Result status = run(List.of("bash", ROOT.resolve("bin/eccache").toString(), "cluster",
        "status"), 120);
    assertEquals(3, status.exit, "the block ends with the cluster stopped:\n" + status.output);
    assertFalse(status.output.isBlank());
  }

  private Result run(List<String> command, long timeoutSeconds) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command).directory(ROOT.toFile())
        .redirectErrorStream(true);
    pb.environment().put("HOME", home.toString());
    // Java reads user.home from the password file, not $HOME.
    pb.environment().put("ECCACHE_JAVA_OPTS", "-Duser.home=" + home);
    pb.environment().put("ECCACHE_NO_BUILD", "1");
    pb.environment().remove("ALLUXIO_CONF_DIR");
    pb.environment().remove("ALLUXIO_HOME");
    Path log = Files.createTempFile(home, "run", ".log");
    pb.redirectOutput(log.toFile());
    Process p = pb.start();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      throw new AssertionError(String.join(" ", command).lines().findFirst().orElse("")
          + " did not finish in " + timeoutSeconds + " s:\n" + tail(log));
    }
    return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
  }

  private static String tail(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
  }

  private static final class Result {
    final int exit;
    final String output;

    Result(int exit, String output) {
      this.exit = exit;
      this.output = output;
    }
  }
}
