package io.eccache.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eccache.testkit.UsageText;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The help of every eccache command prints as written. */
class EcCacheCliHelpTest {
  @Test
  void everyCommandsHelpRendersWithoutWarnings() {
    assertEquals(List.of(), UsageText.warnings(EcCacheCli.commandLine()));
  }
}
