package io.eccache.benchmarks.logecmem;

/**
 * How much of a DRAM node's repair LogECMem's log assist hands to the log nodes. Every stripe of a
 * hybrid store spans all k + 1 DRAM nodes, so repairing one node reads one unit from each of the k
 * survivors per stripe. A log-assisted stripe reads a log node's parity P_j instead of one of those
 * units: at a share f of stripes, each survivor serves 1 − f/k units per stripe and each of the
 * r − 1 log nodes f/(r − 1). When per-node bandwidth bounds the repair, the share that makes both
 * finish together is the best one, and the gain over plain repair is what the survivors are spared.
 */
final class RepairShare {
  private RepairShare() {}

  /**
   * The share of stripes to assist so that DRAM and log nodes finish together, at most 1.
   *
   * @param logOverDram a log node's read bandwidth over a DRAM node's (1: alike, as the paper's
   *     EC2 instances are)
   */
  static double balanced(int k, int r, double logOverDram) {
    if (k < 2 || r < 2 || !(logOverDram > 0)) {
      throw new IllegalArgumentException("log assist needs k >= 2, r >= 2 (a parity on a log"
          + " node) and a positive bandwidth ratio, got k=" + k + " r=" + r + " ratio="
          + logOverDram);
    }
    return Math.min(1, 1 / (1.0 / k + 1 / ((r - 1) * logOverDram)));
  }

  /**
   * The repair's speed-up over plain repair at {@code share}, when the busiest node's reads set
   * its time: plain 1 unit per stripe per survivor, assisted the larger of 1 − f/k and
   * f/((r − 1)·ratio). E.g. (6,3) at share 1 and equal bandwidth: 1/(5/6) − 1 = +20%.
   */
  static double modelledGain(int k, int r, double share, double logOverDram) {
    double assisted = Math.max(1 - share / k, share / ((r - 1) * logOverDram));
    return 1 / assisted - 1;
  }

  /**
   * Whether stripe number {@code n} (0, 1, ...) of a repair takes a log node's parity at {@code
   * share}: spread evenly, so the first m stripes hold floor(m·share) assisted ones.
   */
  static boolean assisted(long n, double share) {
    if (n < 0 || share < 0 || share > 1) {
      throw new IllegalArgumentException("stripe " + n + " at share " + share);
    }
    return Math.floor((n + 1) * share) > Math.floor(n * share);
  }
}
