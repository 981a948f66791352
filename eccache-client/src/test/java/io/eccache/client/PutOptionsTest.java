package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.common.RedundancyScheme;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The text form of PutOptions used by the command lines. */
class PutOptionsTest {
  @Test
  void parsesEveryFormAndRoundTrips() {
    assertEquals(Optional.of(RedundancyScheme.erasureCoded(10, 2)),
        PutOptions.parse("rs-10-2").scheme());
    assertEquals("rs-6-3", PutOptions.parse(" 6+3 ").toString());
    assertEquals(Optional.of(RedundancyScheme.replicated(3)), PutOptions.parse("REPLICA-3").scheme());
    assertEquals(Optional.empty(), PutOptions.parse("default").scheme());
    for (String text : new String[] {"default", "rs-4-1", "replica-2", "partition-7"}) {
      assertEquals(text, PutOptions.parse(text).toString());
    }
    assertEquals(WriteMode.THROUGH,
        PutOptions.code(2, 1).writeMode(WriteMode.THROUGH).writeMode());
  }

  @Test
  void rejectsWhatItCannotStoreSayingWhatItAccepts() {
    for (String bad : new String[] {"", "rs-10", "raid5", "rs-0-1", "rs-200-100", "replica-0",
        "rs-99999999999-1", null}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> PutOptions.parse(bad), String.valueOf(bad));
      assertTrue(e.getMessage().contains("'" + bad + "'") && e.getMessage().contains("default"),
          e.getMessage());
    }
  }
}
