package io.eccache.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command has one logging backend (log4j 2, configured by its log4j2.xml): every logging API
 * its libraries use ends in $ECCACHE_LOG_DIR/cli.log, and none reaches the terminal. Run as a user
 * runs the command, a JVM on the module's runtime classpath (what bin/eccache puts together). With
 * reload4j beside log4j 2, as before, the log4j 1 and commons-logging lines went to an
 * unconfigured log4j 1, which printed a warning on the terminal and dropped them.
 */
class LoggingRoutesTest {
  @TempDir Path dir;

  @Test
  void everyLoggingApiWritesToTheLogFileOnly() throws Exception {
    String marker = "marker-" + System.nanoTime();
    ProcessBuilder builder = new ProcessBuilder(
        CliProcess.java(List.of(), EveryLoggingApiMain.class, marker))
        .redirectOutput(dir.resolve("out.txt").toFile())
        .redirectError(dir.resolve("err.txt").toFile());
    builder.environment().put("ECCACHE_LOG_DIR", dir.resolve("logs").toString());
    Process p = builder.start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the logging JVM ended");
    String terminal = Files.readString(dir.resolve("out.txt"))
        + Files.readString(dir.resolve("err.txt"));
    assertEquals(0, p.exitValue(), terminal);
    assertEquals("", terminal, "nothing on the terminal");
    String log = Files.readString(dir.resolve("logs").resolve("cli.log"));
    for (String api : List.of("slf4j", "log4j 1", "commons-logging", "java.util.logging",
        "log4j 2", "Alluxio's LogUtils")) {
      assertTrue(log.contains(marker + " via " + api), api + " in cli.log:\n" + log);
    }
    assertTrue(log.contains("a logged failure"), "LogUtils' exception in cli.log:\n" + log);
    assertFalse(log.contains("log4j:WARN"), log);
  }
}
