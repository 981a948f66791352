package io.eccache.coordinator.form.packed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.common.RedundancyScheme;
import org.junit.jupiter.api.Test;

/** What a packed namespace's configuration says, and what it refuses. */
class PackedNamespaceTest {
  @Test
  void aCodeWithOptionalModeAndUnitSize() {
    PackedNamespace plain = PackedNamespace.parse("kv=packed-10-4");
    assertEquals("kv", plain.name());
    assertEquals(RedundancyScheme.erasureCoded(10, 4), plain.code());
    assertEquals(PackedNamespace.UpdateMode.HYBRID, plain.updateMode());
    assertEquals(4096, plain.unitSize());
    PackedNamespace both = PackedNamespace.parse(" ip=packed-6-3:inplace:16KB ");
    assertEquals(PackedNamespace.UpdateMode.INPLACE, both.updateMode());
    assertEquals(16 * 1024, both.unitSize());
    assertEquals("fs=packed-6-3:fullstripe:1024",
        PackedNamespace.parse("fs=packed-6-3:1KB:FullStripe").toString());
  }

  @Test
  void whatCannotBeStoredIsRefusedWithTheEntryQuoted() {
    for (String bad : new String[] {"kv=rs-10-4", "kv=packed-10", "=packed-6-3",
        "kv=packed-6-1", "kv=packed-0-3", "kv=packed-6-3:sideways", "kv=packed-6-3:32",
        "kv=packed-6-3:2MB", "kv=packed-6-3:hybrid:inplace", "kv=packed-6-3:4KB:8KB",
        "kv=packed-200-60"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> PackedNamespace.parse(bad), bad);
      assertTrue(e.getMessage().contains("'"), e.getMessage());
    }
  }
}
