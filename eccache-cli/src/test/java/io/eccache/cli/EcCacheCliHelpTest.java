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

  /** The version is the build's (the poms'), never a string left behind in the source. */
  @Test
  void theVersionIsTheBuilds() {
    StringWriter out = new StringWriter();
    assertEquals(0, EcCacheCli.commandLine().setOut(new PrintWriter(out)).execute("--version"));
    String pomVersion = System.getProperty("eccache.pom.version", "");
    assertTrue(pomVersion.matches("\\d+\\.\\d+\\.\\d+.*"), pomVersion);
    assertEquals("eccache " + pomVersion, out.toString().trim());
  }
}
