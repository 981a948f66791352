package io.eccache.benchmarks.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * benchmarks/run-release.sh refuses what would publish numbers from more than one commit or a
 * dirty tree, before it touches benchmarks/results (only its refusals run here: a publish that
 * succeeds replaces the checkout's results).
 */
class RunReleaseScriptTest {
  private static final Path SCRIPT = Paths.get("..", "benchmarks", "run-release.sh");
  private static final String A = "a".repeat(40);
  private static final String B = "b".repeat(40);

  @TempDir
  Path dir;

  private static String summary(String commit) {
    return "# x\n\nRun: Commit `" + commit + "`; command `bin/eccache-bench x`.\n";
  }

  private static String[] run(String... args) throws Exception {
    List<String> command = new java.util.ArrayList<>(List.of("bash", SCRIPT.toString()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "run-release.sh did not end");
    return new String[] {Integer.toString(p.exitValue()), out};
  }

  private void write(String relative, String text) throws IOException {
    Path f = dir.resolve("results").resolve(relative);
    Files.createDirectories(f.getParent());
    Files.writeString(f, text);
  }

  @Test
  void summariesFromTwoCommitsAreNotPublished() throws Exception {
    write("skew/summary.md", summary(A));
    write("agar/summary.md", summary(B));
    String[] r = run("--publish", dir.toString());
    assertEquals("1", r[0], r[1]);
    assertTrue(r[1].contains("not from one clean commit") && r[1].contains(A)
        && r[1].contains(B), r[1]);
  }

  @Test
  void aDirtyTreesSummaryIsNotPublished() throws Exception {
    write("skew/summary.md", summary(A + "-dirty"));
    String[] r = run("--publish", dir.toString());
    assertEquals("1", r[0], r[1]);
    assertTrue(r[1].contains(A + "-dirty"), r[1]);
  }

  @Test
  void noSummariesAndUnknownFamiliesAreRefused() throws Exception {
    Files.createDirectories(dir.resolve("results"));
    String[] none = run("--publish", dir.toString());
    assertEquals("1", none[0], none[1]);
    assertTrue(none[1].contains("not from one clean commit"), none[1]);
    String[] r = run("--out", dir.toString(), "benchmark");
    assertEquals("2", r[0], r[1]);
    assertTrue(r[1].contains("no family benchmark") && r[1].contains("packed-bench"), r[1]);
  }
}
