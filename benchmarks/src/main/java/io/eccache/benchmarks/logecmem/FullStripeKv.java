package io.eccache.benchmarks.logecmem;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * FSMem: an update appends the new value as a new unit, to be packed into a new stripe with other
 * new units, and leaves the old unit in its stripe, dead but still in memory (its stripe's
 * parities still cover it). A stripe left with at most half its units live is compacted at once,
 * inline, as the artifact times it: its live values read and appended anew, its units and
 * parities deleted.
 */
final class FullStripeKv extends StripedKv {
  FullStripeKv(Testbed bed) {
    super(bed);
  }

  @Override
  public String name() {
    return "fullstripe";
  }

  @Override
  int dramParities() {
    return r;
  }

  @Override
  void writeParities(Stripe stripe, ByteBuffer[] parity) throws IOException {
    InPlaceKv.writeDramParities(io, stripe, parity);
  }

  @Override
  public void update(String key, byte[] value) throws IOException {
    checkSize(value);
    Slot slot = slot(key);
    long start = System.nanoTime();
    if (slot.stripe == null) {
      io.setAll(new int[] {slot.node}, new String[] {slot.item}, new byte[][] {value});
      slot.pending = value;
      lastParityNanos = 0;
      return;
    }
    Stripe old = slot.stripe;
    old.slots[slot.index] = null;
    old.live--;
    slot.generation++;
    slot.item = key + "#" + slot.generation;
    long setStart = System.nanoTime();
    io.setAll(new int[] {slot.node}, new String[] {slot.item}, new byte[][] {value});
    long valueWrite = System.nanoTime() - setStart;
    queue(slot, value);
    if (old.live <= k / 2) {
      compact(old);
    }
    lastParityNanos = System.nanoTime() - start - valueWrite; // sealing and compaction
  }

  /** Moves a sparse stripe's live values into new stripes and removes the stripe. */
  private void compact(Stripe stripe) throws IOException {
    List<Slot> live = new ArrayList<>();
    for (Slot s : stripe.slots) {
      if (s != null) {
        live.add(s);
      }
    }
    for (Slot s : live) {
      byte[] value = io.getAll(new int[] {s.node}, new String[] {s.item})[0];
      s.generation++;
      s.item = s.key + "#" + s.generation;
      io.setAll(new int[] {s.node}, new String[] {s.item}, new byte[][] {value});
      queue(s, value);
    }
    List<Integer> nodes = new ArrayList<>();
    List<String> items = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      if (stripe.items[i] != null) {
        nodes.add(stripe.dataNodes[i]);
        items.add(stripe.items[i]);
      }
    }
    for (int j = 0; j < stripe.parityNodes.length; j++) {
      nodes.add(stripe.parityNodes[j]);
      items.add(stripe.parityItem(j));
    }
    io.deleteAll(nodes.stream().mapToInt(Integer::intValue).toArray(),
        items.toArray(new String[0]));
  }
}
