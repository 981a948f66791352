package io.eccache.benchmarks.sim;

import java.util.Arrays;

/**
 * Transfers from servers to clients over processor-sharing server links, simulated exactly by events.
 *
 * <p>A server link of bandwidth B carrying n transfers and background weight w gives each transfer the
 * share {@code B / (n + w)}, as n + w equal long TCP flows would get. A background weight is a number of
 * always-busy flows that never finish (it may be fractional, for a partly busy link). A transfer with
 * slowdown f (a straggler) progresses at its share divided by f, and a server slowdown g divides every
 * transfer on that server once more; the unused part of the share is lost, as when the sender, not the
 * network, is slow. Client links are not modelled: the paper's clients are never the bottleneck.
 *
 * <p>Rates change only when a server's set of transfers, background or slowdown changes, and then equally
 * for every transfer of that server. So each server keeps a virtual clock V (bytes served so far to a
 * transfer of slowdown 1, advancing at {@code B / ((n + w) g)}) and a heap of its transfers by finish tag
 * {@code V_start + bytes * f}; a tournament tree over servers, keyed by each one's earliest completion,
 * yields the next event. A change costs O(log n + log servers).
 *
 * <p>Time is in seconds and never goes backwards; a caller must process {@link #nextCompletionTime()}
 * before anything later. Not thread-safe.
 */
public final class ProcessorSharingNetwork {
  /** Bytes left below this are rounding error, not data: the transfer is complete. */
  private static final double EPSILON_BYTES = 1e-6;

  private final double bandwidth;
  /** Per server, its transfers as a binary heap by finish tag; a transfer's slot is its heap position. */
  private final Flow[][] heap;
  private final int[] count;
  private final double[] background;
  private final double[] slowdown;
  /** Per server, the virtual clock: bytes served to a transfer of slowdown 1 while it is busy. */
  private final double[] virtual;
  /** Per server, when {@link #virtual} was last advanced. */
  private final double[] virtualAt;

  private final double[] nextTime;
  /** Tournament tree: leaves at [leaves, 2 * leaves) hold servers (-1 pads), inner nodes the earliest. */
  private final int[] tree;
  private final int leaves;
  private final int treeDepth;
  private final boolean[] dirty;
  private final int[] dirtyList;
  private int dirtyCount;

  private double now;
  private long active;
  /** Numbers transfers in start order, which breaks ties between equal finish times reproducibly. */
  private long nextId;

  /**
   * @param servers number of server links, at least 1
   * @param bandwidthBytesPerSec each server link's bandwidth, finite and > 0
   * @throws IllegalArgumentException if the count or the bandwidth is out of range
   */
  public ProcessorSharingNetwork(int servers, double bandwidthBytesPerSec) {
    if (servers < 1) {
      throw new IllegalArgumentException("servers must be >= 1 but was " + servers);
    }
    if (!(bandwidthBytesPerSec > 0) || Double.isInfinite(bandwidthBytesPerSec)) {
      throw new IllegalArgumentException(
          "bandwidthBytesPerSec must be finite and > 0 but was " + bandwidthBytesPerSec);
    }
    this.bandwidth = bandwidthBytesPerSec;
    this.heap = new Flow[servers][4];
    this.count = new int[servers];
    this.background = new double[servers];
    this.slowdown = new double[servers];
    Arrays.fill(slowdown, 1.0);
    this.virtual = new double[servers];
    this.virtualAt = new double[servers];
    this.nextTime = new double[servers];
    Arrays.fill(nextTime, Double.POSITIVE_INFINITY);
    int size = 1;
    int depth = 0;
    while (size < servers) {
      size <<= 1;
      depth++;
    }
    this.leaves = size;
    this.treeDepth = depth;
    this.tree = new int[2 * size];
    Arrays.fill(tree, -1);
    for (int s = 0; s < servers; s++) {
      tree[size + s] = s;
    }
    for (int node = size - 1; node >= 1; node--) {
      tree[node] = earlier(tree[2 * node], tree[2 * node + 1]);
    }
    this.dirty = new boolean[servers];
    this.dirtyList = new int[servers];
  }

  /** @return the time of the last change or completion, in seconds */
  public double now() {
    return now;
  }

  /** @return transfers in progress */
  public long activeFlows() {
    return active;
  }

  /** @return when the next transfer completes, in seconds; +infinity if none is in progress */
  public double nextCompletionTime() {
    int first = first();
    return first < 0 ? Double.POSITIVE_INFINITY : nextTime[first];
  }

  /**
   * Starts a transfer.
   *
   * @param at the current time, not before {@link #now()} nor after {@link #nextCompletionTime()}
   * @param server the sending server
   * @param bytes bytes to transfer, finite and > 0
   * @param flowSlowdown how many times slower than its share this transfer progresses, finite and >= 1
   * @param tag a number the caller chooses (e.g. which split this is)
   * @param attachment anything the caller wants back on completion; may be null
   * @return the transfer
   * @throws IllegalArgumentException if an argument is out of range
   */
  public Flow start(double at, int server, double bytes, double flowSlowdown, int tag,
      Object attachment) {
    advance(at);
    checkServer(server);
    if (!(bytes > 0) || Double.isInfinite(bytes)) {
      throw new IllegalArgumentException("bytes must be finite and > 0 but was " + bytes);
    }
    checkSlowdown(flowSlowdown);
    Flow flow = new Flow(nextId++, server, bytes, flowSlowdown, tag, attachment);
    advanceVirtual(server);
    flow.virtualStart = virtual[server];
    flow.finishTag = virtual[server] + bytes * flowSlowdown;
    heapAdd(server, flow);
    active++;
    updateNext(server);
    return flow;
  }

