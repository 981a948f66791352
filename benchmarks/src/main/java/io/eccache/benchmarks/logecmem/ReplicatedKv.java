package io.eccache.benchmarks.logecmem;

import java.io.IOException;

/**
 * The paper's baselines without coding: vanilla memcached (one copy) and (r + 1)-way replication,
 * tolerating as many failures as RS(k, r). A value's copies go to consecutive DRAM nodes from the
 * one its key hashes to; a read takes the first live copy; an update writes every copy.
 */
final class ReplicatedKv implements KvStore {
  private final Testbed bed;
  private final int copies;
  private final OpCounts counts = new OpCounts();
  private final ChunkIo io;

  ReplicatedKv(Testbed bed, int copies) {
    if (copies < 1 || copies > bed.dram.size()) {
      throw new IllegalArgumentException(copies + " copies need as many DRAM nodes, the"
          + " testbed has " + bed.dram.size());
    }
    this.bed = bed;
    this.copies = copies;
    this.io = new ChunkIo(bed, counts);
  }

  @Override
  public String name() {
    return copies == 1 ? "vanilla" : copies + "-way replication";
  }

  private int[] nodes(String key) {
    int first = Math.floorMod(key.hashCode(), bed.dram.size());
    int[] nodes = new int[copies];
    for (int i = 0; i < copies; i++) {
      nodes[i] = (first + i) % bed.dram.size();
    }
    return nodes;
  }

  @Override
  public int homeNode(String key) {
    return nodes(key)[0];
  }

  @Override
  public void insert(String key, byte[] value) throws IOException {
    update(key, value);
  }

  @Override
  public byte[] read(String key) throws IOException {
    for (int node : nodes(key)) {
      if (!bed.dram.get(node).isDown()) {
        counts.add(OpCounts.Kind.GET, 1);
        return bed.dram.get(node).get(key);
      }
    }
    throw new IOException("every copy of " + key + " is on a node that is down");
  }

  @Override
  public void update(String key, byte[] value) throws IOException {
    String[] items = new String[copies];
    byte[][] values = new byte[copies][];
    for (int i = 0; i < copies; i++) {
      items[i] = key;
      values[i] = value;
    }
    io.setAll(nodes(key), items, values);
  }

  @Override
  public void finishLoad() {
    // nothing waits
  }

  @Override
  public OpCounts counts() {
    return counts;
  }

  @Override
  public long lastParityNanos() {
    return 0;
  }

  @Override
  public void close() {
    // the testbed owns the servers
  }
}
