package io.eccache.benchmarks.logecmem;

import java.util.Locale;

/**
 * How a testbed's logical DRAM nodes sit on its real memcached servers. One node per server is the
 * paper's testbed; wider codes (the paper's k = 16..128) have more nodes than this machine should
 * run as processes, so logical node i lives on server i mod s under a key prefix of its own
 * ("virtual nodes"): its items are apart from its neighbours', memory is still memcached's own
 * count (summed over the servers), but nodes sharing a server share its thread and its fate.
 */
final class NodeMap {
  /** Real servers a testbed may start: 127.0.0.10 to 127.0.0.89. */
  static final int MAX_SERVERS = 80;
  /** Logical DRAM nodes a testbed may have: k + r of the paper's widest (128,4), and room. */
  static final int MAX_NODES = 256;

  /** A testbed's size out of range, refused before any server starts. */
  static final class OutOfRangeException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    OutOfRangeException(String message) {
      super(message);
    }
  }

  private final int nodes;
  private final int servers;

  private NodeMap(int nodes, int servers) {
    this.nodes = nodes;
    this.servers = servers;
  }

  /**
   * {@code nodes} logical DRAM nodes on at most {@code maxServers} real servers (as many as nodes
   * when that is fewer).
   *
   * @throws OutOfRangeException if nodes is not 1..{@value #MAX_NODES} or maxServers not
   *     1..{@value #MAX_SERVERS}
   */
  static NodeMap of(int nodes, int maxServers) {
    if (nodes < 1 || nodes > MAX_NODES) {
      throw new OutOfRangeException(nodes + " DRAM nodes: a testbed has 1 to " + MAX_NODES
          + " (logical nodes; k + r of the code)");
    }
    if (maxServers < 1 || maxServers > MAX_SERVERS) {
      throw new OutOfRangeException(maxServers + " memcached servers: a testbed runs 1 to "
          + MAX_SERVERS + " (127.0.0.10 to 127.0.0." + (9 + MAX_SERVERS) + ")");
    }
    return new NodeMap(nodes, Math.min(nodes, maxServers));
  }

  /** Logical DRAM nodes. */
  int nodes() {
    return nodes;
  }

  /** Real memcached servers. */
  int servers() {
    return servers;
  }

  /** Whether some server carries more than one node. */
  boolean isVirtual() {
    return servers < nodes;
  }

  /** The server of logical node {@code node}. */
  int server(int node) {
    if (node < 0 || node >= nodes) {
      throw new IndexOutOfBoundsException("node " + node + " of " + nodes);
    }
    return node % servers;
  }

  /** The key prefix of logical node {@code node}'s items: none when it has its server alone. */
  String prefix(int node) {
    return isVirtual() ? "v" + server(node) + "." + node / servers + ":" : "";
  }

  /** The fewest and the most logical nodes a server carries. */
  int[] nodesPerServer() {
    return new int[] {nodes / servers, (nodes + servers - 1) / servers};
  }

  /** E.g. {@code 132 logical DRAM nodes on 20 memcached servers (6-7 each)}. */
  String label() {
    if (!isVirtual()) {
      return nodes + " DRAM nodes, one memcached server each";
    }
    int[] per = nodesPerServer();
    return String.format(Locale.ROOT, "%d logical DRAM nodes on %d memcached servers (%s each)",
        nodes, servers, per[0] == per[1] ? String.valueOf(per[0]) : per[0] + "-" + per[1]);
  }
}