  /**
   * Completes the transfer that finishes first, advancing time to {@link #nextCompletionTime()}.
   *
   * @return the completed transfer, now inactive with all its bytes done
   * @throws IllegalStateException if no transfer is in progress
   */
  public Flow completeNext() {
    int server = first();
    if (server < 0 || Double.isInfinite(nextTime[server])) {
      throw new IllegalStateException("no transfer in progress");
    }
    now = Math.max(now, nextTime[server]);
    Flow flow = heap[server][0];
    advanceVirtual(server);
    flow.done = flow.bytes;
    heapRemove(flow);
    updateNext(server);
    return flow;
  }

  /**
   * Stops a transfer before it completes; from now on it uses no bandwidth.
   *
   * @param at the current time, not before {@link #now()} nor after {@link #nextCompletionTime()}
   * @param flow an active transfer of this network
   * @return the bytes it transferred before it was stopped
   * @throws IllegalArgumentException if the transfer is not active
   */
  public double cancel(double at, Flow flow) {
    advance(at);
    if (flow == null || !flow.active || flow.server >= heap.length || flow.slot >= count[flow.server]
        || heap[flow.server][flow.slot] != flow) {
      throw new IllegalArgumentException("not an active transfer of this network: " + flow);
    }
    advanceVirtual(flow.server);
    flow.done = Math.max(0, Math.min(flow.bytes, (virtual[flow.server] - flow.virtualStart) / flow.slowdown));
    heapRemove(flow);
    updateNext(flow.server);
    return flow.done;
  }

  /**
   * Sets how many always-busy background flows share a server's link.
   *
   * @param at the current time, not before {@link #now()} nor after {@link #nextCompletionTime()}
   * @param server the server
   * @param weight background flows, finite and >= 0 (may be fractional)
   * @throws IllegalArgumentException if an argument is out of range
   */
  public void setBackground(double at, int server, double weight) {
    advance(at);
    checkServer(server);
    if (!(weight >= 0) || Double.isInfinite(weight)) {
      throw new IllegalArgumentException("background weight must be finite and >= 0 but was " + weight);
    }
    advanceVirtual(server);
    background[server] = weight;
    updateNext(server);
  }

  /**
   * Sets how many times slower than their share every transfer from a server progresses.
   *
   * @param at the current time, not before {@link #now()} nor after {@link #nextCompletionTime()}
   * @param server the server
   * @param serverSlowdown finite and >= 1
   * @throws IllegalArgumentException if an argument is out of range
   */
  public void setServerSlowdown(double at, int server, double serverSlowdown) {
    advance(at);
    checkServer(server);
    checkSlowdown(serverSlowdown);
    advanceVirtual(server);
    slowdown[server] = serverSlowdown;
    updateNext(server);
  }

  /**
   * @param flow a transfer of this network
   * @return the bytes it has transferred by {@link #now()} (all of them once complete)
   */
  public double bytesDone(Flow flow) {
    if (!flow.active) {
      return flow.done;
    }
    int s = flow.server;
    double v = virtual[s] + (now - virtualAt[s]) * virtualRate(s);
    return Math.min(flow.bytes, (v - flow.virtualStart) / flow.slowdown);
  }

  /** Bytes per second a transfer of slowdown 1 on this busy server gets. */
  private double virtualRate(int server) {
    return bandwidth / ((count[server] + background[server]) * slowdown[server]);
  }

  /** Brings a server's virtual clock to now, at the rate of the transfers it had until now. */
  private void advanceVirtual(int server) {
    if (count[server] > 0) {
      virtual[server] += (now - virtualAt[server]) * virtualRate(server);
    } else {
      // Idle: no tag refers to the clock, so restart it and keep its magnitude (and rounding) small.
      virtual[server] = 0;
    }
    virtualAt[server] = now;
  }

  /** The server's next completion: its smallest finish tag reached at the current virtual rate. */
  private void updateNext(int server) {
    if (count[server] == 0) {
      nextTime[server] = Double.POSITIVE_INFINITY;
    } else {
      double left = heap[server][0].finishTag - virtual[server];
      nextTime[server] = left <= EPSILON_BYTES ? now : now + left / virtualRate(server);
    }
    markDirty(server);
  }

  private void heapAdd(int server, Flow flow) {
    int n = count[server];
    if (n == heap[server].length) {
      heap[server] = Arrays.copyOf(heap[server], n * 2);
    }
    count[server] = n + 1;
    siftUp(heap[server], n, flow);
  }

