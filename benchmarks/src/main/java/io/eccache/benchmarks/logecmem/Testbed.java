package io.eccache.benchmarks.logecmem;

import alluxio.ClientContext;
import alluxio.conf.AlluxioProperties;
import alluxio.conf.InstancedConfiguration;
import alluxio.conf.PropertyKey;
import alluxio.security.authentication.AuthType;
import io.eccache.client.form.packed.LogNodeClient;
import io.eccache.common.UpdateCapability;
import io.eccache.common.WorkerKeys;
import io.eccache.common.proto.LogNodeStatusResponse;
import io.eccache.common.proto.LogStatus;
import io.eccache.isal.CodeMatrix;
import io.eccache.isal.ErasureCoder;
import io.eccache.isal.ReedSolomon;
import io.eccache.lognode.LogScheme;
import io.eccache.worker.StandaloneLogNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * LogECMem's testbed on this machine: DRAM nodes that are real memcached servers (127.0.0.10 and
 * up), r − 1 of eccache's log nodes served on their own (127.0.0.100 and up, logs in a directory
 * of the local disk), and the proxy's tools (eccache's coder with the XOR-first Cauchy matrix, a
 * log node client, threads for parallel issue). A fresh testbed per measured run, so each
 * scheme's memory is its own.
 */
final class Testbed implements AutoCloseable {
  /** How a store issues the calls of one operation. */
  enum Issue {
    /** One call after another, as the paper's artifact does. */
    SERIAL,
    /** The calls that do not depend on each other at once. */
    PARALLEL
  }

  final int k;
  final int r;
  final int unitBytes;
  final Issue issue;
  final ErasureCoder coder;
  final List<DramNode> dram;
  final List<String> logNodes;
  final LogNodeClient logClient;
  final byte[] updateKey;
  final ExecutorService pool;
  private final List<MemcachedServer> servers;
  private final List<StandaloneLogNode> logs;
  private final Path dir;

  private Testbed(int k, int r, int unitBytes, Issue issue, List<MemcachedServer> servers,
      List<DramNode> dram, List<StandaloneLogNode> logs, LogNodeClient logClient,
      byte[] updateKey, Path dir) {
    this.k = k;
    this.r = r;
    this.unitBytes = unitBytes;
    this.issue = issue;
    this.coder = ReedSolomon.coder(k, r, CodeMatrix.XOR_FIRST_CAUCHY);
    this.servers = servers;
    this.dram = Collections.unmodifiableList(dram);
    this.logs = logs;
    List<String> addresses = new ArrayList<>();
    logs.forEach(log -> addresses.add(log.address()));
    this.logNodes = Collections.unmodifiableList(addresses);
    this.logClient = logClient;
    this.updateKey = updateKey;
    this.dir = dir;
    this.pool = Executors.newCachedThreadPool(runnable -> {
      Thread t = new Thread(runnable, "logecmem-proxy-io");
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Starts {@code dramNodes} memcached servers of {@code memoryMiB} each and r − 1 log nodes
   * ({@code scheme} on disk in a new directory under {@code parent}).
   */
  static Testbed start(int k, int r, int unitBytes, int dramNodes, int memoryMiB,
      LogScheme scheme, Issue issue, Path parent) throws IOException {
    if (k < 1 || r < 1 || dramNodes < 1 || dramNodes > 80 || r - 1 > 100) {
      throw new IllegalArgumentException("a testbed of RS(" + k + ", " + r + ") on " + dramNodes
          + " DRAM nodes is out of range");
    }
    Path dir = Files.createTempDirectory(Files.createDirectories(parent), "testbed");
    List<MemcachedServer> servers = new ArrayList<>();
    List<DramNode> dram = new ArrayList<>();
    List<StandaloneLogNode> logs = new ArrayList<>();
    byte[] updateKey = UpdateCapability.newKey();
    InstancedConfiguration conf = new InstancedConfiguration(new AlluxioProperties());
    conf.set(PropertyKey.SECURITY_AUTHENTICATION_TYPE, AuthType.NOSASL);
    conf.set(PropertyKey.SECURITY_AUTHORIZATION_PERMISSION_ENABLED, false);
    LogNodeClient client = new LogNodeClient(ClientContext.create(conf), 10_000);
    try {
      for (int i = 0; i < dramNodes; i++) {
        MemcachedServer server = MemcachedServer.start("127.0.0." + (10 + i), memoryMiB,
            dir.resolve("memcached"));
        servers.add(server);
        dram.add(new DramNode(i, server));
      }
      for (int j = 0; j < r - 1; j++) {
        InstancedConfiguration logConf = new InstancedConfiguration(conf.copyProperties());
        Path logDir = Files.createDirectories(dir.resolve("lognode-" + j));
        logConf.set(WorkerKeys.LOG_NODE_DIR, logDir.toString());
        logConf.set(WorkerKeys.LOG_NODE_SCHEME, scheme.name());
        logConf.set(WorkerKeys.LOG_NODE_FSYNC, false);
        logs.add(StandaloneLogNode.start("127.0.0." + (100 + j), updateKey, logConf));
      }
    } catch (IOException | RuntimeException e) {
      dram.forEach(DramNode::close);
      logs.forEach(StandaloneLogNode::close);
      client.close();
      for (MemcachedServer server : servers) {
        server.close();
      }
      throw e;
    }
    return new Testbed(k, r, unitBytes, issue, servers, dram, logs, client, updateKey, dir);
  }

  /** Bytes of items in every DRAM node (memcached's own {@code bytes} counters). */
  long dramBytes() throws IOException {
    long sum = 0;
    for (DramNode node : dram) {
      if (!node.isDown()) {
        sum += node.bytesStored();
      }
    }
    return sum;
  }

  /** Every log node's logs, as they report them. */
  List<LogStatus> logStatus() throws IOException {
    List<LogStatus> all = new ArrayList<>();
    for (String node : logNodes) {
      LogNodeStatusResponse status = logClient.status(node);
      all.addAll(status.getLogsList());
    }
    return all;
  }

  @Override
  public void close() {
    pool.shutdownNow();
    dram.forEach(DramNode::close);
    logs.forEach(StandaloneLogNode::close);
    logClient.close();
    for (MemcachedServer server : servers) {
      try {
        server.close();
      } catch (IOException e) {
        // its log file stays behind in the run's directory
      }
    }
  }

  Path dir() {
    return dir;
  }
}
