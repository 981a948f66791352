package io.eccache.benchmarks.logecmem;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * FSMem: an update appends the new value as a new unit, packed into a new stripe with other new
 * units, and marks the old unit dead; it stays in memory (its stripe's parities still cover it)
 * until garbage collection. The collection is the paper's artifact's: at the end of the run, each
 * dead unit of the newest stripes, newest first, is filled with a live value moved from the
 * oldest stripe, and each filled stripe's parities are updated by the deltas (r reads, r writes per
 * stripe); an emptied oldest stripe is deleted. Its time is what FSMem's updates cost besides
 * their own path: the paper's per-update latency includes it, amortized.
 */
final class FullStripeKv extends StripedKv {
  private int oldest;

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
  void updateSealed(Slot slot, byte[] value) throws IOException {
    Stripe old = slot.stripe;
    old.slots[slot.index] = null;
    old.live--;
    slot.generation++;
    slot.item = slot.key + "#" + slot.generation;
    io.setAll(new int[] {slot.node}, new String[] {slot.item}, new byte[][] {value});
    long sealStart = System.nanoTime();
    queue(slot, value);
    lastParityNanos = System.nanoTime() - sealStart; // encoding and parity writes, if it sealed
  }

  @Override
  public long finishRun() throws IOException {
    long start = System.nanoTime();
    for (int back = sealed.size() - 1; back > oldest; back--) {
      Stripe stripe = sealed.get(back);
      List<Integer> filled = new ArrayList<>();
      List<byte[]> deltas = new ArrayList<>();
      for (int i = 0; i < k && back > oldest; i++) {
        if (stripe.slots[i] != null || stripe.items[i] == null) {
          continue; // live, or an empty unit of a partial stripe
        }
        Slot moving = takeOldestLive(back);
        if (moving == null) {
          break;
        }
        int node = stripe.dataNodes[i];
        byte[] dead = io.getAll(new int[] {node}, new String[] {stripe.items[i]})[0];
        io.deleteAll(new int[] {node}, new String[] {stripe.items[i]});
        byte[] value = io.getAll(new int[] {moving.node}, new String[] {moving.item})[0];
        moving.generation++;
        moving.item = moving.key + "#" + moving.generation;
        moving.node = node;
        io.setAll(new int[] {node}, new String[] {moving.item}, new byte[][] {value});
        moving.stripe = stripe;
        moving.index = i;
        stripe.slots[i] = moving;
        stripe.items[i] = moving.item;
        stripe.live++;
        filled.add(i);
        deltas.add(xor(dead, value));
      }
      if (!filled.isEmpty()) {
        applyDeltas(stripe, filled, deltas);
      }
    }
    return System.nanoTime() - start;
  }

  /**
   * A live value of the oldest stripe that still has one, taken out of it (its unit now dead);
   * an oldest stripe left with no live value is deleted whole. Null once the oldest reached
   * {@code limit}.
   */
  private Slot takeOldestLive(int limit) throws IOException {
    while (oldest < limit) {
      Stripe head = sealed.get(oldest);
      for (int i = 0; i < k; i++) {
        Slot s = head.slots[i];
        if (s != null) {
          head.slots[i] = null;
          head.live--;
          return s; // its unit's item is deleted with the stripe
        }
      }
      deleteStripe(head);
      oldest++;
    }
    return null;
  }

  private void deleteStripe(Stripe stripe) throws IOException {
    List<Integer> nodes = new ArrayList<>();
    List<String> items = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      if (stripe.items[i] != null) {
        nodes.add(stripe.dataNodes[i]);
        items.add(stripe.items[i]);
      }
    }
    for (int j = 0; j < r; j++) {
      nodes.add(stripe.parityNodes[j]);
      items.add(stripe.parityItem(j));
    }
    io.deleteAll(nodes.stream().mapToInt(Integer::intValue).toArray(),
        items.toArray(new String[0]));
  }

  /** Reads the stripe's r parities, adds every filled unit's parity delta, writes them back. */
  private void applyDeltas(Stripe stripe, List<Integer> units, List<byte[]> deltas)
      throws IOException {
    String[] items = new String[r];
    int[] rows = new int[r];
    for (int j = 0; j < r; j++) {
      items[j] = stripe.parityItem(j);
      rows[j] = j;
    }
    byte[][] parity = io.getAll(stripe.parityNodes, items);
    for (int u = 0; u < units.size(); u++) {
      ByteBuffer[] change = new ByteBuffer[r];
      for (int j = 0; j < r; j++) {
        change[j] = ByteBuffer.allocate(bed.unitBytes);
      }
      bed.coder.parityDelta(units.get(u), ByteBuffer.wrap(deltas.get(u)), rows, change);
      for (int j = 0; j < r; j++) {
        parity[j] = xor(parity[j], change[j].array());
      }
    }
    io.setAll(stripe.parityNodes, items, parity);
    stripe.version++;
  }
}
