package io.eccache.worker;

import alluxio.conf.AlluxioConfiguration;
import alluxio.conf.PropertyKey;
import io.eccache.common.WorkerKeys;
import io.eccache.lognode.LogScheme;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Locale;

/**
 * One worker's log node settings, read from its configuration when the worker creates the plugin:
 * in an in-process cluster the global configuration names this worker then and another one later.
 */
final class LogNodeSettings {
  final Path directory;
  final int port;
  final LogScheme scheme;
  final long bufferBytes;
  final Duration flushInterval;
  final long mergeBytes;
  final boolean fsync;
  /** The whole configuration as it was, for the channel to the coordinator. */
  final AlluxioConfiguration conf;

  private LogNodeSettings(Path directory, int port, LogScheme scheme, long bufferBytes,
      Duration flushInterval, long mergeBytes, boolean fsync, AlluxioConfiguration conf) {
    this.directory = directory;
    this.port = port;
    this.scheme = scheme;
    this.bufferBytes = bufferBytes;
    this.flushInterval = flushInterval;
    this.mergeBytes = mergeBytes;
    this.fsync = fsync;
    this.conf = conf;
  }

  /**
   * Reads them from {@code conf}, a copy of the worker's configuration.
   *
   * @throws IllegalArgumentException naming the key of a value out of range
   */
  static LogNodeSettings from(AlluxioConfiguration conf) {
    String dir = conf.isSet(WorkerKeys.LOG_NODE_DIR)
        ? conf.getString(WorkerKeys.LOG_NODE_DIR).trim() : "";
    Path directory;
    if (dir.isEmpty()) {
      Path tier = Paths.get(conf.getString(PropertyKey.WORKER_TIERED_STORE_LEVEL0_DIRS_PATH)
          .split(",")[0].trim());
      directory = tier.resolveSibling(tier.getFileName() + "-lognode");
    } else {
      directory = Paths.get(dir);
    }
    int port = conf.getInt(WorkerKeys.LOG_NODE_PORT);
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(WorkerKeys.LOG_NODE_PORT.getName() + " = " + port
          + " is not a port (0 takes a free one)");
    }
    String scheme = conf.getString(WorkerKeys.LOG_NODE_SCHEME).trim().toUpperCase(Locale.ROOT)
        .replace('-', '_');
    LogScheme parsed;
    try {
      parsed = LogScheme.valueOf(scheme);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(WorkerKeys.LOG_NODE_SCHEME.getName() + " = " + scheme
          + " is not PL, PLR, PLR_M or PLM");
    }
    return new LogNodeSettings(directory, port, parsed, conf.getBytes(WorkerKeys.LOG_NODE_BUFFER),
        conf.getDuration(WorkerKeys.LOG_NODE_FLUSH_INTERVAL),
        Math.max(1, conf.getBytes(WorkerKeys.LOG_NODE_MERGE_SIZE)),
        conf.getBoolean(WorkerKeys.LOG_NODE_FSYNC), conf);
  }
}
