package io.eccache.cli;

import alluxio.util.LogUtils;

/**
 * Logs one line through each logging API the command's libraries use, after the command's own
 * logging setup: SLF4J (Alluxio, eccache), log4j 1 (Alluxio's LogUtils links against it),
 * commons-logging (the AWS SDK, HttpClient), java.util.logging (gRPC) and log4j 2's API. Each line
 * is {@code ARG via API}. For {@link LoggingRoutesTest}.
 */
public final class EveryLoggingApiMain {
  private EveryLoggingApiMain() {}

  public static void main(String[] args) {
    EcCacheCli.logToFile();
    String marker = args[0];
    org.slf4j.LoggerFactory.getLogger("eccache.test").warn("{} via slf4j", marker);
    org.apache.log4j.Logger.getLogger("eccache.test").warn(marker + " via log4j 1");
    org.apache.commons.logging.LogFactory.getLog("eccache.test")
        .warn(marker + " via commons-logging");
    java.util.logging.Logger.getLogger("eccache.test").warning(marker + " via java.util.logging");
    org.apache.logging.log4j.LogManager.getLogger("eccache.test").warn("{} via log4j 2", marker);
    LogUtils.warnWithException(org.slf4j.LoggerFactory.getLogger("eccache.test"),
        "{} via Alluxio's LogUtils", marker, new IllegalStateException("a logged failure"));
  }
}
