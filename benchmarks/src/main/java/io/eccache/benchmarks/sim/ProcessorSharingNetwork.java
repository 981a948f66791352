package io.eccache.benchmarks.sim;

import java.util.Arrays;

/**
 * Transfers over processor-sharing links, simulated exactly by events: each server's outgoing link and,
 * optionally, each client's incoming link.
 *
 * <p>A server link of bandwidth B carrying n transfers and background weight w gives each transfer the
 * share {@code B / (n + w)}, as n + w equal TCP flows would get. A background weight is a number of
 * always-busy flows that never finish (it may be fractional, to model a partly busy link). With client
 * links enabled a transfer gets {@code min(serverShare, clientShare)} with {@code clientShare = Bc / nc};
 * bandwidth a transfer cannot use because it is limited elsewhere is <em>not</em> handed to the others
 * (so this mode is not max-min fair; with client links disabled the model is exact processor sharing).
 * A transfer with slowdown f (a straggler) progresses at its share divided by f, and a server slowdown g
 * divides every transfer on that server once more; the unused part of the share is lost, as when the
 * sender, not the network, is slow.
 *
 * <p>Rates only change when the set of transfers or a link's background or slowdown changes, so between
 * such changes every transfer progresses linearly, and a tournament tree over servers, keyed by each
 * server's earliest completion, yields the next event (servers changed since the last look are updated
 * together, by one bottom-up rebuild when many changed at once, as when a read starts on every server). Without client links every transfer on a server
 * progresses at the same rate per unit of slowdown, so each server keeps a virtual clock V (bytes served
 * so far to a transfer of slowdown 1, advancing at {@code B / ((n + w) g)}) and a heap of its transfers
 * by finish tag {@code V_start + bytes * f}: a change costs O(log n + log servers). With client links
 * rates differ within a server, so a change settles (bytes done so far) and re-rates every transfer on
 * the touched server and client and rescans the servers concerned: O(n) per change.
 *
 * <p>Time is in seconds and never goes backwards; a caller must process {@link #nextCompletionTime()}
 * before anything later. Not thread-safe.
 */
public final class ProcessorSharingNetwork {
  /** Bytes left below this are rounding error, not data: the transfer is complete. */
  private static final double EPSILON_BYTES = 1e-6;

  private final double serverBandwidth;
  private final double clientBandwidth;
  private final boolean clientLimited;

  private final Flow[][] serverFlows;
  private final int[] serverCount;
  private final double[] background;
  private final double[] serverSlowdown;
  private final Flow[][] clientFlows;
  private final int[] clientCount;

  private final double[] nextTime;
  private final Flow[] nextFlow;
  /** Tournament tree: leaves at [leaves, 2 * leaves) hold servers (-1 pads), inner nodes the earliest. */
  private final int[] tree;
  private final int leaves;
  private final int treeDepth;
  private final boolean[] dirty;
  private final int[] dirtyList;
  private int dirtyCount;
  /** Per server, the finish tags of its transfers, parallel to its heap (without client links). */
  private final double[][] serverTags;
  /** Marks servers already rescanned during one change, so each is rescanned once. */
  private final int[] rescanStamp;
  private int stamp;

  /** Per server, the virtual clock: bytes served to a transfer of slowdown 1 (without client links). */
  private final double[] virtual;
  /** Per server, when {@link #virtual} was last advanced. */
  private final double[] virtualAt;

  private double now;
  private long active;
  /** Numbers transfers in start order, which breaks ties between equal finish times reproducibly. */
  private long nextId;

