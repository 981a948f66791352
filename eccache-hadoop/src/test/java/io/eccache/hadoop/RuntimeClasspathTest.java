package io.eccache.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.testkit.RuntimeClasspath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The FileSystem's runtime classpath (what a Maven build that depends on eccache-hadoop gets,
 * written by the maven-dependency-plugin to target/runtime-classpath.txt) is a library's: no
 * RocksDB, and no logging backend or SLF4J binding to compete with the application's (Hadoop's
 * reload4j binding, Spark's log4j 2). It keeps log4j 1's classes, which Alluxio's LogUtils links
 * against, as Hadoop itself ships them. Its size is printed.
 */
class RuntimeClasspathTest {
  private static final Pattern UNWANTED = Pattern.compile("rocksdbjni|log4j-core"
      + "|log4j-slf4j2?-impl|slf4j-(reload4j|log4j12|simple|jdk14|nop)|logback-(classic|core)");

  @Test
  void noRocksDbAndNoLoggingBackend() throws Exception {
    List<Path> entries = RuntimeClasspath.entries();
    long bytes = 0;
    for (Path jar : entries) {
      bytes += Files.isRegularFile(jar) ? Files.size(jar) : 0;
    }
    System.out.printf("eccache-hadoop runtime classpath: %d entries, %d bytes (%.1f MB)%n",
        entries.size(), bytes, bytes / 1e6);
    List<String> artifacts = entries.stream().map(RuntimeClasspathTest::artifactOf)
        .collect(Collectors.toList());
    assertTrue(artifacts.contains("eccache-client") && artifacts.contains("slf4j-api"),
        "not eccache-hadoop's runtime classpath: " + artifacts);
    assertEquals(List.of(), artifacts.stream().filter(a -> UNWANTED.matcher(a).matches())
        .collect(Collectors.toList()), "RocksDB or a logging backend on " + artifacts);
  }

  /** {@code .../ARTIFACT/VERSION/ARTIFACT-VERSION.jar}, or {@code .../MODULE/target/...}. */
  private static String artifactOf(Path entry) {
    return entry.toAbsolutePath().normalize().getParent().getParent().getFileName().toString();
  }
}
