package io.eccache.coordinator.form.striped;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.common.RedundancyScheme.Kind;
import org.junit.jupiter.api.Test;

class NamespaceSchemesTest {
  @Test
  void mapsNamespacesToKinds() {
    NamespaceSchemes s = NamespaceSchemes.parse(" sr=replica, sp = partition ,");
    assertEquals(Kind.REPLICATED, s.kindOf("sr/a/b"));
    assertEquals(Kind.PARTITIONED, s.kindOf("sp/x"));
    assertEquals(Kind.ERASURE_CODED, s.kindOf("other/x"));
    assertEquals(Kind.ERASURE_CODED, s.kindOf("sr"), "a key without '/' is in namespace \"\"");
  }

  @Test
  void refusesUnknownKindsQuotingThem() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> NamespaceSchemes.parse("sr=raid"));
    assertTrue(e.getMessage().contains("'raid'") && e.getMessage().contains("'sr'"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> NamespaceSchemes.parse("sr"));
  }
}
