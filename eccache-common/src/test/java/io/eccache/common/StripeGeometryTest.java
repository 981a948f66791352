package io.eccache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class StripeGeometryTest {
  @Test
  void smallObjectIsOneStripeOfPlainSplits() {
    long cell = StripeGeometry.cellSizeFor(1001, 10, 4 << 20);
    assertEquals(101, cell);
    StripeGeometry g = new StripeGeometry(1001, 10, cell);
    assertEquals(1, g.stripes());
    assertEquals(101, g.splitSize());
    assertEquals(101, g.cellLength(0));
    assertEquals(1001, g.dataBytes(0));
  }

  @Test
  void exactlyKCellsIsOneFullStripe() {
    StripeGeometry g = new StripeGeometry(40, 4, StripeGeometry.cellSizeFor(40, 4, 10));
    assertEquals(10, g.cellSize());
    assertEquals(1, g.stripes());
    assertEquals(10, g.splitSize());
  }

  @Test
  void largeObjectHasFullStripesAndAShortLastOne() {
    // 3 full stripes of 4 x 100 bytes, then 130 bytes: cells of ceil(130 / 4) = 33.
    StripeGeometry g = new StripeGeometry(1330, 4, StripeGeometry.cellSizeFor(1330, 4, 100));
    assertEquals(100, g.cellSize());
    assertEquals(4, g.stripes());
    assertEquals(100, g.cellLength(2));
    assertEquals(33, g.cellLength(3));
    assertEquals(333, g.splitSize());
    assertEquals(1200, g.objectOffset(3));
    assertEquals(300, g.splitOffset(3));
    assertEquals(130, g.dataBytes(3));
    assertEquals(400, g.dataBytes(0));
    assertEquals(3, g.stripeOf(1329));
    assertEquals(2, g.stripeOf(1199));
    // split-major checksums: split 1 stripe 2
    assertEquals(6, g.checksumIndex(1, 2));
    assertEquals(6 * 4, g.checksums(6));
  }

  @Test
  void unknownSizeUsesTheMaximumCell() {
    assertEquals(100, StripeGeometry.cellSizeFor(-1, 4, 100));
    assertEquals(100, StripeGeometry.cellSizeFor(401, 4, 100));
  }

  @Test
  void emptyObjectHasNoStripes() {
    StripeGeometry g = new StripeGeometry(0, 10, StripeGeometry.cellSizeFor(0, 10, 100));
    assertEquals(0, g.stripes());
    assertEquals(0, g.splitSize());
    assertEquals(0, g.checksums(11));
  }

  @Test
  void invalidGeometryIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new StripeGeometry(10, 0, 5));
    assertThrows(IllegalArgumentException.class, () -> new StripeGeometry(10, 2, 0));
    assertThrows(IndexOutOfBoundsException.class,
        () -> new StripeGeometry(10, 2, 5).cellLength(1));
  }
}