  /**
   * @param servers number of server links, at least 1
   * @param serverBandwidthBytesPerSec each server link's bandwidth, finite and > 0
   * @param clients number of client links, at least 1
   * @param clientBandwidthBytesPerSec each client link's bandwidth, > 0; +infinity disables client links
   * @throws IllegalArgumentException if a count or bandwidth is out of range
   */
  public ProcessorSharingNetwork(int servers, double serverBandwidthBytesPerSec, int clients,
      double clientBandwidthBytesPerSec) {
    if (servers < 1) {
      throw new IllegalArgumentException("servers must be >= 1 but was " + servers);
    }
    if (clients < 1) {
      throw new IllegalArgumentException("clients must be >= 1 but was " + clients);
    }
    if (!(serverBandwidthBytesPerSec > 0) || Double.isInfinite(serverBandwidthBytesPerSec)) {
      throw new IllegalArgumentException(
          "serverBandwidthBytesPerSec must be finite and > 0 but was " + serverBandwidthBytesPerSec);
    }
    if (!(clientBandwidthBytesPerSec > 0)) {
      throw new IllegalArgumentException(
          "clientBandwidthBytesPerSec must be > 0 (or +infinity) but was " + clientBandwidthBytesPerSec);
    }
    this.serverBandwidth = serverBandwidthBytesPerSec;
    this.clientBandwidth = clientBandwidthBytesPerSec;
    this.clientLimited = !Double.isInfinite(clientBandwidthBytesPerSec);
    this.serverFlows = new Flow[servers][4];
    this.serverCount = new int[servers];
    this.background = new double[servers];
    this.serverSlowdown = new double[servers];
    Arrays.fill(serverSlowdown, 1.0);
    this.clientFlows = new Flow[clients][clientLimited ? 4 : 0];
    this.clientCount = new int[clients];
    this.nextTime = new double[servers];
    Arrays.fill(nextTime, Double.POSITIVE_INFINITY);
    this.nextFlow = new Flow[servers];
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
    this.serverTags = new double[servers][clientLimited ? 0 : 4];
    this.rescanStamp = new int[servers];
    this.virtual = new double[servers];
    this.virtualAt = new double[servers];
  }

  /** @return the number of server links */
  public int servers() {
    return serverCount.length;
  }

  /** @return the number of client links */
  public int clients() {
    return clientCount.length;
  }

  /** @return the time of the last change or completion, in seconds */
  public double now() {
    return now;
  }

  /** @return transfers in progress */
  public long activeFlows() {
    return active;
  }

