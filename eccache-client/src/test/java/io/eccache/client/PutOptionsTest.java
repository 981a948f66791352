package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The text form of PutOptions used by the command lines. */
class PutOptionsTest {
  @Test
  void parsesEveryFormAndRoundTrips() {
    PutOptions rs = PutOptions.parse("rs-10-2");
    assertEquals("ec", rs.scheme());
    assertEquals(10, rs.k());
    assertEquals(2, rs.r());
    assertEquals("rs-6-3", PutOptions.parse(" 6+3 ").toString());
    PutOptions copies = PutOptions.parse("REPLICA-3");
    assertTrue(copies.isReplicas());
    assertEquals(2, copies.r(), "3 copies are the data and 2 more");
    assertEquals(4, PutOptions.parse("partition-4").k());
    assertEquals("", PutOptions.parse("default").scheme());
    for (String text : new String[] {"default", "rs-4-1", "replica-2", "partition-7"}) {
      assertEquals(text, PutOptions.parse(text).toString());
    }
  }

  @Test
  void rejectsWhatItCannotStoreSayingWhatItAccepts() {
    for (String bad : new String[] {"", "rs-10", "raid5", "rs-0-1", "rs-200-100", "replica-0",
        "rs-99999999999-1", null}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> PutOptions.parse(bad), String.valueOf(bad));
      assertTrue(e.getMessage().contains("rs-") || e.getMessage().contains("k + r <= 255")
          || e.getMessage().contains("1..255"), e.getMessage());
    }
  }
}
