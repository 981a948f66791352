package io.eccache.coordinator.form.packed;

import io.eccache.common.UpdateCapability;
import io.eccache.coordinator.form.HostPort;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The log nodes the coordinator knows: each announced by its worker's plugin, again every
 * {@link #reannounceMs()}. Soft state, as Alluxio's own worker list is: a restarted master learns
 * the nodes within that period. A node is used while its worker is live and it announced itself
 * within three periods (a worker whose plugin stopped, or was turned off, drops out).
 */
public final class LogNodes {
  /**
   * A log node: the worker hosting it, the node's own port on that worker's host, and its boot
   * (one per start of the node).
   */
  public static final class Node {
    public final HostPort worker;
    public final String host;
    public final int port;
    public final String boot;

    Node(HostPort worker, String host, int port, String boot) {
      this.worker = worker;
      this.host = host;
      this.port = port;
      this.boot = boot;
    }

    /**
     * {@code host:port@boot}, as a stripe record names the node holding its parity: a node that
     * restarted (even on the same port) is another, without what the old one only buffered.
     * Clients connect to the part before the {@code @}.
     */
    public String address() {
      return host + ":" + port + (boot.isEmpty() ? "" : "@" + boot);
    }

    @Override
    public String toString() {
      return address();
    }
  }

  private final Clock clock;
  private final long reannounceMs;
  /** worker -> its node and when it last announced itself. */
  private final Map<HostPort, Announced> nodes = new ConcurrentHashMap<>();

  private static final class Announced {
    final Node node;
    final long atMs;

    Announced(Node node, long atMs) {
      this.node = node;
      this.atMs = atMs;
    }
  }

  /**
   * The key of updates' capabilities: made at start, handed to log nodes as they announce
   * themselves (a restarted master makes another; nodes learn it within a re-announcement).
   */
  private final byte[] updateKey = UpdateCapability.newKey();

  public LogNodes(Clock clock, long reannounceMs) {
    this.clock = clock;
    this.reannounceMs = reannounceMs;
  }

  /** How often a node is to announce itself. */
  public byte[] updateKey() {
    return updateKey.clone();
  }

  /**
   * The capability of an update of {@code stripe} from {@code baseVersion}, which log nodes check
   * before they buffer its delta or take a decision about it.
   */
  byte[] capability(long stripe, long updateId, long baseVersion) {
    return UpdateCapability.of(updateKey, stripe, updateId, baseVersion);
  }

  /** How soon a node is to announce itself again (ms). */
  public long reannounceMs() {
    return reannounceMs;
  }

  /**
   * Records that {@code worker}'s log node serves on {@code port} of the worker's host, started as
   * {@code boot}.
   */
  public void announce(HostPort worker, String host, int port, String boot) {
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("log node port " + port + " is not a port");
    }
    if (boot.contains("@") || boot.contains(":")) {
      throw new IllegalArgumentException("log node boot '" + boot + "' has '@' or ':'");
    }
    nodes.put(worker, new Announced(new Node(worker, host, port, boot), clock.millis()));
  }

  /** The usable nodes: on a live worker, recently announced; in a stable (host) order. */
  public List<Node> live(Set<HostPort> liveWorkers) {
    long oldest = clock.millis() - 3 * reannounceMs;
    List<Node> out = new ArrayList<>();
    for (Map.Entry<HostPort, Announced> e : nodes.entrySet()) {
      if (e.getValue().atMs < oldest) {
        nodes.remove(e.getKey(), e.getValue());
      } else if (liveWorkers.contains(e.getKey())) {
        out.add(e.getValue().node);
      }
    }
    out.sort((a, b) -> a.address().compareTo(b.address()));
    return Collections.unmodifiableList(out);
  }
}
