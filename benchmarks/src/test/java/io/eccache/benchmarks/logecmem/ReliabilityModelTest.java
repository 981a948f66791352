package io.eccache.benchmarks.logecmem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReliabilityModelTest {
  /** Table 2 of the paper, years: codes (6,3) (10,4) (12,4) (15,3) at 1, 10, 40, 100 Gb/s. */
  private static final double[][] TABLE_2 = {
      {1.03e9, 9.76e9, 3.89e10, 9.71e10},
      {6.41e8, 5.88e9, 2.34e10, 5.83e10},
      {5.44e8, 4.91e9, 1.95e10, 4.86e10},
      {4.47e8, 3.94e9, 1.56e10, 3.89e10}};
  private static final int[][] CODES = {{6, 3}, {10, 4}, {12, 4}, {15, 3}};
  private static final double[] GBPS = {1, 10, 40, 100};

  @Test
  void thePapersChainGivesEveryCellOfTable2ToItsThreeDigits() {
    ReliabilityModel model = ReliabilityModel.paper();
    for (int c = 0; c < CODES.length; c++) {
      for (int b = 0; b < GBPS.length; b++) {
        double years = model.paperChain(CODES[c][0], GBPS[b]);
        assertEquals(TABLE_2[c][b], years, TABLE_2[c][b] * 0.005,
            "RS" + CODES[c][0] + "," + CODES[c][1] + " at " + GBPS[b] + " Gb/s");
      }
    }
    // "the MTTDL increases by 94.27x under (6,3) code" from 1 to 100 Gb/s
    assertEquals(94.27, model.paperChain(6, 100) / model.paperChain(6, 1), 0.5);
  }

  @Test
  void eachCodesOwnChainDiffersWhereItsFailureCountDoes() {
    ReliabilityModel model = ReliabilityModel.paper();
    assertEquals(model.paperChain(6, 1), model.ownChain(6, 3, 1), 1e-6 * model.paperChain(6, 1));
    // Four parities tolerate one more failure: orders of magnitude more; three over 18 nodes, less.
    assertTrue(model.ownChain(10, 4, 1) > 100 * model.paperChain(10, 1));
    assertTrue(model.ownChain(15, 3, 1) < model.paperChain(15, 1));
    assertThrows(IllegalArgumentException.class, () -> model.mttdlYears(3, 4, 1, 1));
  }
}
