package io.eccache.benchmarks.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SpreadTest {
  @Test
  void medianOfAnOddCountIsTheMiddleValueWithTheExtremes() {
    Spread s = Spread.of(3.5, 1.0, 9.0, 2.0, 4.0);
    assertEquals(3.5, s.median());
    assertEquals(1.0, s.min());
    assertEquals(9.0, s.max());
    assertEquals(5, s.count());
    assertEquals("3.50 (1.00–9.00)", s.format(2));
  }

  @Test
  void medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
    Spread s = Spread.of(10, 2, 4, 8);
    assertEquals(6.0, s.median());
    assertEquals(2.0, s.min());
    assertEquals(10.0, s.max());
  }

  @Test
  void oneRepeatShowsNoRangeAndMissingValuesAreLeftOut() {
    assertEquals("2.5", Spread.of(2.46).format(1));
    Spread s = Spread.of(Double.NaN, 5, 1);
    assertEquals(3.0, s.median());
    assertEquals(2, s.count());
    assertEquals("", Spread.of(Double.NaN).format(2));
    assertTrue(Double.isNaN(Spread.of(Double.NaN).median()));
    assertThrows(IllegalArgumentException.class, Spread::of);
  }
}
