package io.eccache.localcluster;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A cluster directory left by a JVM that is gone is removed; no other one is. */
class ClusterDirectoriesTest {
  @Test
  void aDirectoryWhoseOwnerIsGoneIsRemovedByTheNextStartAndNoOtherIs(@TempDir Path base)
      throws Exception {
    // Owned by a real process that has ended (SIGKILLed, as an OOM-killed launcher would be).
    Process gone = new ProcessBuilder("sleep", "60").start();
    long startedMillis = gone.info().startInstant().orElseThrow().toEpochMilli();
    gone.destroyForcibly();
    assertTrue(gone.waitFor(10, TimeUnit.SECONDS));
    Path abandoned = Files.createDirectories(base.resolve("eccache-proc-1"));
    Files.writeString(abandoned.resolve(ClusterDirectories.OWNER), gone.pid() + " "
        + startedMillis, StandardCharsets.US_ASCII);
    Files.writeString(Files.createDirectories(abandoned.resolve("worker-0")).resolve("block"),
        "tier bytes");
    // Owned by this JVM; and one naming no owner (a kept or detached cluster's).
    Path mine = ClusterDirectories.createOwned(base, "eccache-proc-");
    Path unowned = Files.createDirectories(base.resolve("eccache-proc-kept"));
    // Its pid now another process's (this JVM's) with another start time: not the owner.
    Path reused = Files.createDirectories(base.resolve("eccache-proc-reused"));
    Files.writeString(reused.resolve(ClusterDirectories.OWNER), ProcessHandle.current().pid()
        + " 1", StandardCharsets.US_ASCII);

    Path next = ClusterDirectories.createOwned(base, "eccache-proc-");

    assertFalse(Files.exists(abandoned), "the abandoned directory stayed");
    assertFalse(Files.exists(reused), "a directory of a reused pid stayed");
    assertTrue(Files.isDirectory(mine) && Files.isDirectory(next) && Files.isDirectory(unowned));
    assertFalse(ClusterDirectories.ownerGone(mine));
  }
}
