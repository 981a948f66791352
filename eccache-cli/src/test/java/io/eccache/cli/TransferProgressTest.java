package io.eccache.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The progress line's arithmetic, byte units, and that a disabled bar prints nothing. */
class TransferProgressTest {
  @Test
  void showsShareOfTotalAndFinalLine() {
    AtomicLong moved = new AtomicLong(25L << 20);
    StringWriter err = new StringWriter();
    TransferProgress p = new TransferProgress("put k", 100L << 20, moved::get,
        new PrintWriter(err), true);
    String line = p.line(false);
    assertTrue(line.startsWith("put k [=======                       ]  25% 25.0 MiB / 100.0 MiB"),
        line);
    assertTrue(line.endsWith("s left"), line);
    moved.set(100L << 20);
    p.close();
    assertTrue(err.toString().contains("100% 100.0 MiB / 100.0 MiB") && err.toString().contains(" in "),
        err.toString());
  }

  @Test
  void sizesUseBinaryUnits() {
    assertEquals("0 B", ByteSizes.format(0));
    assertEquals("1023 B", ByteSizes.format(1023));
    assertEquals("1.0 KiB", ByteSizes.format(1024));
    assertEquals("2.4 MiB", ByteSizes.format(2_500_001));
    assertEquals("10.0 GiB", ByteSizes.format(10L << 30));
  }

  @Test
  void unknownTotalHasNoBarAndDisabledIsSilent() {
    StringWriter err = new StringWriter();
    TransferProgress p = new TransferProgress("put k", -1, () -> 3L << 20, new PrintWriter(err),
        false);
    assertTrue(p.line(false).startsWith("put k 3.0 MiB  "), p.line(false));
    p.close();
    assertEquals("", err.toString());
  }
}
