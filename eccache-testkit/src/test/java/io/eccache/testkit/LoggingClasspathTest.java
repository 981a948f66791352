package io.eccache.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import alluxio.util.LogUtils;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Alluxio's error paths (worker read/write handlers, the client's block streams) log through
 * {@link LogUtils}, which links against log4j 1. Without {@code org.apache.log4j} on the classpath
 * they die with NoClassDefFoundError and never answer the client, which then waits forever.
 */
class LoggingClasspathTest {
  @Test
  void alluxioLogUtilsLinksOnTheServerAndClientClasspath() throws Exception {
    // Loading, linking and initialising the class is what failed: do all three.
    Class<?> logUtils = Class.forName("alluxio.util.LogUtils", true, getClass().getClassLoader());
    assertNotNull(logUtils.getDeclaredMethod("warnWithException", Logger.class, String.class,
        Object[].class));
    assertNotNull(Class.forName("org.apache.log4j.Category"));
    LogUtils.warnWithException(LoggerFactory.getLogger(getClass()), "error path {}",
        new RuntimeException("a logged failure"));
  }

  @Test
  void slf4jIsBoundToLog4j2Only() {
    // Keeping reload4j must not bring back its slf4j binding (two bindings: one wins at random).
    assertEquals("org.apache.logging.slf4j.Log4jLoggerFactory",
        LoggerFactory.getILoggerFactory().getClass().getName());
  }
}
