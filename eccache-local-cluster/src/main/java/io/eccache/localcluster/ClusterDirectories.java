package io.eccache.localcluster;

import com.google.common.io.MoreFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Temporary cluster directories that name the JVM owning them, so one left behind by a JVM that
 * was SIGKILLed (no shutdown hook, no close) is removed by the next cluster started on this
 * machine. They live in /dev/shm, where a left-behind directory holds RAM: the workers' tiers of
 * an OOM-killed benchmark run were 8.5 GB. A directory without an owner file (a kept or detached
 * cluster's, or one being created) is never touched.
 */
public final class ClusterDirectories {
  /** The file naming the owning JVM: its pid and start time in milliseconds. */
  static final String OWNER = "owner";

  private static final Logger LOG = LoggerFactory.getLogger(ClusterDirectories.class);

  private ClusterDirectories() {}

  /**
   * Removes the directories in {@code base} named {@code prefix...} whose owner is gone, then
   * creates a new one owned by this JVM.
   */
  public static Path createOwned(Path base, String prefix) throws IOException {
    removeAbandoned(base, prefix);
    Path dir = Files.createTempDirectory(base, prefix);
    ProcessHandle self = ProcessHandle.current();
    Files.writeString(dir.resolve(OWNER), self.pid() + " " + startMillis(self).orElse(-1L),
        StandardCharsets.US_ASCII);
    return dir;
  }

  /** Removes the directories in {@code base} named {@code prefix...} whose owner is gone. */
  static void removeAbandoned(Path base, String prefix) {
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(base, prefix + "*")) {
      for (Path dir : dirs) {
        if (ownerGone(dir)) {
          LOG.info("removing {}: the JVM that owned it is gone", dir);
          deleteRecursively(dir);
        }
      }
    } catch (IOException e) {
      LOG.warn("could not look for abandoned cluster directories in {}: {}", base, e.toString());
    }
  }

  /** Whether {@code dir} names an owner and that process is gone (or its pid is another's now). */
  static boolean ownerGone(Path dir) {
    String[] owner;
    try {
      owner = Files.readString(dir.resolve(OWNER), StandardCharsets.US_ASCII).trim().split(" ");
    } catch (IOException noOwner) {
      return false;
    }
    try {
      Optional<ProcessHandle> process = ProcessHandle.of(Long.parseLong(owner[0]));
      if (process.isEmpty() || !process.get().isAlive()) {
        return true;
      }
      long started = owner.length > 1 ? Long.parseLong(owner[1]) : -1;
      return started >= 0 && startMillis(process.get()).map(s -> s != started).orElse(false);
    } catch (NumberFormatException unreadable) {
      return false;
    }
  }

  private static Optional<Long> startMillis(ProcessHandle process) {
    return process.info().startInstant().map(java.time.Instant::toEpochMilli);
  }

  /** Deletes {@code root} and everything under it (Guava's), warning of what it could not. */
  static void deleteRecursively(Path root) {
    try {
      MoreFiles.deleteRecursively(root);
    } catch (NoSuchFileException gone) {
      // removed already
    } catch (IOException e) {
      LOG.warn("could not remove {}: {}", root, e.toString());
    }
  }
}
