package io.eccache.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.testkit.UsageText;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The help of every eccache command prints as written; what it says holds. */
class EcCacheCliHelpTest {
  @Test
  void everyCommandsHelpRendersWithoutWarnings() {
    assertEquals(List.of(), UsageText.warnings(EcCacheCli.commandLine()));
  }

  @Test
  void theHelpNamesTheLocalCluster() {
    StringWriter out = new StringWriter();
    EcCacheCli.commandLine().setOut(new PrintWriter(out)).execute("--help");
    assertTrue(out.toString().contains("cluster start|stop|status"), out.toString());
  }
}
