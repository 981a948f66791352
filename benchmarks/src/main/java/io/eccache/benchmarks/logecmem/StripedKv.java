package io.eccache.benchmarks.logecmem;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;

/**
 * The proxy of LogECMem's testbed for the three erasure-coded schemes: its object index (key →
 * stripe and unit) and stripe index, values packed into stripes as the paper packs them (one value
 * is one unit, "one object = one chunk"), normal and degraded reads. A value goes to the DRAM node
 * its key hashes to, at once, and waits in that node's queue; when k nodes' queues hold a value,
 * those k values form a stripe, encoded here, its parities written. Subclasses say where parities
 * live and how an update changes them.
 */
abstract class StripedKv implements KvStore {
  /** A value's place: its stripe and unit once sealed, else its node's queue. */
  static final class Slot {
    final String key;
    /** The memcached key of the value's current version. */
    String item;
    int node;
    Stripe stripe;
    int index;
    /** The value, while it waits for a stripe (the proxy encodes it at sealing). */
    byte[] pending;
    int generation;

    Slot(String key) {
      this.key = key;
    }
  }

  /** One stripe: k data units on k DRAM nodes, its parities where the scheme keeps them. */
  static final class Stripe {
    final long id;
    final int[] dataNodes;
    /** The memcached key of each data unit; null for an empty unit (zeros, never stored). */
    final String[] items;
    final Slot[] slots;
    final int[] parityNodes;
    long version;
    int live;

    Stripe(long id, int k, int[] parityNodes) {
      this.id = id;
      this.dataNodes = new int[k];
      this.items = new String[k];
      this.slots = new Slot[k];
      this.parityNodes = parityNodes;
    }

    String parityItem(int row) {
      return "p" + id + "_" + row;
    }
  }

  final Testbed bed;
  final int k;
  final int r;
  final OpCounts counts = new OpCounts();
  final ChunkIo io;
  final Map<String, Slot> index = new HashMap<>();
  private final List<ArrayDeque<Slot>> queues = new ArrayList<>();
  private long nextStripe;
  /** Every sealed stripe still held, oldest first. */
  final List<Stripe> sealed = new ArrayList<>();
  long lastParityNanos;

  StripedKv(Testbed bed) {
    this.bed = bed;
    this.k = bed.k;
    this.r = bed.r;
    this.io = new ChunkIo(bed, counts);
    if (bed.dram.size() < nodes()) {
      throw new IllegalArgumentException(name() + " needs " + nodes() + " DRAM nodes for RS("
          + k + ", " + r + "), the testbed has " + bed.dram.size());
    }
    for (int i = 0; i < nodes(); i++) {
      queues.add(new ArrayDeque<>());
    }
  }

  /** How many parity rows live in DRAM nodes (the rest on log nodes). */
  abstract int dramParities();

  /** The DRAM nodes this scheme uses: k for the data units and one per parity kept in DRAM. */
  final int nodes() {
    return k + dramParities();
  }

  /** Changes a sealed value as the scheme updates, its stripe's parities with it. */
  abstract void updateSealed(Slot slot, byte[] value) throws IOException;

  /**
   * Replaces a value: one still waiting for its stripe is only rewritten on its node (its stripe
   * will be encoded from the new bytes); a sealed one as the scheme updates.
   */
  @Override
  public final void update(String key, byte[] value) throws IOException {
    checkSize(value);
    Slot slot = slot(key);
    if (slot.stripe == null) {
      io.setAll(new int[] {slot.node}, new String[] {slot.item}, new byte[][] {value});
      slot.pending = value;
      lastParityNanos = 0;
      return;
    }
    updateSealed(slot, value);
  }

  /** Writes a sealed stripe's parities (rows 0..r-1): to DRAM nodes, and to log nodes if any. */
  abstract void writeParities(Stripe stripe, ByteBuffer[] parity) throws IOException;

  @Override
  public OpCounts counts() {
    return counts;
  }

  @Override
  public long lastParityNanos() {
    return lastParityNanos;
  }

  @Override
  public void insert(String key, byte[] value) throws IOException {
    checkSize(value);
    if (index.containsKey(key)) {
      update(key, value);
      return;
    }
    Slot slot = new Slot(key);
    slot.item = key;
    slot.node = Math.floorMod(key.hashCode(), nodes());
    index.put(key, slot);
    enqueue(slot, value);
  }

  /** Stores a value on its node and queues it for a stripe. */
  final void enqueue(Slot slot, byte[] value) throws IOException {
    io.setAll(new int[] {slot.node}, new String[] {slot.item}, new byte[][] {value});
    queue(slot, value);
  }

  /** Queues a value already on its node; seals a stripe once k nodes have one waiting. */
  final void queue(Slot slot, byte[] value) throws IOException {
    slot.pending = value;
    slot.stripe = null;
    queues.get(slot.node).add(slot);
    long waiting = queues.stream().filter(q -> !q.isEmpty()).count();
    if (waiting >= k) {
      seal(false);
    }
  }

  @Override
  public void finishLoad() throws IOException {
    while (queues.stream().anyMatch(q -> !q.isEmpty())) {
      seal(true);
    }
  }

