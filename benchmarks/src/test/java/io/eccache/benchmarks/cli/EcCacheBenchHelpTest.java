package io.eccache.benchmarks.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eccache.testkit.UsageText;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The help of every eccache-bench command prints as written. */
class EcCacheBenchHelpTest {
  @Test
  void everyCommandsHelpRendersWithoutWarnings() {
    assertEquals(List.of(), UsageText.warnings(EcCacheBench.commandLine()));
  }
}
