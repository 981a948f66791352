package io.eccache.benchmarks.logecmem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Log assist's share of a repair and the gain a bandwidth-bound repair would see. */
class RepairShareTest {
  @Test
  void equalBandwidthAssistsEveryStripeOfThePapersCodesAndTheGainFallsWithK() {
    int[][] codes = {{6, 3}, {10, 4}, {12, 4}, {15, 3}};
    double[] gains = {0.2, 1 / 9.0, 1 / 11.0, 1 / 14.0}; // 1/(1 - 1/k) - 1
    for (int c = 0; c < codes.length; c++) {
      int k = codes[c][0];
      int r = codes[c][1];
      assertEquals(1.0, RepairShare.balanced(k, r, 1), 1e-12);
      assertEquals(gains[c], RepairShare.modelledGain(k, r, 1, 1), 1e-12);
    }
    // (3,2): one log node, the survivors' 1 - f/3 equals its f at f = 3/4.
    assertEquals(0.75, RepairShare.balanced(3, 2, 1), 1e-12);
    assertEquals(1 / 0.75 - 1, RepairShare.modelledGain(3, 2, 0.75, 1), 1e-12);
    // A log node at a tenth of a DRAM node's bandwidth takes a fifth of (6,3)'s stripes.
    assertEquals(1 / (1 / 6.0 + 5), RepairShare.balanced(6, 3, 0.1), 1e-12);
    assertEquals(0.0, RepairShare.modelledGain(6, 3, 0, 1), 1e-12);
    assertThrows(IllegalArgumentException.class, () -> RepairShare.balanced(6, 1, 1));
  }

  @Test
  void assistedStripesAreSpreadEvenly() {
    int assisted = 0;
    for (int n = 0; n < 400; n++) {
      if (RepairShare.assisted(n, 0.75)) {
        assisted++;
      }
      assertEquals(Math.floor((n + 1) * 0.75), assisted, 1e-9, "after stripe " + n);
    }
    assertEquals(300, assisted);
    assertTrue(RepairShare.assisted(0, 1) && RepairShare.assisted(99, 1));
    assertFalse(RepairShare.assisted(5, 0));
    assertThrows(IllegalArgumentException.class, () -> RepairShare.assisted(1, 1.5));
  }
}
