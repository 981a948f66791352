package io.eccache.coordinator.form.regional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.common.RedundancyScheme;
import io.eccache.common.RegionMounts;
import io.eccache.policy.agar.AgarPolicy;
import io.eccache.policy.agar.LfuChunkPolicy;
import io.eccache.policy.agar.LruChunkPolicy;
import org.junit.jupiter.api.Test;

class RegionalNamespacesTest {
  private static final RegionMounts SIX = RegionMounts.parse("a=/r/a@80ms,b=/r/b@200ms,"
      + "c=/r/c@600ms,d=/r/d@1400ms,e=/r/e@3400ms,f=/r/f@4600ms");

  @Test
  void namespacesAreRegionalByTheirFirstComponent() {
    RegionalNamespaces r = new RegionalNamespaces(SIX, " agar, geo ", "rs-9-3");
    assertTrue(r.isRegional("agar/x"));
    assertTrue(r.isRegional("geo/a/b"));
    assertFalse(r.isRegional("agarx/y"));
    assertFalse(r.isRegional("agar"), "a key without a slash is in the namespace of no name");
    assertEquals(RedundancyScheme.erasureCoded(9, 3), r.scheme());
  }

  @Test
  void aBadConfigurationStopsTheCoordinatorSayingWhat() {
    IllegalArgumentException noRegions = assertThrows(IllegalArgumentException.class,
        () -> new RegionalNamespaces(RegionMounts.none(), "agar", "rs-9-3"));
    assertTrue(noRegions.getMessage().contains("alluxio.master.eccache.regions"));
    assertThrows(IllegalArgumentException.class,
        () -> new RegionalNamespaces(SIX, "agar", "replica-3"));
    RegionalNamespaces r = new RegionalNamespaces(SIX, "agar", "rs-9-3");
    assertThrows(IllegalArgumentException.class, () -> RegionalCache.policy("lfu-10", r, 90));
    assertThrows(IllegalArgumentException.class, () -> RegionalCache.policy("lfu-0", r, 90));
    assertThrows(IllegalArgumentException.class, () -> RegionalCache.policy("arc", r, 90));
    assertThrows(IllegalArgumentException.class, () -> RegionalCache.policy("arc", r, 0),
        "checked even when the cache holds nothing");
  }

  @Test
  void policiesByName() {
    RegionalNamespaces r = new RegionalNamespaces(SIX, "agar", "rs-9-3");
    assertInstanceOf(AgarPolicy.class, RegionalCache.policy("Agar", r, 90));
    assertInstanceOf(LfuChunkPolicy.class, RegionalCache.policy("lfu-7", r, 90));
    assertInstanceOf(LruChunkPolicy.class, RegionalCache.policy("lru-9", r, 90));
    assertNull(RegionalCache.policy("none", r, 90));
    assertNull(RegionalCache.policy("agar", r, 0), "no room: nothing to decide");
  }
}
