package io.eccache.benchmarks.logecmem;

import io.eccache.common.LogNodeCalls;
import io.eccache.common.proto.LogNodeStatusResponse;
import io.eccache.common.proto.LogStatus;
import io.eccache.isal.CodeMatrix;
import io.eccache.isal.ErasureCoder;
import io.eccache.isal.ReedSolomon;
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
 * up), r − 1 of eccache's log nodes served on their own ({@link LogNodeFleet}), and the proxy's
 * tools (eccache's coder with the XOR-first Cauchy matrix, a
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
  /** The log nodes of parity rows 1..r-1, in row order. */
  final List<String> logNodes;
  /** The log nodes' namespace of this testbed's stripes. */
  final String namespace;
  final LogNodeCalls logClient;
  final byte[] updateKey;
  final ExecutorService pool;
  /** How the logical DRAM nodes sit on the servers. */
  final NodeMap nodeMap;
  private final List<DramNode.Server> servers;
  /** The servers' item memory, MiB, and their logs' directory: a replacement's too. */
  private final int memoryMiB;
  private final Path dir;

  private Testbed(int k, int r, int unitBytes, Issue issue, NodeMap nodeMap, int memoryMiB,
      Path dir, List<DramNode.Server> servers, List<DramNode> dram, List<String> logNodes,
      LogNodeFleet logs, LogNodeCalls logClient) {
    this.k = k;
    this.r = r;
    this.unitBytes = unitBytes;
    this.issue = issue;
    this.coder = ReedSolomon.coder(k, r, CodeMatrix.XOR_FIRST_CAUCHY);
    this.nodeMap = nodeMap;
    this.memoryMiB = memoryMiB;
    this.dir = dir;
    this.servers = servers;
    this.dram = Collections.unmodifiableList(dram);
    this.logNodes = logNodes.subList(0, r - 1);
    this.namespace = logs.newNamespace();
    this.logClient = logClient;
    this.updateKey = logs.updateKey();
    this.pool = Executors.newCachedThreadPool(runnable -> {
      Thread t = new Thread(runnable, "logecmem-proxy-io");
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Starts the memcached servers of {@code nodes} ({@code memoryMiB} each, their logs in a new
   * directory under {@code parent}) and the logical DRAM nodes on them; the log nodes are {@code
   * logs}' (at least r − 1), under a namespace of this testbed's own.
   */
  static Testbed start(int k, int r, int unitBytes, NodeMap nodes, int memoryMiB, Issue issue,
      LogNodeFleet logs, LogWire wire, Path parent) throws IOException {
    if (k < 1 || r < 1 || r - 1 > logs.size()) {
      throw new IllegalArgumentException("a testbed of RS(" + k + ", " + r + ") on "
          + logs.size() + " log nodes is out of range");
    }
    Path dir = Files.createTempDirectory(Files.createDirectories(parent), "testbed");
    List<DramNode.Server> servers = new ArrayList<>();
    List<DramNode> dram = new ArrayList<>();
    LogNodeCalls client = wire.open();
    try {
      for (int i = 0; i < nodes.servers(); i++) {
        servers.add(startServer(i, memoryMiB, dir));
      }
      for (int node = 0; node < nodes.nodes(); node++) {
        dram.add(new DramNode(servers.get(nodes.server(node)), nodes.prefix(node)));
      }
    } catch (IOException | RuntimeException e) {
      servers.forEach(DramNode.Server::close);
      client.close();
      throw e;
    }
    return new Testbed(k, r, unitBytes, issue, nodes, memoryMiB, dir, servers, dram,
        logs.addresses(wire), logs, client);
  }

  /**
   * Starts a fresh, empty memcached server on the address of DRAM node {@code node}'s (which must
   * be down: a repair rebuilds into it); the caller owns it. Not on virtual nodes, whose server
   * carries others.
   */
  DramNode.Server startReplacement(int node) throws IOException {
    if (nodeMap.isVirtual() || !dram.get(node).isDown()) {
      throw new IllegalStateException("a replacement of DRAM node " + node + " needs it down"
          + " and alone on its server (" + nodeMap.label() + ")");
    }
    return startServer(nodeMap.server(node), memoryMiB, dir);
  }

  /** Starts memcached on the address of server {@code index}, 127.0.0.10 and up. */
  private static DramNode.Server startServer(int index, int memoryMiB, Path dir)
      throws IOException {
    MemcachedServer process = MemcachedServer.start("127.0.0." + (10 + index), memoryMiB,
        dir.resolve("memcached"));
    try {
      return new DramNode.Server(process);
    } catch (IOException | RuntimeException e) {
      process.close();
      throw e;
    }
  }

  /** Bytes of items in every live server (memcached's own {@code bytes} counters). */
  long dramBytes() throws IOException {
    long sum = 0;
    for (DramNode.Server server : servers) {
      if (!server.isDown()) {
        sum += server.bytesStored();
      }
    }
    return sum;
  }

  /** The logs of this testbed's stripes on every log node, as the nodes report them. */
  List<LogStatus> logStatus() throws IOException {
    List<LogStatus> all = new ArrayList<>();
    for (String node : logNodes) {
      LogNodeStatusResponse status = logClient.status(node);
      status.getLogsList().stream().filter(log -> log.getLog().getNamespace().equals(namespace))
          .forEach(all::add);
    }
    return all;
  }

  @Override
  public void close() {
    pool.shutdownNow();
    logClient.close();
    servers.forEach(DramNode.Server::close);
  }
}