  private void heapRemove(Flow flow) {
    Flow[] flows = heap[flow.server];
    int last = count[flow.server] - 1;
    int slot = flow.slot;
    Flow moved = flows[last];
    flows[last] = null;
    count[flow.server] = last;
    if (slot != last) {
      // The last transfer fills the hole; it may belong above or below it.
      if (slot > 0 && before(moved, flows[(slot - 1) >>> 1])) {
        siftUp(flows, slot, moved);
      } else {
        siftDown(flows, slot, moved, last);
      }
    }
    flow.active = false;
    active--;
  }

  private static boolean before(Flow a, Flow b) {
    return a.finishTag < b.finishTag || (a.finishTag == b.finishTag && a.id < b.id);
  }

  private static void siftUp(Flow[] flows, int pos, Flow flow) {
    while (pos > 0) {
      int parent = (pos - 1) >>> 1;
      if (!before(flow, flows[parent])) {
        break;
      }
      place(flows, pos, flows[parent]);
      pos = parent;
    }
    place(flows, pos, flow);
  }

  private static void siftDown(Flow[] flows, int pos, Flow flow, int size) {
    while (true) {
      int child = 2 * pos + 1;
      if (child >= size) {
        break;
      }
      if (child + 1 < size && before(flows[child + 1], flows[child])) {
        child++;
      }
      if (!before(flows[child], flow)) {
        break;
      }
      place(flows, pos, flows[child]);
      pos = child;
    }
    place(flows, pos, flow);
  }

  private static void place(Flow[] flows, int pos, Flow flow) {
    flows[pos] = flow;
    flow.slot = pos;
  }

  /** @return the server with the earliest next completion, after folding in every pending change */
  private int first() {
    if (dirtyCount > 0) {
      // Many changes at one instant (a read starting on every server) are cheaper as one rebuild.
      if ((long) dirtyCount * treeDepth > leaves) {
        for (int i = 0; i < dirtyCount; i++) {
          dirty[dirtyList[i]] = false;
        }
        for (int node = leaves - 1; node >= 1; node--) {
          tree[node] = earlier(tree[2 * node], tree[2 * node + 1]);
        }
      } else {
        for (int i = 0; i < dirtyCount; i++) {
          int server = dirtyList[i];
          dirty[server] = false;
          for (int node = (leaves + server) >>> 1; node >= 1; node >>>= 1) {
            tree[node] = earlier(tree[2 * node], tree[2 * node + 1]);
          }
        }
      }
      dirtyCount = 0;
    }
    // With one server the root is its leaf, tree[1], too.
    return tree[1];
  }

  private void markDirty(int server) {
    if (!dirty[server]) {
      dirty[server] = true;
      dirtyList[dirtyCount++] = server;
    }
  }

  /** The server of the two that completes first (ties to the lower index); -1 is padding. */
  private int earlier(int a, int b) {
    if (a < 0) {
      return b;
    }
    if (b < 0) {
      return a;
    }
    return nextTime[a] < nextTime[b] || (nextTime[a] == nextTime[b] && a < b) ? a : b;
  }

  private void advance(double at) {
    if (!(at >= now)) {
      throw new IllegalArgumentException("time must not go backwards: " + at + " < " + now);
    }
    // Only moving forward can skip a completion; not checking at an unchanged time lets a burst of
    // changes at one instant be folded into the tree at once.
    if (at > now && at > nextCompletionTime()) {
      throw new IllegalArgumentException("time " + at + " skips the completion due at "
          + nextCompletionTime());
    }
    now = at;
  }

  private void checkServer(int server) {
    if (server < 0 || server >= count.length) {
      throw new IllegalArgumentException("server must be in [0, " + count.length + ") but was " + server);
    }
  }

  private static void checkSlowdown(double value) {
    if (!(value >= 1) || Double.isInfinite(value)) {
      throw new IllegalArgumentException("slowdown must be finite and >= 1 but was " + value);
    }
  }

  /** One transfer from a server. Its progress is owned by the network. */
  public static final class Flow {
    private final long id;
    private final int server;
    private final double bytes;
    private final double slowdown;
    private final int tag;
    private final Object attachment;
    private double done;
    private double virtualStart;
    private double finishTag;
    private int slot;
    private boolean active = true;

    private Flow(long id, int server, double bytes, double slowdown, int tag,
        Object attachment) {
      this.id = id;
      this.server = server;
      this.bytes = bytes;
      this.slowdown = slowdown;
      this.tag = tag;
      this.attachment = attachment;
    }

    /** @return the sending server */
    public int server() {
      return server;
    }

    /** @return the bytes this transfer carries when complete */
    public double bytes() {
      return bytes;
    }

    /** @return how many times slower than its share this transfer progresses */
    public double slowdown() {
      return slowdown;
    }

    /** @return the caller's tag */
    public int tag() {
      return tag;
    }

    /** @return the caller's attachment, possibly null */
    public Object attachment() {
      return attachment;
    }

    /** @return whether the transfer is still in progress */
    public boolean isActive() {
      return active;
    }

    @Override
    public String toString() {
      return "Flow{server=" + server + ", bytes=" + bytes + ", done=" + done
          + ", active=" + active + "}";
    }
  }
}
