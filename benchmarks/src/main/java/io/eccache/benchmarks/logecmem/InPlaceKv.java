package io.eccache.benchmarks.logecmem;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * IPMem: every unit of a stripe in DRAM nodes, updated in place. An update reads the old value and
 * all r parities (r + 1 gets) and writes the new value and the r parities plus their deltas
 * (r + 1 sets).
 */
final class InPlaceKv extends StripedKv {
  InPlaceKv(Testbed bed) {
    super(bed);
  }

  @Override
  public String name() {
    return "inplace";
  }

  @Override
  int dramParities() {
    return r;
  }

  @Override
  void writeParities(Stripe stripe, ByteBuffer[] parity) throws IOException {
    writeDramParities(io, stripe, parity);
  }

  /** Sets all r parities of a stripe on its parity nodes. */
  static void writeDramParities(ChunkIo io, Stripe stripe, ByteBuffer[] parity)
      throws IOException {
    String[] items = new String[parity.length];
    byte[][] values = new byte[parity.length][];
    for (int j = 0; j < parity.length; j++) {
      items[j] = stripe.parityItem(j);
      values[j] = parity[j].array();
    }
    io.setAll(stripe.parityNodes, items, values);
  }

  @Override
  void updateSealed(Slot slot, byte[] value) throws IOException {
    Stripe stripe = slot.stripe;
    int[] nodes = new int[r + 1];
    String[] items = new String[r + 1];
    nodes[0] = slot.node;
    items[0] = slot.item;
    for (int j = 0; j < r; j++) {
      nodes[1 + j] = stripe.parityNodes[j];
      items[1 + j] = stripe.parityItem(j);
    }
    byte[][] old = io.getAll(nodes, items);
    long parityStart = System.nanoTime();
    byte[] delta = xor(old[0], value);
    int[] rows = new int[r];
    ByteBuffer[] parityDeltas = new ByteBuffer[r];
    for (int j = 0; j < r; j++) {
      rows[j] = j;
      parityDeltas[j] = ByteBuffer.allocate(value.length);
    }
    bed.coder.parityDelta(slot.index, ByteBuffer.wrap(delta), rows, parityDeltas);
    byte[][] fresh = new byte[r + 1][];
    fresh[0] = value;
    for (int j = 0; j < r; j++) {
      fresh[1 + j] = xor(old[1 + j], parityDeltas[j].array());
    }
    if (bed.issue == Testbed.Issue.SERIAL) {
      String[] parityItems = java.util.Arrays.copyOfRange(items, 1, r + 1);
      io.setAll(stripe.parityNodes, parityItems, java.util.Arrays.copyOfRange(fresh, 1, r + 1));
      lastParityNanos = System.nanoTime() - parityStart;
      io.setAll(new int[] {slot.node}, new String[] {slot.item}, new byte[][] {value});
    } else {
      io.setAll(nodes, items, fresh);
      lastParityNanos = System.nanoTime() - parityStart;
    }
    stripe.version++;
  }
}