  /**
   * Makes a stripe of the heads of the k longest queues (fewer when {@code partial}, the rest of
   * its units empty), encodes it from the values the proxy holds, and writes its parities to the
   * nodes that hold none of its data units.
   */
  private void seal(boolean partial) throws IOException {
    Integer[] order = new Integer[nodes()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Integer.compare(queues.get(b).size(), queues.get(a).size()));
    int[] parityNodes = new int[dramParities()];
    for (int j = 0; j < parityNodes.length; j++) {
      parityNodes[j] = order[k + j];
    }
    Stripe stripe = new Stripe(nextStripe++, k, parityNodes);
    sealed.add(stripe);
    ByteBuffer[] data = new ByteBuffer[k];
    for (int i = 0; i < k; i++) {
      int node = order[i];
      stripe.dataNodes[i] = node;
      Slot slot = queues.get(node).poll();
      if (slot == null) {
        if (!partial) {
          throw new IllegalStateException("sealing with " + i + " of " + k + " values");
        }
        data[i] = ByteBuffer.allocate(bed.unitBytes);
        continue;
      }
      data[i] = ByteBuffer.wrap(slot.pending);
      stripe.items[i] = slot.item;
      stripe.slots[i] = slot;
      stripe.live++;
      slot.stripe = stripe;
      slot.index = i;
      slot.pending = null;
    }
    ByteBuffer[] parity = new ByteBuffer[r];
    for (int j = 0; j < r; j++) {
      parity[j] = ByteBuffer.allocate(bed.unitBytes);
    }
    bed.coder.encode(data, parity);
    for (ByteBuffer p : parity) {
      p.rewind();
    }
    writeParities(stripe, parity);
  }

  @Override
  public int homeNode(String key) throws IOException {
    return slot(key).node;
  }

  @Override
  public byte[] read(String key) throws IOException {
    Slot slot = slot(key);
    DramNode node = bed.dram.get(slot.node);
    if (!node.isDown()) {
      counts.add(OpCounts.Kind.GET, 1);
      return node.get(slot.item);
    }
    if (slot.stripe == null) {
      throw new IOException(key + " waits for a stripe on " + node + ", which is down: a value"
          + " not yet sealed has no parity (LogECMem leaves it unprotected)");
    }
    return degradedRead(slot);
  }

  /** Rebuilds the slot's unit from k other units of its stripe: DRAM first, log nodes last. */
  private byte[] degradedRead(Slot slot) throws IOException {
    return rebuild(slot.stripe, slot.index, -1);
  }

  /**
   * Rebuilds unit {@code lost} of a stripe (0..k-1 a data unit, k + j parity row j) from k others:
   * its live DRAM nodes' data units, then their parities, then log nodes' parities at the stripe's
   * version for what is still missing. The data unit {@code avoid} (-1: none) is left out, for a
   * log node's parity to stand in for it (log-assisted repair). The DRAM reads are issued at once
   * and the log nodes' read while they are in flight.
   */
  byte[] rebuild(Stripe stripe, int lost, int avoid) throws IOException {
    ByteBuffer[] units = new ByteBuffer[k + r];
    List<Integer> wanted = new ArrayList<>();
    List<Future<byte[]>> fetches = new ArrayList<>();
    int available = 0;
    for (int i = 0; i < k && available < k; i++) {
      if (i == lost || i == avoid) {
        continue;
      }
      if (stripe.items[i] == null) {
        units[i] = ByteBuffer.allocate(bed.unitBytes); // an empty unit is zeros
        available++;
      } else if (!bed.dram.get(stripe.dataNodes[i]).isDown()) {
        wanted.add(i);
        fetches.add(bed.dram.get(stripe.dataNodes[i]).getAsync(stripe.items[i]));
        available++;
      }
    }
    for (int j = 0; j < stripe.parityNodes.length && available < k; j++) {
      if (k + j != lost && !bed.dram.get(stripe.parityNodes[j]).isDown()) {
        wanted.add(k + j);
        fetches.add(bed.dram.get(stripe.parityNodes[j]).getAsync(stripe.parityItem(j)));
        available++;
      }
    }
    counts.add(OpCounts.Kind.GET, fetches.size());
    for (int row = stripe.parityNodes.length; row < r && available < k; row++) {
      if (k + row != lost) {
        units[k + row] = ByteBuffer.wrap(logParity(stripe, row));
        counts.add(OpCounts.Kind.LOG_READ, 1);
        available++;
      }
    }
    for (int n = 0; n < fetches.size(); n++) {
      int unit = wanted.get(n);
      DramNode node = bed.dram.get(unit < k ? stripe.dataNodes[unit]
          : stripe.parityNodes[unit - k]);
      byte[] bytes = node.await(fetches.get(n), "degraded read of stripe " + stripe.id);
      if (bytes == null) {
        throw new IOException(node + " lost unit " + unit + " of stripe " + stripe.id);
      }
      units[unit] = ByteBuffer.wrap(bytes);
    }
    if (available < k) {
      throw new IOException("stripe " + stripe.id + " has " + available + " of the " + k
          + " units a rebuild of unit " + lost + " needs");
    }
    ByteBuffer out = ByteBuffer.allocate(bed.unitBytes);
    bed.coder.decode(units, new int[] {lost}, new ByteBuffer[] {out});
    return out.array();
  }

  /** Parity row {@code row} of a stripe at its version, from its log node. */
  byte[] logParity(Stripe stripe, int row) throws IOException {
    throw new IOException(name() + " keeps every parity in DRAM: row " + row + " of stripe "
        + stripe.id + " is lost with its node");
  }

  Slot slot(String key) throws IOException {
    Slot slot = index.get(key);
    if (slot == null) {
      throw new IOException("no value under " + key);
    }
    return slot;
  }

  void checkSize(byte[] value) {
    if (value.length != bed.unitBytes) {
      throw new IllegalArgumentException("values are " + bed.unitBytes + " bytes here (one"
          + " value is one unit), got " + value.length);
    }
  }

  static byte[] xor(byte[] a, byte[] b) {
    byte[] out = new byte[a.length];
    for (int i = 0; i < a.length; i++) {
      out[i] = (byte) (a[i] ^ b[i]);
    }
    return out;
  }

  @Override
  public void close() {
    // the testbed owns the servers
  }
}
