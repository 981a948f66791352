package io.eccache.benchmarks.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvWriterTest {

  @TempDir
  Path dir;

  @Test
  void quotesOnlyWhatNeedsIt() throws IOException {
    Path csv = dir.resolve("sub/raw.csv");
    try (CsvWriter w = new CsvWriter(csv, "scheme", "latency, ms", "note")) {
      w.row("plain", 1.5, "a,b")
          .row("say \"hi\"", 42L, "line1\nline2")
          .row(null, 0.1, "cr\rhere")
          .row(" spaced ", -3, "");
    }
    String expected = "scheme,\"latency, ms\",note\n"
        + "plain,1.5,\"a,b\"\n"
        + "\"say \"\"hi\"\"\",42,\"line1\nline2\"\n"
        + ",0.1,\"cr\rhere\"\n"
        + " spaced ,-3,\n";
    assertEquals(expected, Files.readString(csv, StandardCharsets.UTF_8));
  }

  @Test
  void numbersIgnoreTheDefaultLocale() throws IOException {
    Locale saved = Locale.getDefault();
    Locale.setDefault(Locale.GERMANY);
    try {
      Path csv = dir.resolve("de.csv");
      try (CsvWriter w = new CsvWriter(csv, "a", "b", "c")) {
        w.row(0.25, 1234567L, 1e-7).doubleFormat("%.3f").row(1234.5678, 2.5f, "x");
      }
      // Germany would write 0,25 and 1234,568, which would split the fields.
      assertEquals("a,b,c\n0.25,1234567,1.0E-7\n1234.568,2.500,x\n",
          Files.readString(csv, StandardCharsets.UTF_8));
    } finally {
      Locale.setDefault(saved);
    }
  }

  @Test
  void rejectsBadInput() throws IOException {
    assertThrows(IllegalArgumentException.class, () -> new CsvWriter(dir.resolve("none.csv")));
    try (CsvWriter w = new CsvWriter(dir.resolve("bad.csv"), "a", "b")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> w.row("only one"));
      assertTrue(e.getMessage().contains("[only one]"), e.getMessage());
      e = assertThrows(IllegalArgumentException.class, () -> w.doubleFormat("%d"));
      assertTrue(e.getMessage().contains("%d"), e.getMessage());
    }
  }
}
