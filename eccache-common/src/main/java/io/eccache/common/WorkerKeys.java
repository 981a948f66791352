package io.eccache.common;

import alluxio.conf.PropertyKey;
import alluxio.grpc.Scope;
import java.util.List;

/**
 * Keys read by the eccache worker plugin (the log nodes of packed namespaces) in Alluxio workers:
 * {@code alluxio.worker.eccache.*}, {@link Scope#WORKER}. Set them in the workers'
 * {@code alluxio-site.properties} (or as {@code -D} options in {@code ALLUXIO_WORKER_JAVA_OPTS}).
 */
public final class WorkerKeys {
  /** Whether a worker with the eccache jars runs a log node. */
  public static final PropertyKey LOG_NODE_ENABLED = worker(
      PropertyKey.Builder.booleanBuilder("alluxio.worker.eccache.lognode.enabled")
          .setDefaultValue(false)
          .setDescription("Whether this worker runs a log node: the parity rows 2..r of packed"
              + " namespaces' stripes (docs/lognode.md), on its own port, announced to the"
              + " coordinator. Packed namespaces need r - 1 workers that run one."));

  /** The log node's port. */
  public static final PropertyKey LOG_NODE_PORT = worker(
      PropertyKey.Builder.intBuilder("alluxio.worker.eccache.lognode.port")
          .setDefaultValue(0)
          .setDescription("The log node's gRPC port on the worker's host (alluxio.worker.hostname);"
              + " 0 takes a free one. The node announces the port it bound to the coordinator,"
              + " which clients ask, so no port needs to be known in advance."));

  /** Where the log node keeps its logs. */
  public static final PropertyKey LOG_NODE_DIR = worker(
      PropertyKey.Builder.stringBuilder("alluxio.worker.eccache.lognode.dir")
          .setDescription("The log node's directory on a local disk (one subdirectory per packed"
              + " namespace and parity row). Empty: beside the worker's first tier directory,"
              + " named after it with '-lognode' appended."));

  /** The log layout. */
  public static final PropertyKey LOG_NODE_SCHEME = worker(
      PropertyKey.Builder.stringBuilder("alluxio.worker.eccache.lognode.scheme")
          .setDefaultValue("PLM")
          .setDescription("How the log node lays parity deltas out on disk: PL (a log), PLR"
              + " (reserved space after each stripe's parity), PLR_M (reserved space, merged)"
              + " or PLM (a log merged into reserved space; LogECMem's choice). A log keeps the"
              + " scheme it was created with."));

  /** The log node's memory buffer. */
  public static final PropertyKey LOG_NODE_BUFFER = worker(
      PropertyKey.Builder.dataSizeBuilder("alluxio.worker.eccache.lognode.buffer.size")
          .setDefaultValue("64MB")
          .setDescription("Memory each log of the node buffers deltas and bases in before they"
              + " are flushed to disk (an update is acked once buffered)."));

  /** How often the log node flushes. */
  public static final PropertyKey LOG_NODE_FLUSH_INTERVAL = worker(
      PropertyKey.Builder.durationBuilder("alluxio.worker.eccache.lognode.flush.interval")
          .setDefaultValue("1s")
          .setDescription("The longest committed deltas stay only in the log node's memory: a"
              + " log is flushed at this interval, or sooner when half its buffer is used."));

  /** When PLM merges its log. */
  public static final PropertyKey LOG_NODE_MERGE_SIZE = worker(
      PropertyKey.Builder.dataSizeBuilder("alluxio.worker.eccache.lognode.merge.size")
          .setDefaultValue("64MB")
          .setDescription("PLM: the size a log's segments on disk reach before a flush merges"
              + " them into the stripes' reserved spaces (and deletes them). Smaller merges"
              + " more often: fewer log reads for a degraded read, more disk writes."));

  /** Whether flushes are synced to the disk. */
  public static final PropertyKey LOG_NODE_FSYNC = worker(
      PropertyKey.Builder.booleanBuilder("alluxio.worker.eccache.lognode.fsync")
          .setDefaultValue(true)
          .setDescription("Whether a flush waits for the disk (fsync), so a flushed delta"
              + " survives the machine's crash and not only the process's."));

  /** Every worker key, in documentation order. */
  public static final List<PropertyKey> ALL = List.of(LOG_NODE_ENABLED, LOG_NODE_PORT,
      LOG_NODE_DIR, LOG_NODE_SCHEME, LOG_NODE_BUFFER, LOG_NODE_FLUSH_INTERVAL,
      LOG_NODE_MERGE_SIZE, LOG_NODE_FSYNC);

  private WorkerKeys() {}

  private static PropertyKey worker(PropertyKey.Builder builder) {
    return KeyRegistry.register(builder.setScope(Scope.WORKER).setIsBuiltIn(false)
        .buildUnregistered(), null);
  }
}
