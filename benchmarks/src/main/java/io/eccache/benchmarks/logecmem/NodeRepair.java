package io.eccache.benchmarks.logecmem;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Future;

/**
 * LogECMem's repair of a lost DRAM node (§4's node repair, the paper's Exp. 7): every unit the
 * node held (data units and XOR parities P1) rebuilt stripe by stripe into a fresh memcached
 * server. Plain repair reads the stripe's k surviving DRAM units (k − 1 data and P1, or the k data
 * for a lost P1); log assist, for a share of stripes, leaves one surviving data unit out and reads
 * a log node's parity P_j at the stripe's version instead, so the idle log nodes carry part of the
 * reads. Every rebuilt unit is compared with the bytes the node held, before and after it is
 * written.
 */
final class NodeRepair {
  /** One unit the failed node held, with its bytes read before the kill. */
  static final class Lost {
    final StripedKv.Stripe stripe;
    /** 0..k-1 a data unit, k the stripe's P1. */
    final int unit;
    final String item;
    final byte[] bytes;

    Lost(StripedKv.Stripe stripe, int unit, String item, byte[] bytes) {
      this.stripe = stripe;
      this.unit = unit;
      this.item = item;
      this.bytes = bytes;
    }
  }

  /** What one repair did and took. */
  static final class Result {
    int units;
    long bytes;
    long nanos;
    /** Units rebuilt with a log node's parity. */
    int assisted;
    long dramGets;
    long logReads;
    /** Units read back from the new server equal to what the failed node held. */
    int verified;

    /** Repaired megabytes (10^6 bytes) per second. */
    double megabytesPerSecond() {
      return nanos == 0 ? 0 : bytes / 1e6 / (nanos / 1e9);
    }
  }

  private NodeRepair() {}

  /** Every unit DRAM node {@code node} holds for {@code store}, read now (before it fails). */
  static List<Lost> snapshot(HybridKv store, int node) throws IOException {
    DramNode dram = store.bed.dram.get(node);
    List<Lost> lost = new ArrayList<>();
    for (StripedKv.Stripe stripe : store.sealed) {
      for (int i = 0; i < store.k; i++) {
        if (stripe.dataNodes[i] == node && stripe.items[i] != null) {
          lost.add(new Lost(stripe, i, stripe.items[i], dram.get(stripe.items[i])));
        }
      }
      if (stripe.parityNodes[0] == node) {
        lost.add(new Lost(stripe, store.k, stripe.parityItem(0), dram.get(stripe.parityItem(0))));
      }
    }
    return lost;
  }

  /**
   * Rebuilds {@code lost} into {@code target}, the stripes {@link RepairShare#assisted} at {@code
   * share} with a log node's parity, the left-out data unit rotating over the survivors; then
   * reads every unit back.
   *
   * @throws IOException if a rebuilt unit differs from what the node held, or a call fails
   */
  static Result repair(HybridKv store, List<Lost> lost, DramNode target, double share)
      throws IOException {
    Result result = new Result();
    long gets = store.counts().get(OpCounts.Kind.GET);
    long logReads = store.counts().get(OpCounts.Kind.LOG_READ);
    List<Future<Boolean>> writes = new ArrayList<>();
    long start = System.nanoTime();
    for (int n = 0; n < lost.size(); n++) {
      Lost unit = lost.get(n);
      int avoid = RepairShare.assisted(n, share) ? leaveOut(store, unit, result.assisted) : -1;
      byte[] rebuilt = store.rebuild(unit.stripe, unit.unit, avoid);
      if (!Arrays.equals(rebuilt, unit.bytes)) {
        throw new IOException("unit " + unit.unit + " of stripe " + unit.stripe.id + " rebuilt"
            + (avoid < 0 ? "" : " with a log node's parity") + " differs from what the node held");
      }
      result.assisted += avoid < 0 ? 0 : 1;
      writes.add(target.setAsync(unit.item, rebuilt));
    }
    for (int n = 0; n < writes.size(); n++) {
      if (!Boolean.TRUE.equals(target.await(writes.get(n), "set " + lost.get(n).item))) {
        throw new IOException(target + " refused the rebuilt " + lost.get(n).item);
      }
    }
    result.nanos = System.nanoTime() - start;
    result.dramGets = store.counts().get(OpCounts.Kind.GET) - gets;
    result.logReads = store.counts().get(OpCounts.Kind.LOG_READ) - logReads;
    for (Lost unit : lost) {
      result.units++;
      result.bytes += unit.bytes.length;
      if (Arrays.equals(target.get(unit.item), unit.bytes)) {
        result.verified++;
      }
    }
    return result;
  }

  /**
   * The surviving data unit an assisted stripe leaves out: the {@code turn}-th (mod their count)
   * of those a read would fetch, so the reads spared are spread over the survivors; -1 if there
   * is none (a partial stripe's units are empty, read as zeros).
   */
  private static int leaveOut(HybridKv store, Lost unit, int turn) {
    List<Integer> candidates = new ArrayList<>();
    for (int i = 0; i < store.k; i++) {
      if (i != unit.unit && unit.stripe.items[i] != null
          && !store.bed.dram.get(unit.stripe.dataNodes[i]).isDown()) {
        candidates.add(i);
      }
    }
    return candidates.isEmpty() ? -1 : candidates.get(turn % candidates.size());
  }
}
