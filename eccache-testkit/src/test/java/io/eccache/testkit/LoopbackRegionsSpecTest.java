package io.eccache.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.eccache.policy.agar.AgarRegions;
import io.eccache.testkit.LoopbackRegions.Spec;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** LoopbackRegions' input checks and names: no server is started. */
class LoopbackRegionsSpecTest {
  @Test
  void agarsTableBecomesSpecsWithPathNames() {
    List<Spec> specs = LoopbackRegions.specs(AgarRegions.fromFrankfurt(0.1), 1 << 20);
    assertEquals(6, specs.size());
    assertEquals("N. Virginia", specs.get(2).name());
    assertEquals(Duration.ofMillis(60), specs.get(2).readLatency());
    assertEquals(1 << 20, specs.get(2).bytesPerSecond());
    assertEquals("n-virginia", LoopbackRegions.slug("N. Virginia"));
    assertEquals("sao-paulo", LoopbackRegions.slug("Sao Paulo"));
  }

  @Test
  void badSpecsAreRefusedBeforeAnyServerStarts() {
    assertThrows(IllegalArgumentException.class, () -> new Spec(" . ", Duration.ZERO, 0));
    assertThrows(IllegalArgumentException.class, () -> new Spec("a", Duration.ofMillis(-1), 0));
    assertThrows(IllegalArgumentException.class, () -> new Spec("a", Duration.ZERO, -1));
    assertThrows(IllegalArgumentException.class, () -> LoopbackRegions.start(null, List.of()));
    assertThrows(IllegalArgumentException.class, () -> LoopbackRegions.start(null,
        List.of(new Spec("Sao Paulo", Duration.ZERO, 0), new Spec("sao-paulo", Duration.ZERO, 0))));
  }
}
