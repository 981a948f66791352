package io.eccache.benchmarks.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SpreadTest {
  @Test
  void medianWithRange() {
    Spread odd = Spread.of(3, 1, 2);
    assertEquals(2, odd.median());
    assertEquals("2.00 [1.00–3.00]", odd.format("%.2f"));
    assertEquals(2.5, Spread.of(4, 1, 2, 3).median());
    assertEquals("7.0", Spread.of(7).format("%.1f"));
    assertThrows(IllegalArgumentException.class, Spread::of);
    assertThrows(IllegalArgumentException.class, () -> Spread.of(1, Double.NaN));
  }
}
