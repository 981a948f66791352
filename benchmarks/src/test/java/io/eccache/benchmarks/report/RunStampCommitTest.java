package io.eccache.benchmarks.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commit a summary is stamped with, from a real git work tree. */
class RunStampCommitTest {
  @TempDir
  Path dir;

  private void git(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("git", "-C", dir.toString(), "-c", "user.name=t",
        "-c", "user.email=t@t", "-c", "commit.gpgsign=false"));
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
    RunStamp clean = RunStamp.capture(dir, "bin/eccache-bench sim --preset paper");
    assertTrue(clean.commit().matches("[0-9a-f]{40}"), clean.commit());
    assertTrue(clean.markdown().contains("`bin/eccache-bench sim --preset paper`"), clean.markdown());
    Files.writeString(dir.resolve("a.txt"), "two");
    assertEquals(clean.commit() + "-dirty", RunStamp.capture(dir, "x").commit());
  }

  @Test
  void outsideAWorkTreeTheCommitIsWhatTheLauncherBuiltElseUnknown() {
    assertTrue(RunStamp.commitOf(dir, null).startsWith("unknown"));
    String built = "5bf80ce0000000000000000000000000000000aa";
    assertEquals(built + " (as built; run outside a git work tree)",
        RunStamp.commitOf(dir, built));
  }
}
