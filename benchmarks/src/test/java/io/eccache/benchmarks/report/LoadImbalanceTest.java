package io.eccache.benchmarks.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LoadImbalanceTest {

  private static final double EPS = 1e-9;

  @Test
  void lambdaCountsIdleWorkers() {
    // d served nothing. L_avg* = 80 / 4 = 20, L_max = 40 -> (40 - 20) / 20 = 100%.
    assertEquals(100.0,
        LoadImbalance.lambdaPercent(Map.of("a", 40L, "b", 20L, "c", 20L), 4, 80), EPS);
  }

  @Test
  void lambdaIsZeroForAnEvenSpreadWithoutOverhead() {
    // L_avg* = 100 / 4 = 25 = L_max.
    assertEquals(0.0, LoadImbalance.lambdaPercent(
        Map.of("a", 25L, "b", 25L, "c", 25L, "d", 25L), 4, 100), EPS);
  }

  @Test
  void lambdaMeasuresOverheadAgainstUsefulBytes() {
    // 160 bytes served for 100 useful (extra reads). L_avg* = 100 / 4 = 25, L_max = 60
    // -> (60 - 25) / 25 = 140%. Over served bytes (eta) the same loads are only 50% off:
    // L_avg = 160 / 4 = 40 -> (60 - 40) / 40 = 50%.
    Map<String, Long> load = Map.of("a", 60L, "b", 30L, "c", 30L, "d", 40L);
    assertEquals(140.0, LoadImbalance.lambdaPercent(load, 4, 100), EPS);
    assertEquals(50.0, LoadImbalance.etaPercent(load, 4), EPS);
  }

  @Test
  void lambdaRejectsBadInput() {
    Map<String, Long> three = Map.of("a", 1L, "b", 1L, "c", 1L);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LoadImbalance.lambdaPercent(three, 2, 3));
    assertTrue(e.getMessage().contains("got 2"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> LoadImbalance.lambdaPercent(three, 3, 0));
    assertTrue(e.getMessage().contains("got 0"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> LoadImbalance.lambdaPercent(Map.of("a", -5L), 1, 10));
    assertTrue(e.getMessage().contains("-5"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> LoadImbalance.lambdaPercent(Map.of(), 0, 10));
    assertTrue(e.getMessage().contains("got 0"), e.getMessage());
  }

  @Test
  void eta() {
    // 5 workers, d and e idle: total 100, L_avg = 20, L_max = 50 -> (50 - 20) / 20 = 150%.
    assertEquals(150.0,
        LoadImbalance.etaPercent(Map.of("a", 50L, "b", 30L, "c", 20L), 5), EPS);
    // Nothing served: no imbalance.
    assertEquals(0.0, LoadImbalance.etaPercent(Map.of(), 3), EPS);
    assertEquals(0.0, LoadImbalance.etaPercent(Map.of("a", 0L), 3), EPS);
    assertThrows(IllegalArgumentException.class,
        () -> LoadImbalance.etaPercent(Map.of("a", 1L, "b", 1L), 1));
  }

  @Test
  void bandwidthOverhead() {
    // (115 - 100) / 100 = 15%, the paper's memory-overhead-sized example.
    assertEquals(15.0, LoadImbalance.bandwidthOverheadPercent(115, 100), EPS);
    // One extra split per 10-split read: (11 - 10) / 10 = 10%.
    assertEquals(10.0, LoadImbalance.bandwidthOverheadPercent(11, 10), EPS);
    assertEquals(0.0, LoadImbalance.bandwidthOverheadPercent(100, 100), EPS);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LoadImbalance.bandwidthOverheadPercent(100, -1));
    assertTrue(e.getMessage().contains("-1"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> LoadImbalance.bandwidthOverheadPercent(-7, 100));
    assertTrue(e.getMessage().contains("-7"), e.getMessage());
  }
}
