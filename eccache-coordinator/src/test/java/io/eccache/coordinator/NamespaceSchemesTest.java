package io.eccache.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NamespaceSchemesTest {
  @Test
  void mapsNamespacesAndDefaultsToEc() {
    NamespaceSchemes s = NamespaceSchemes.parse(" sr=replica, sp = partition ,");
    assertEquals("replica", s.schemeOf("sr/a/b"));
    assertEquals("partition", s.schemeOf("sp/x"));
    assertEquals("ec", s.schemeOf("other/x"));
    assertEquals("ec", s.schemeOf("sr"), "a key without '/' is in namespace \"\"");
  }

  @Test
  void rejectsBadSpecsSayingWhy() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> NamespaceSchemes.parse("a=raid5"));
    assertTrue(e.getMessage().contains("raid5"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> NamespaceSchemes.parse("novalue"));
  }
}