  /**
   * @param server a server index
   * @return transfers in progress on that server's link
   * @throws IllegalArgumentException if the index is out of range
   */
  public int flowsOn(int server) {
    checkServer(server);
    return serverCount[server];
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
   * @param client the receiving client
   * @param bytes bytes to transfer, finite and > 0
   * @param slowdown how many times slower than its share this transfer progresses, finite and >= 1
   * @param tag a number the caller chooses (e.g. which split this is)
   * @param attachment anything the caller wants back on completion; may be null
   * @return the transfer
   * @throws IllegalArgumentException if an argument is out of range
   */
  public Flow start(double at, int server, int client, double bytes, double slowdown, int tag,
      Object attachment) {
    advance(at);
    checkServer(server);
    checkClient(client);
    if (!(bytes > 0) || Double.isInfinite(bytes)) {
      throw new IllegalArgumentException("bytes must be finite and > 0 but was " + bytes);
    }
    checkSlowdown(slowdown);
    Flow flow = new Flow(nextId++, server, client, bytes, slowdown, tag, attachment);
    if (!clientLimited) {
      advanceVirtual(server);
      flow.virtualStart = virtual[server];
      flow.finishTag = virtual[server] + bytes * slowdown;
      heapAdd(server, flow);
      active++;
      updateVirtualNext(server);
      return flow;
    }
    settleLinks(server, client);
    flow.updated = now;
    flow.serverSlot = add(serverFlows, serverCount, server, flow);
    if (clientLimited) {
      flow.clientSlot = add(clientFlows, clientCount, client, flow);
    }
    active++;
    rerateLinks(server, client);
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
    double at = server < 0 ? Double.POSITIVE_INFINITY : nextTime[server];
    if (Double.isInfinite(at)) {
      throw new IllegalStateException("no transfer in progress");
    }
    Flow flow = nextFlow[server];
    now = Math.max(now, at);
    if (!clientLimited) {
      advanceVirtual(server);
      flow.done = flow.bytes;
      heapRemove(flow);
      updateVirtualNext(server);
      return flow;
    }
    settleLinks(server, flow.client);
    flow.done = flow.bytes;
    remove(flow);
    rerateLinks(server, flow.client);
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
    if (flow == null || !flow.active || flow.server >= serverFlows.length
        || flow.serverSlot >= serverCount[flow.server] || serverFlows[flow.server][flow.serverSlot] != flow) {
      throw new IllegalArgumentException("not an active transfer of this network: " + flow);
    }
    if (!clientLimited) {
      advanceVirtual(flow.server);
      flow.done = virtualDone(flow);
      heapRemove(flow);
      updateVirtualNext(flow.server);
      return flow.done;
    }
    settleLinks(flow.server, flow.client);
    remove(flow);
    rerateLinks(flow.server, flow.client);
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
    if (!clientLimited) {
      advanceVirtual(server);
      background[server] = weight;
      updateVirtualNext(server);
      return;
    }
    settleServer(server);
    background[server] = weight;
    rerateServerOnly(server);
  }

  /**
   * Sets how many times slower than their share every transfer from a server progresses.
   *
   * @param at the current time, not before {@link #now()} nor after {@link #nextCompletionTime()}
   * @param server the server
   * @param slowdown finite and >= 1
   * @throws IllegalArgumentException if an argument is out of range
   */
  public void setServerSlowdown(double at, int server, double slowdown) {
    advance(at);
    checkServer(server);
    checkSlowdown(slowdown);
    if (!clientLimited) {
      advanceVirtual(server);
      serverSlowdown[server] = slowdown;
      updateVirtualNext(server);
      return;
    }
    settleServer(server);
    serverSlowdown[server] = slowdown;
    rerateServerOnly(server);
  }

  /**
   * @param flow a transfer of this network
   * @return the bytes it has transferred by {@link #now()} (all of them once complete)
   */
  public double bytesDone(Flow flow) {
    if (!flow.active) {
      return flow.done;
    }
    if (!clientLimited) {
      double v = virtual[flow.server];
      int n = serverCount[flow.server];
      v += (now - virtualAt[flow.server]) * serverBandwidth
          / ((n + background[flow.server]) * serverSlowdown[flow.server]);
      return Math.min(flow.bytes, (v - flow.virtualStart) / flow.slowdown);
    }
    return Math.min(flow.bytes, flow.done + flow.rate * (now - flow.updated));
  }

  /** Brings a server's virtual clock to now, at the rate of the transfers it had until now. */
  private void advanceVirtual(int server) {
    int n = serverCount[server];
    if (n > 0) {
      virtual[server] += (now - virtualAt[server]) * serverBandwidth
          / ((n + background[server]) * serverSlowdown[server]);
    }
    virtualAt[server] = now;
  }

  private double virtualDone(Flow flow) {
    return Math.max(0, Math.min(flow.bytes, (virtual[flow.server] - flow.virtualStart) / flow.slowdown));
  }

  /** The server's next completion: its smallest finish tag reached at the current virtual rate. */
  private void updateVirtualNext(int server) {
    int n = serverCount[server];
    if (n == 0) {
      nextTime[server] = Double.POSITIVE_INFINITY;
      nextFlow[server] = null;
    } else {
      Flow first = serverFlows[server][0];
      double left = serverTags[server][0] - virtual[server];
      double perVirtual = (n + background[server]) * serverSlowdown[server] / serverBandwidth;
      nextTime[server] = left <= EPSILON_BYTES ? now : now + left * perVirtual;
      nextFlow[server] = first;
    }
    markDirty(server);
  }

  /** Adds to the server's heap of transfers by finish tag; serverSlot is the heap position. */
  private void heapAdd(int server, Flow flow) {
    int n = serverCount[server];
    if (n == serverFlows[server].length) {
      serverFlows[server] = Arrays.copyOf(serverFlows[server], Math.max(4, n * 2));
      serverTags[server] = Arrays.copyOf(serverTags[server], Math.max(4, n * 2));
    }
    serverCount[server] = n + 1;
    flowSiftUp(server, n, flow);
  }

  private void heapRemove(Flow flow) {
    int server = flow.server;
    Flow[] flows = serverFlows[server];
    int last = serverCount[server] - 1;
    int slot = flow.serverSlot;
    Flow moved = flows[last];
    flows[last] = null;
    serverCount[server] = last;
    if (slot != last) {
      // The last transfer fills the hole; it may belong above or below it.
      if (slot > 0 && before(moved, flows[(slot - 1) >>> 1], serverTags[server][(slot - 1) >>> 1])) {
        flowSiftUp(server, slot, moved);
      } else {
        flowSiftDown(server, slot, moved, last);
      }
    }
    flow.active = false;
    active--;
  }

  private static boolean before(Flow a, Flow b, double bTag) {
    return a.finishTag < bTag || (a.finishTag == bTag && a.id < b.id);
  }

  /** Places {@code flow} at {@code pos} or above, moving larger parents down. */
  private void flowSiftUp(int server, int pos, Flow flow) {
    Flow[] flows = serverFlows[server];
    double[] tags = serverTags[server];
    while (pos > 0) {
      int parent = (pos - 1) >>> 1;
      if (!before(flow, flows[parent], tags[parent])) {
        break;
      }
      flows[pos] = flows[parent];
      tags[pos] = tags[parent];
      flows[pos].serverSlot = pos;
      pos = parent;
    }
    flows[pos] = flow;
    tags[pos] = flow.finishTag;
    flow.serverSlot = pos;
  }

  /** Places {@code flow} at {@code pos} or below, moving smaller children up. */
  private void flowSiftDown(int server, int pos, Flow flow, int size) {
    Flow[] flows = serverFlows[server];
    double[] tags = serverTags[server];
    double tag = flow.finishTag;
    while (true) {
      int child = 2 * pos + 1;
      if (child >= size) {
        break;
      }
      int right = child + 1;
      if (right < size && (tags[right] < tags[child]
          || (tags[right] == tags[child] && flows[right].id < flows[child].id))) {
        child = right;
      }
      if (!(tags[child] < tag || (tags[child] == tag && flows[child].id < flow.id))) {
        break;
      }
      flows[pos] = flows[child];
      tags[pos] = tags[child];
      flows[pos].serverSlot = pos;
      pos = child;
    }
    flows[pos] = flow;
    tags[pos] = tag;
    flow.serverSlot = pos;
  }

  /** @return the server with the earliest next completion, after folding in every pending change */
  private int first() {
    if (dirtyCount > 0) {
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
    double ta = nextTime[a];
    double tb = nextTime[b];
    return ta < tb || (ta == tb && a < b) ? a : b;
  }

  private void advance(double at) {
    if (!(at >= now)) {
      throw new IllegalArgumentException("time must not go backwards: " + at + " < " + now);
    }
    // Only moving forward can skip a completion; not checking at an unchanged time lets a burst of
    // changes at one instant (a read starting everywhere) be folded into the tree at once.
    if (at > now && at > nextCompletionTime()) {
      throw new IllegalArgumentException("time " + at + " skips the completion due at "
          + nextCompletionTime());
    }
    now = at;
  }

  private void settleLinks(int server, int client) {
    settleServer(server);
    if (clientLimited) {
      Flow[] flows = clientFlows[client];
      for (int i = 0, n = clientCount[client]; i < n; i++) {
        settle(flows[i]);
      }
    }
  }

  private void settleServer(int server) {
    Flow[] flows = serverFlows[server];
    for (int i = 0, n = serverCount[server]; i < n; i++) {
      settle(flows[i]);
    }
  }

  private void settle(Flow flow) {
    flow.done = Math.min(flow.bytes, flow.done + flow.rate * (now - flow.updated));
    flow.updated = now;
  }

  /** New rates after a server's or client's transfer count changed; all of them were settled at now. */
  private void rerateLinks(int server, int client) {
    stamp++;
    Flow[] flows = serverFlows[server];
    for (int i = 0, n = serverCount[server]; i < n; i++) {
      flows[i].rate = rate(flows[i]);
    }
    if (clientLimited) {
      // The client's share changed for its transfers on other servers too, so those servers' next
      // completion moves.
      Flow[] mine = clientFlows[client];
      for (int i = 0, n = clientCount[client]; i < n; i++) {
        mine[i].rate = rate(mine[i]);
      }
      for (int i = 0, n = clientCount[client]; i < n; i++) {
        rescan(mine[i].server);
      }
    }
    rescan(server);
  }

  private void rerateServerOnly(int server) {
    stamp++;
    Flow[] flows = serverFlows[server];
    for (int i = 0, n = serverCount[server]; i < n; i++) {
      flows[i].rate = rate(flows[i]);
    }
    rescan(server);
  }

  private double rate(Flow flow) {
    double share = serverBandwidth / (serverCount[flow.server] + background[flow.server]);
    if (clientLimited) {
      share = Math.min(share, clientBandwidth / clientCount[flow.client]);
    }
    return share / (flow.slowdown * serverSlowdown[flow.server]);
  }

  private void rescan(int server) {
    if (rescanStamp[server] == stamp) {
      return;
    }
    rescanStamp[server] = stamp;
    double best = Double.POSITIVE_INFINITY;
    Flow bestFlow = null;
    Flow[] flows = serverFlows[server];
    for (int i = 0, n = serverCount[server]; i < n; i++) {
      Flow flow = flows[i];
      double left = flow.bytes - flow.done;
      double finish = left <= EPSILON_BYTES ? flow.updated : flow.updated + left / flow.rate;
      // Ties go to the earlier-started transfer so the order is reproducible.
      if (finish < best || (finish == best && flow.id < bestFlow.id)) {
        best = finish;
        bestFlow = flow;
      }
    }
    nextTime[server] = best;
    nextFlow[server] = bestFlow;
    markDirty(server);
  }

  private int add(Flow[][] lists, int[] counts, int link, Flow flow) {
    Flow[] flows = lists[link];
    int n = counts[link];
    if (n == flows.length) {
      flows = Arrays.copyOf(flows, Math.max(4, n * 2));
      lists[link] = flows;
    }
    flows[n] = flow;
    counts[link] = n + 1;
    return n;
  }

  private void remove(Flow flow) {
    removeAt(serverFlows[flow.server], serverCount, flow.server, flow.serverSlot, true);
    if (clientLimited) {
      removeAt(clientFlows[flow.client], clientCount, flow.client, flow.clientSlot, false);
    }
    flow.active = false;
    flow.rate = 0;
    active--;
  }

  private static void removeAt(Flow[] flows, int[] counts, int link, int slot, boolean serverSide) {
    int last = counts[link] - 1;
    Flow moved = flows[last];
    flows[slot] = moved;
    flows[last] = null;
    counts[link] = last;
    if (moved != null && slot != last) {
      if (serverSide) {
        moved.serverSlot = slot;
      } else {
        moved.clientSlot = slot;
      }
    }
  }

  private void checkServer(int server) {
    if (server < 0 || server >= serverCount.length) {
      throw new IllegalArgumentException("server must be in [0, " + serverCount.length + ") but was "
          + server);
    }
  }

  private void checkClient(int client) {
    if (client < 0 || client >= clientCount.length) {
      throw new IllegalArgumentException("client must be in [0, " + clientCount.length + ") but was "
          + client);
    }
  }

  private static void checkSlowdown(double slowdown) {
    if (!(slowdown >= 1) || Double.isInfinite(slowdown)) {
      throw new IllegalArgumentException("slowdown must be finite and >= 1 but was " + slowdown);
    }
  }

  /** One transfer from a server to a client. Its progress is owned by the network. */
  public static final class Flow {
    private final long id;
    private final int server;
    private final int client;
    private final double bytes;
    private final double slowdown;
    private final int tag;
    private final Object attachment;
    private double done;
    private double rate;
    private double virtualStart;
    private double finishTag;
    private double updated;
    private int serverSlot;
    private int clientSlot = -1;
    private boolean active = true;

    private Flow(long id, int server, int client, double bytes, double slowdown, int tag,
        Object attachment) {
      this.id = id;
      this.server = server;
      this.client = client;
      this.bytes = bytes;
      this.slowdown = slowdown;
      this.tag = tag;
      this.attachment = attachment;
    }

    /** @return the sending server */
    public int server() {
      return server;
    }

    /** @return the receiving client */
    public int client() {
      return client;
    }

    /** @return the bytes this transfer carries when complete */
    public double bytes() {
      return bytes;
    }

    /**
     * @return bytes transferred once complete or cancelled; while active a lower bound (see
     *     {@link ProcessorSharingNetwork#bytesDone(Flow)} for the current value)
     */
    public double bytesDone() {
      return done;
    }

    /** @return this transfer's own slowdown factor */
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
      return "Flow{server=" + server + ", client=" + client + ", bytes=" + bytes + ", done=" + done
          + ", active=" + active + "}";
    }
  }
}
