package io.eccache.benchmarks.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import org.junit.jupiter.api.Test;

class MarkdownTableTest {

  @Test
  void exactOutput() {
    String md = new MarkdownTable("scheme", "mean ms", "reads")
        .row("SR", 12.3456, 1000)
        .row("a|b", 0.5f, null)
        .doubleFormat("%.1f")
        .row("two\nlines", 2.04, 7L)
        .toString();
    assertEquals("| scheme | mean ms | reads |\n"
        + "| --- | --- | --- |\n"
        + "| SR | 12.35 | 1000 |\n"
        + "| a\\|b | 0.50 |  |\n"
        + "| two lines | 2.0 | 7 |\n", md);
  }

  @Test
  void headerOnlyAndEscapedHeader() {
    assertEquals("| p \\| q |\n| --- |\n", new MarkdownTable("p | q").toString());
  }

  @Test
  void doublesIgnoreTheDefaultLocale() {
    Locale saved = Locale.getDefault();
    Locale.setDefault(Locale.GERMANY);
    try {
      assertEquals("| x |\n| --- |\n| 1.50 |\n", new MarkdownTable("x").row(1.5).toString());
    } finally {
      Locale.setDefault(saved);
    }
  }

  @Test
  void rejectsBadInput() {
    assertThrows(IllegalArgumentException.class, MarkdownTable::new);
    MarkdownTable t = new MarkdownTable("a", "b");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> t.row("x", 1, 2));
    assertTrue(e.getMessage().contains("[x, 1, 2]"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> t.doubleFormat("%.2f %s"));
    assertTrue(e.getMessage().contains("%.2f %s"), e.getMessage());
  }
}
