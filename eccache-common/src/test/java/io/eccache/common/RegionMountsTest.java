package io.eccache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RegionMountsTest {
  @Test
  void parsesRegionsInOrderAndDealsSplitsRoundRobin() {
    RegionMounts r = RegionMounts.parse(" Frankfurt=/eccache-regions/frankfurt/@80ms,"
        + "dublin=/eccache-regions/dublin@1400ms ,");
    assertEquals(2, r.regions().size());
    assertEquals("frankfurt", r.regions().get(0).name());
    assertEquals("/eccache-regions/frankfurt", r.regions().get(0).path());
    assertEquals(Duration.ofMillis(1400), r.regions().get(1).latency());
    assertEquals("dublin", r.forSplit(3).name());
    assertEquals("frankfurt", r.forSplit(4).name());
    assertEquals("/eccache-regions/dublin", r.byName("dublin").path());
    assertNull(r.byName("tokyo"));
    assertTrue(RegionMounts.parse("").isEmpty());
    assertThrows(IllegalStateException.class, () -> RegionMounts.none().forSplit(0));
  }

  @Test
  void refusesMalformedRegionsSayingWhich() {
    for (String bad : new String[] {"frankfurt", "frankfurt=/a", "=/a@1ms", "f=a@1ms", "f=/@1ms",
        "f=/a@soon", "f=/a@1ms,f=/b@2ms", "f=/a@1ms,g=/a@2ms"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> RegionMounts.parse(bad), bad);
      assertTrue(e.getMessage().contains("region"), e.getMessage());
    }
  }

  @Test
  void aSplitPathIsTakenApartAgainEvenWhenTheKeyHasDots() {
    RegionMounts r = RegionMounts.parse("a=/r/a@1ms,b=/r/b@2ms");
    for (String key : new String[] {"agar/x.y", "agar/..", ".hidden", "agar/ü b"}) {
      String path = r.splitPath(1, key, "w-1", "p00");
      assertTrue(path.startsWith("/r/b/"), path);
      RegionMounts.ChunkName c = RegionMounts.parseChunkName(path.substring("/r/b/".length()));
      assertEquals(key, c.key);
      assertEquals("w-1", c.writeId);
      assertEquals("p00", c.splitName);
    }
    assertNull(RegionMounts.parseChunkName("readme"));
    assertNull(RegionMounts.parseChunkName("notes.txt"));
  }

  @Test
  void aLongKeysSplitFileNameFitsAFileNameAndNamesItsWrite() {
    RegionMounts r = RegionMounts.parse("a=/r/a@1ms");
    String writeId = java.util.UUID.randomUUID().toString();
    String fits = "agar/" + "k".repeat(RegionMounts.MAX_KEY_NAME_BYTES - 7);
    String name = r.splitPath(0, fits, writeId, "d254").substring("/r/a/".length());
    assertEquals(UnderStorePaths.MAX_OBJECT_NAME_BYTES, name.length());
    assertEquals(fits, RegionMounts.parseChunkName(name).key, "its encoding, as before");
    String key = "agar/" + "\u20ac".repeat(300);
    String hashed = r.splitPath(0, key, writeId, "d254").substring("/r/a/".length());
    assertTrue(hashed.length() <= UnderStorePaths.MAX_OBJECT_NAME_BYTES, hashed);
    RegionMounts.ChunkName c = RegionMounts.parseChunkName(hashed);
    assertNull(c.key, "a hash names no key");
    assertEquals(writeId, c.writeId);
    assertEquals("d254", c.splitName);
    assertFalse(hashed.equals(r.splitPath(0, key + "x", writeId, "d254")
        .substring("/r/a/".length())));
    // Another tool's file that only looks like one is still left alone.
    assertNull(RegionMounts.parseChunkName("notes~~1234.w.d00"));
  }
}
