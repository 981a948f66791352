package io.eccache.testkit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.common.MasterKeys;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A user's -D properties for a cluster a command starts (no cluster is started here). */
class EmbeddedClusterBuilderTest {
  @Test
  void userPropertiesApplyByNameUnlessTheCommandSetsThemOrTheyAreNoProperty() {
    EmbeddedCluster.Builder builder = EmbeddedCluster.builder()
        .property(MasterKeys.RETUNE_INTERVAL, "0")
        .userProperties(Map.of("alluxio.master.eccache.cell.size", "64KB"));
    assertTrue(builder.spec().contains("alluxio.master.eccache.cell.size=64KB"), builder.spec());

    IllegalArgumentException own = assertThrows(IllegalArgumentException.class,
        () -> builder.userProperties(Map.of(MasterKeys.RETUNE_INTERVAL.getName(), "1min")));
    assertTrue(own.getMessage().contains("sets it itself"), own.getMessage());
    assertTrue(builder.spec().contains(MasterKeys.RETUNE_INTERVAL.getName() + "=0"),
        "the refused value is not applied: " + builder.spec());

    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> builder.userProperties(Map.of("alluxio.no.such.key", "1")));
    assertTrue(unknown.getMessage().contains("not an Alluxio or eccache property"),
        unknown.getMessage());
  }
}
