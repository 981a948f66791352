package io.eccache.benchmarks.logecmem;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;

/** Reads and writes of several DRAM chunks for one operation, serially or at once, counted. */
final class ChunkIo {
  private final Testbed bed;
  private final OpCounts counts;

  ChunkIo(Testbed bed, OpCounts counts) {
    this.bed = bed;
    this.counts = counts;
  }

  /** The chunks {@code items[i]} of nodes {@code nodes[i]}. */
  byte[][] getAll(int[] nodes, String[] items) throws IOException {
    byte[][] out = new byte[nodes.length][];
    counts.add(OpCounts.Kind.GET, nodes.length);
    if (bed.issue == Testbed.Issue.SERIAL) {
      for (int i = 0; i < nodes.length; i++) {
        out[i] = bed.dram.get(nodes[i]).get(items[i]);
      }
      return out;
    }
    List<Future<byte[]>> calls = new ArrayList<>();
    for (int i = 0; i < nodes.length; i++) {
      calls.add(bed.dram.get(nodes[i]).getAsync(items[i]));
    }
    for (int i = 0; i < nodes.length; i++) {
      out[i] = bed.dram.get(nodes[i]).await(calls.get(i), "get " + items[i]);
      if (out[i] == null) {
        throw new IOException(bed.dram.get(nodes[i]) + " holds no " + items[i]);
      }
    }
    return out;
  }

  /** Writes {@code values[i]} as {@code items[i]} of nodes {@code nodes[i]}. */
  void setAll(int[] nodes, String[] items, byte[][] values) throws IOException {
    counts.add(OpCounts.Kind.SET, nodes.length);
    if (bed.issue == Testbed.Issue.SERIAL) {
      for (int i = 0; i < nodes.length; i++) {
        bed.dram.get(nodes[i]).set(items[i], values[i]);
      }
      return;
    }
    List<Future<Boolean>> calls = new ArrayList<>();
    for (int i = 0; i < nodes.length; i++) {
      calls.add(bed.dram.get(nodes[i]).setAsync(items[i], values[i]));
    }
    for (int i = 0; i < nodes.length; i++) {
      if (!Boolean.TRUE.equals(bed.dram.get(nodes[i]).await(calls.get(i), "set " + items[i]))) {
        throw new IOException(bed.dram.get(nodes[i]) + " refused set " + items[i]);
      }
    }
  }

  /** Removes chunks (no answer awaited beyond the call's own). */
  void deleteAll(int[] nodes, String[] items) throws IOException {
    counts.add(OpCounts.Kind.DELETE, nodes.length);
    for (int i = 0; i < nodes.length; i++) {
      bed.dram.get(nodes[i]).delete(items[i]);
    }
  }
}
