package io.eccache.worker;

import alluxio.conf.AlluxioConfiguration;
import io.eccache.common.UpdateCapability;
import io.eccache.common.WorkerKeys;
import java.io.IOException;

/**
 * A log node served on its own, outside an Alluxio worker: LogECMem's testbed, where memcached
 * servers are the DRAM nodes and a proxy plays the coordinator, runs its log nodes this way. The
 * same logs, service and settings ({@code alluxio.worker.eccache.lognode.*}) as a worker's log
 * node, without the announcer (the caller gives the update key the coordinator would) and without
 * the resolver of undecided deltas (the caller decides every update it sends). Besides gRPC it
 * answers on a plain socket ({@link LogNodeSocketClient}), a round trip as cheap as memcached's.
 */
public final class StandaloneLogNode implements AutoCloseable {
  private final String host;
  private final LogNodeServer server;
  private final LogNodeSocketServer socket;

  private StandaloneLogNode(String host, LogNodeServer server, LogNodeSocketServer socket) {
    this.host = host;
    this.server = server;
    this.socket = socket;
  }

  /**
   * Starts a log node on {@code host}.
   *
   * @param host the address to serve on, e.g. 127.0.0.12
   * @param updateKey the key of update capabilities ({@link UpdateCapability#newKey()}): the node
   *     refuses deltas and decisions without a capability under it
   * @param conf its settings: {@code alluxio.worker.eccache.lognode.dir} (required), {@code
   *     .scheme}, {@code .buffer}, {@code .flush.interval}, {@code .merge.size}, {@code .fsync},
   *     {@code .port} (0: a free one), and Alluxio's security settings for its callers
   * @throws IllegalArgumentException if the directory is not set or a setting is out of range
   * @throws IOException if it cannot serve on that address
   */
  public static StandaloneLogNode start(String host, byte[] updateKey, AlluxioConfiguration conf)
      throws IOException {
    if (!conf.isSet(WorkerKeys.LOG_NODE_DIR)
        || conf.getString(WorkerKeys.LOG_NODE_DIR).isBlank()) {
      throw new IllegalArgumentException("a standalone log node needs "
          + WorkerKeys.LOG_NODE_DIR.getName() + ": the directory of its logs");
    }
    if (updateKey == null || updateKey.length != UpdateCapability.KEY_BYTES) {
      throw new IllegalArgumentException("the update key is " + UpdateCapability.KEY_BYTES
          + " bytes (UpdateCapability.newKey())");
    }
    LogNodeServer server = LogNodeServer.start(host, LogNodeSettings.from(conf));
    server.service.updateKey(updateKey.clone());
    try {
      return new StandaloneLogNode(host, server, new LogNodeSocketServer(host, server.service));
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /** Where it serves: {@code host:port}, as a log node client names it. */
  public String address() {
    return host + ":" + server.port();
  }

  /** Where its plain socket serves ({@link LogNodeSocketClient}): {@code host:port}. */
  public String socketAddress() {
    return host + ":" + socket.port();
  }

  /** Stops serving and closes its logs, flushing what they buffer. */
  @Override
  public void close() {
    socket.close();
    server.close();
  }
}
