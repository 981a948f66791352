package io.eccache.shaded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * What the shaded jar carries, read from the packaged jar: of RocksDB only the enum every Alluxio
 * client loads (relocated; no native library), and no logging backend or API of the application's
 * own (SLF4J, log4j 2, logback, log4j 1 or commons-logging under their own names, nor a logging
 * configuration file): Spark or the application brings those. Its size is printed.
 */
class ShadedJarContentsIT {
  private static final String PREFIX = "alluxio/shaded/client/";

  /** Logging that would be the application's: its packages unrelocated, or a backend at all. */
  private static final Pattern LOGGING = Pattern.compile(
      "(" + Pattern.quote(PREFIX) + ")?(org/slf4j/|org/apache/logging/|ch/qos/logback/).*"
          + "|(org/apache/log4j/|org/apache/commons/logging/).*"
          + "|META-INF/services/org\\.(slf4j|apache\\.logging)\\..*"
          + "|([^/]*/)*(log4j2?(-test)?\\.(xml|properties|json|yaml)|logback(-test)?\\.xml"
          + "|simplelogger\\.properties|commons-logging\\.properties)");

  @Test
  void holdsOneRocksDbEnumAndNoLoggingOfTheApplications() throws Exception {
    Path jar = Path.of(System.getProperty("eccache.shaded.dir", "target"),
        System.getProperty("eccache.shaded.name", "eccache-client-shaded.jar"));
    assertTrue(Files.isRegularFile(jar), jar.toAbsolutePath() + " is missing: the shade "
        + "plugin writes it in `package` (run through mvn verify)");
    List<String> names;
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      names = zip.stream().filter(e -> !e.isDirectory()).map(ZipEntry::getName)
          .collect(Collectors.toList());
    }
    long bytes = Files.size(jar);
    System.out.printf("eccache-client-shaded: %d bytes (%.1f MB), %d files%n", bytes,
        bytes / 1e6, names.size());

    assertEquals(List.of(PREFIX + "org/rocksdb/CompressionType.class"), names.stream()
        .filter(n -> n.toLowerCase().contains("rocksdb")).collect(Collectors.toList()),
        "RocksDB in the jar: only the enum alluxio.conf.PropertyKey names");
    assertEquals(List.of(), names.stream().filter(n -> LOGGING.matcher(n).matches())
        .collect(Collectors.toList()), "logging that is the application's");
    // Alluxio's LogUtils links against log4j 1's classes, relocated here, so they are the jar's
    // own and no other log4j 1 or SLF4J binding can see them.
    assertTrue(names.contains(PREFIX + "org/apache/log4j/Category.class"),
        "relocated log4j 1 classes for Alluxio's LogUtils");
  }

  @Test
  void theLoggingPatternCatchesBackendsAndConfigurations() {
    for (String n : List.of("org/slf4j/impl/StaticLoggerBinder.class",
        "org/apache/logging/log4j/core/Logger.class", "ch/qos/logback/classic/Logger.class",
        PREFIX + "org/apache/logging/log4j/core/Logger.class", "org/apache/log4j/Category.class",
        "org/apache/commons/logging/LogFactory.class", "log4j2.xml", "log4j.properties",
        "META-INF/services/org.slf4j.spi.SLF4JServiceProvider")) {
      assertTrue(LOGGING.matcher(n).matches(), n);
    }
    for (String n : List.of(PREFIX + "org/apache/log4j/Category.class",
        PREFIX + "io/netty/util/internal/logging/Slf4JLogger.class",
        PREFIX + "com/codahale/metrics/Slf4jReporter.class")) {
      assertFalse(LOGGING.matcher(n).matches(), n);
    }
  }
}
