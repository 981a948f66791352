package io.eccache.benchmarks.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.log4j.Level;
import org.apache.log4j.LogManager;
import org.apache.log4j.Logger;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's log4j 1 (through which the AWS SDK of every in-process cluster logs) is
 * configured from the benchmark's own log4j.properties: errors to standard error, and no
 * "log4j:WARN No appenders could be found" in the middle of a run's output.
 */
class Log4jOneConfigurationTest {
  @Test
  void theRootLoggerHasAnAppenderAndLogsErrorsOnly() {
    Logger root = LogManager.getRootLogger();
    assertTrue(root.getAllAppenders().hasMoreElements(), "log4j 1 has no appender");
    assertEquals(Level.ERROR, root.getLevel());
  }
}
