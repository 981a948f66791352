package io.eccache.benchmarks.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunStampTest {
  @TempDir
  Path dir;

  private void git(String... args) throws Exception {
    List<String> command = new java.util.ArrayList<>(List.of("git", "-C", dir.toString(),
        "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
    assertTrue(p.waitFor(30, TimeUnit.SECONDS), "git " + List.of(args) + " did not finish");
    assertEquals(0, p.exitValue(), "git " + List.of(args));
  }

  @Test
  void theCommitIsMarkedDirtyOnlyWhileTrackedFilesDiffer() throws Exception {
    git("init", "-q");
    Files.writeString(dir.resolve("a.txt"), "one");
    git("add", "a.txt");
    git("commit", "-q", "-m", "one");
    String clean = RunStamp.commit(dir);
    assertTrue(clean.matches("[0-9a-f]{12}"), clean);
    Files.writeString(dir.resolve("a.txt"), "two");
    assertEquals(clean + " (dirty)", RunStamp.commit(dir));
  }

  @Test
  void outsideAWorkTreeTheCommitIsUnknown() {
    assertTrue(RunStamp.commit(dir).startsWith("unknown ("), RunStamp.commit(dir));
  }

  @Test
  void theSummaryLinesCarryCommitCommandAndSettings() {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("mode", "alone");
    settings.put("zipf", "1.1");
    RunStamp stamp = RunStamp.of("bin/eccache-bench sim", List.of("--preset", "paper", "--out", "my dir"),
        settings);
    assertEquals("bin/eccache-bench sim --preset paper --out 'my dir'", stamp.command());
    String md = stamp.markdown();
    assertTrue(md.contains("Commit: `" + stamp.commit() + "`"), md);
    assertTrue(md.contains("Command: `bin/eccache-bench sim --preset paper --out 'my dir'`"), md);
    assertTrue(md.contains("Settings: mode = alone, zipf = 1.1."), md);
  }
}
