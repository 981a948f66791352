package io.eccache.lognode;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Forcing a directory's entries (a new or renamed file) to the device. */
final class Fsync {
  private Fsync() {}

  /** Forces {@code dir}'s entries to the device; Linux allows opening a directory for this. */
  static void directory(Path dir) throws IOException {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }
}
