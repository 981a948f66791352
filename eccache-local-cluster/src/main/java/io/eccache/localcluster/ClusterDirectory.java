package io.eccache.localcluster;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * A local cluster's directory: a marker saying it is one (so a mistyped --dir is never used or
 * purged), a lock so two commands never start or stop it at once, the options it was started with
 * (kept for the next start), its {@link ClusterState} and its alluxio-site.properties.
 */
final class ClusterDirectory {
  static final String MARKER = ".eccache-cluster";
  static final String OPTIONS = "cluster-options.properties";
  private static final String LOCK = ".lock";

  private final Path dir;

  ClusterDirectory(Path dir) {
    this.dir = dir.toAbsolutePath().normalize();
  }

  Path path() {
    return dir;
  }

  Path confDir() {
    return dir.resolve("conf");
  }

  Path logsDir() {
    return dir.resolve("logs");
  }

  /** Whether a cluster was ever started here. */
  boolean isCluster() {
    return Files.isRegularFile(dir.resolve(MARKER));
  }

  /** Refuses a path that is a file, or a directory holding other things than a cluster. */
  void checkUsable() throws ClusterException {
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new ClusterException(LocalClusterCommand.USAGE, "--dir " + dir
          + " is not a directory: choose a new or empty directory");
    }
    if (Files.isDirectory(dir) && !isCluster()) {
      try (Stream<Path> entries = Files.list(dir)) {
        if (entries.findAny().isPresent()) {
          throw new ClusterException(LocalClusterCommand.USAGE, "--dir " + dir
              + " holds other files and no eccache cluster (no " + MARKER
              + "): choose a new or empty directory");
        }
      } catch (IOException e) {
        throw new ClusterException(LocalClusterCommand.FAILED, "cannot read --dir " + dir + ": "
            + e, e);
      }
    }
  }

  /** Creates the directory and its marker. */
  void create() throws IOException {
    Files.createDirectories(dir);
    if (!isCluster()) {
      Files.writeString(dir.resolve(MARKER), "an eccache local cluster (eccache cluster start)\n");
    }
  }

  /**
   * Takes the directory's lock, or says that another command holds it. The lock goes with the
   * process: a command that dies releases it.
   */
  FileLock lock(String command) throws ClusterException, IOException {
    FileChannel channel = FileChannel.open(dir.resolve(LOCK), StandardOpenOption.CREATE,
        StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      channel.close();
      throw new ClusterException(LocalClusterCommand.FAILED, "another eccache cluster command is "
          + "starting or stopping the cluster in " + dir + ": wait for it to end, then " + command
          + " again");
    }
    return lock;
  }

  /** Releases a lock from {@link #lock} and closes its file. */
  static void release(FileLock lock) throws IOException {
    try (FileChannel channel = lock.channel()) {
      lock.release();
    }
  }

  Optional<ClusterState> state() throws IOException {
    return isCluster() ? ClusterState.read(dir) : Optional.empty();
  }

  /** The options the cluster was last started with (workers, worker memory, properties). */
  Properties options() throws IOException {
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(dir.resolve(OPTIONS), StandardCharsets.UTF_8)) {
      p.load(in);
    } catch (NoSuchFileException e) {
      // first start
    }
    return p;
  }

  void writeOptions(Properties options) throws IOException {
    try (Writer out = Files.newBufferedWriter(dir.resolve(OPTIONS), StandardCharsets.UTF_8)) {
      options.store(out, "eccache cluster start: the options the next start reuses");
    }
  }

  /** The cluster's alluxio-site.properties (empty when it was never written). */
  Map<String, String> siteProperties() throws IOException {
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(confDir().resolve("alluxio-site.properties"),
        StandardCharsets.UTF_8)) {
      p.load(in);
    } catch (NoSuchFileException e) {
      return Map.of();
    }
    Map<String, String> site = new LinkedHashMap<>();
    for (String key : p.stringPropertyNames()) {
      site.put(key, p.getProperty(key));
    }
    return site;
  }
}
