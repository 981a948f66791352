package io.eccache.benchmarks.logecmem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Table 3's words, ours from numbers and the paper's as printed. */
class Table3RanksTest {
  private static String row(Map<KvScheme, Table3Ranks.Rank> latency,
      Map<KvScheme, Table3Ranks.Rank> memory) {
    StringBuilder out = new StringBuilder();
    for (KvScheme scheme : Table3Ranks.SCHEMES) {
      out.append(out.length() == 0 ? "" : " | ")
          .append(Table3Ranks.cell(latency.get(scheme), memory.get(scheme)));
    }
    return out.toString();
  }

  @Test
  void lowestIsBestThenLowThenHigh() {
    Map<KvScheme, Table3Ranks.Rank> ranks = Table3Ranks.rank(Map.of(KvScheme.INPLACE, 300.0,
        KvScheme.FULLSTRIPE, 120.0, KvScheme.HYBRID, 200.0));
    assertEquals(Table3Ranks.Rank.BEST, ranks.get(KvScheme.FULLSTRIPE));
    assertEquals(Table3Ranks.Rank.LOW, ranks.get(KvScheme.HYBRID));
    assertEquals(Table3Ranks.Rank.HIGH, ranks.get(KvScheme.INPLACE));
    assertThrows(IllegalArgumentException.class,
        () -> Table3Ranks.rank(Map.of(KvScheme.INPLACE, 1.0, KvScheme.HYBRID, 2.0)));
  }

  @Test
  void thePapersRowsAsItsTablePrintsThem() {
    Map<KvScheme, Table3Ranks.Rank> memory = Table3Ranks.paperMemory();
    // k = 6 and 10
    assertEquals("low (low) | high (high) | best (best)",
        row(Table3Ranks.paperLatency(6, 5), memory));
    for (int update : new int[] {20, 30, 50}) {
      assertEquals("high (low) | best (high) | low (best)",
          row(Table3Ranks.paperLatency(10, update), memory));
    }
    // k = 12 and 15
    assertEquals("high (low) | low (high) | best (best)",
        row(Table3Ranks.paperLatency(12, 20), memory));
    assertEquals("high (low) | best (high) | low (best)",
        row(Table3Ranks.paperLatency(15, 30), memory));
    // k = 16 to 128
    assertEquals("high (low) | low (high) | best (best)",
        row(Table3Ranks.paperLatency(128, 30), memory));
    assertEquals("high (low) | best (high) | low (best)",
        row(Table3Ranks.paperLatency(16, 50), memory));
    assertEquals(KvScheme.HYBRID, Table3Ranks.paperBestLatency(32, 5));
    assertEquals(KvScheme.FULLSTRIPE, Table3Ranks.paperBestLatency(15, 30));
    assertEquals("LogECMem", Table3Ranks.name(KvScheme.HYBRID));
    assertEquals("IPMem", Table3Ranks.name(KvScheme.INPLACE));
  }
}
