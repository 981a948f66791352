package io.eccache.coordinator.form.striped;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.common.RedundancyScheme;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The coordinator alone decides how an object is stored. */
class SchemeChooserTest {
  private static final long MB = 1 << 20;
  private final SchemeChooser chooser = new SchemeChooser(
      NamespaceSchemes.parse("sr=replica,sp=partition"), RedundancyScheme.erasureCoded(10, 1), MB,
      2);

  @Test
  void aLargeOrUnknownObjectTakesTheDefaultCodeTuned() {
    for (long size : new long[] {MB, 40 * MB, -1}) {
      SchemeChooser.Choice c = chooser.choose("tables/x", size, Optional.empty(), false);
      assertEquals(RedundancyScheme.erasureCoded(10, 1), c.scheme, "size " + size);
      assertTrue(c.tuned);
    }
  }

  @Test
  void aSmallObjectBecomesTunedCopiesThatKeepTheirBase() {
    SchemeChooser.Choice c = chooser.choose("tables/small", MB - 1, Optional.empty(), false);
    assertEquals(RedundancyScheme.replicated(2), c.scheme);
    assertTrue(c.tuned, "small objects take part in the popularity budget");
    assertEquals(2, chooser.base("tables/small", c.scheme));
    assertEquals(RedundancyScheme.replicated(2),
        chooser.choose("empty", 0, Optional.empty(), false).scheme);
  }

  @Test
  void namespacesChooseTheKindWhateverTheSize() {
    SchemeChooser.Choice sr = chooser.choose("sr/small", 10, Optional.empty(), false);
    assertEquals(RedundancyScheme.replicated(1), sr.scheme, "selective replication starts at one");
    assertEquals(1, chooser.base("sr/small", sr.scheme));
    SchemeChooser.Choice sp = chooser.choose("sp/small", 10, Optional.empty(), false);
    assertEquals(RedundancyScheme.partitioned(1), sp.scheme,
        "a small SP-Cache object stays SP-Cache's, not a replica");
    assertTrue(sp.tuned);
    assertEquals(1, chooser.base("x", RedundancyScheme.erasureCoded(10, 3)) , "the default r");
  }

  @Test
  void aSchemeThePutInsistsOnIsKeptUntuned() {
    RedundancyScheme asked = RedundancyScheme.erasureCoded(3, 2);
    SchemeChooser.Choice c = chooser.choose("sr/x", 10, Optional.of(asked), false);
    assertEquals(asked, c.scheme);
    assertFalse(c.tuned);
    assertTrue(chooser.choose("sp/x", 10, Optional.of(RedundancyScheme.partitioned(4)), true).tuned,
        "a repartition keeps the object tuned");
  }

  @Test
  void theDefaultCodeMustBeACode() {
    assertThrows(IllegalArgumentException.class, () -> new SchemeChooser(
        NamespaceSchemes.parse(""), RedundancyScheme.replicated(2), MB, 2));
  }
}
