package io.eccache.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.testkit.RuntimeClasspath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The product command carries the client only: its runtime classpath (written by the
 * maven-dependency-plugin to target/runtime-classpath.txt, the same scope bin/eccache copies to
 * target/lib) holds neither the benchmark, the testkit, the local cluster, JMH, XChart, Alluxio's
 * master and worker nor hadoop-common. demo, bench, sim and check live in benchmarks
 * (bin/eccache-bench); cluster start|stop|status in eccache-local-cluster (bin/eccache-cluster).
 * Nor RocksDB (54 MB of native libraries; the client carries the one enum it loads), what an
 * eccache client never loads (OpenSSL for Netty, Jetty, the AWS SDK, Reflections), or a second
 * logging backend: log4j 2 is the command's only one, every logging API routed into it.
 */
class ProductClasspathTest {
  private static final Pattern FORBIDDEN = Pattern.compile(
      "benchmarks|eccache-testkit|eccache-local-cluster|jmh-.*|xchart"
          + "|alluxio-core-server-(master|worker)|hadoop-common|rocksdbjni");

  /** Alluxio's dependencies that an eccache client never loads (eccache-client excludes them). */
  private static final Pattern NEVER_LOADED = Pattern.compile(
      "netty-tcnative.*|jetty-.*|.*servlet-api|aws-java-sdk-.*|amqp-client|reflections|javassist");

  /**
   * The logging backends recognised, by the artifacts that write log records (or bind SLF4J to a
   * backend). APIs and bridges into another API (slf4j-api, jul-to-slf4j, log4j-api,
   * log4j-1.2-api, commons-logging) are not backends.
   */
  private static final Map<String, String> BACKENDS = Map.ofEntries(
      Map.entry("log4j-core", "log4j 2"), Map.entry("log4j-slf4j-impl", "log4j 2"),
      Map.entry("log4j-slf4j2-impl", "log4j 2"),
      Map.entry("reload4j", "log4j 1"), Map.entry("log4j", "log4j 1"),
      Map.entry("slf4j-reload4j", "log4j 1"), Map.entry("slf4j-log4j12", "log4j 1"),
      Map.entry("logback-classic", "logback"), Map.entry("logback-core", "logback"),
      Map.entry("slf4j-simple", "slf4j-simple"), Map.entry("slf4j-jdk14", "java.util.logging"),
      Map.entry("slf4j-nop", "slf4j-nop"));

  /** SLF4J's bindings: with two, SLF4J picks one at random. */
  private static final Pattern SLF4J_BINDING = Pattern.compile(
      "log4j-slf4j2?-impl|slf4j-(reload4j|log4j12|simple|jdk14|nop)|logback-classic");

  @Test
  void runtimeClasspathHoldsNoBenchmarkTestkitOrServer() throws Exception {
    List<String> artifacts = RuntimeClasspath.entries().stream().map(p -> artifactOf(p.toString()))
        .collect(Collectors.toList());
    assertTrue(artifacts.contains("eccache-client") && artifacts.contains("picocli"),
        "not the cli's runtime classpath: " + artifacts);
    List<String> forbidden = new ArrayList<>();
    for (String a : artifacts) {
      if (FORBIDDEN.matcher(a).matches()) {
        forbidden.add(a);
      }
    }
    assertTrue(forbidden.isEmpty(), "eccache-cli's runtime classpath holds " + forbidden
        + " (benchmark, test or server code belongs in benchmarks' eccache-bench; RocksDB in "
        + "Alluxio's servers: the client carries the one enum of it that it loads)");
  }

  @Test
  void runtimeClasspathIsLeanWithOneLoggingBackendAndPrintsItsSize() throws Exception {
    List<Path> jars = RuntimeClasspath.entries();
    List<String> artifacts = jars.stream().map(p -> artifactOf(p.toString()))
        .collect(Collectors.toList());
    long bytes = 0;
    for (Path jar : jars) {
      bytes += sizeOf(jar);
    }
    System.out.printf("eccache-cli runtime classpath: %d jars, %d bytes (%.1f MB)%n",
        jars.size(), bytes, bytes / 1e6);
    assertEquals(List.of(), artifacts.stream().filter(a -> NEVER_LOADED.matcher(a).matches())
        .collect(Collectors.toList()), "what an eccache client never loads");
    assertEquals(Set.of("log4j 2"), backendsOf(artifacts), "eccache-cli's logging backends "
        + "(log4j2.xml configures log4j 2; any other would write elsewhere, or to the terminal)");
    assertEquals(List.of("log4j-slf4j-impl"), artifacts.stream()
        .filter(a -> SLF4J_BINDING.matcher(a).matches()).collect(Collectors.toList()));
    // Alluxio's LogUtils links against log4j 1's classes: without them error paths hang.
    assertTrue(artifacts.contains("log4j-1.2-api"), "log4j 1's API over log4j 2: " + artifacts);
  }

  /** The logging backends among {@code artifacts}, named as in {@link #BACKENDS}. */
  static Set<String> backendsOf(List<String> artifacts) {
    return artifacts.stream().filter(BACKENDS::containsKey).map(BACKENDS::get)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  @Test
  void backendsAreRecognisedByFamily() {
    assertEquals(Set.of("log4j 2"), backendsOf(List.of("slf4j-api", "log4j-api", "log4j-core",
        "log4j-slf4j-impl", "log4j-1.2-api", "jul-to-slf4j", "commons-logging")));
    // What the command carried before: reload4j (for Alluxio's LogUtils) beside log4j 2.
    assertEquals(Set.of("log4j 1", "log4j 2"),
        backendsOf(List.of("reload4j", "log4j-core", "log4j-slf4j-impl")));
    assertEquals(Set.of("logback", "slf4j-simple"),
        backendsOf(List.of("logback-classic", "slf4j-simple")));
  }

  /** A jar's size, or the bytes of the files under a reactor module's target/classes. */
  private static long sizeOf(Path entry) throws Exception {
    if (!Files.isDirectory(entry)) {
      return Files.size(entry);
    }
    try (Stream<Path> files = Files.walk(entry)) {
      long bytes = 0;
      for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        bytes += Files.size(f);
      }
      return bytes;
    }
  }

  /**
   * The artifact id of a classpath entry: in the local repository a jar sits in
   * {@code .../ARTIFACT/VERSION/ARTIFACT-VERSION.jar}; a reactor module's jar or classes in
   * {@code .../MODULE/target/}.
   */
  static String artifactOf(String entry) {
    Path path = Path.of(entry).toAbsolutePath().normalize();
    Path parent = path.getParent();
    if (parent != null && parent.getFileName().toString().equals("target")) {
      return parent.getParent().getFileName().toString();
    }
    return parent == null || parent.getParent() == null ? path.getFileName().toString()
        : parent.getParent().getFileName().toString();
  }

  @Test
  void artifactIdsOfRepositoryJarsAndReactorModules() {
    assertEquals("jmh-core", artifactOf("/m2/org/openjdk/jmh/jmh-core/1.37/jmh-core-1.37.jar"));
    assertEquals("benchmarks", artifactOf("/r/benchmarks/target/benchmarks-0.2.0.jar"));
    assertEquals("benchmarks", artifactOf("/r/benchmarks/target/classes"));
    assertEquals("netty-transport-native-epoll", artifactOf("/m2/io/netty/"
        + "netty-transport-native-epoll/4.1.87.Final/"
        + "netty-transport-native-epoll-4.1.87.Final-linux-x86_64.jar"));
    assertTrue(FORBIDDEN.matcher(artifactOf("/m2/org/alluxio/alluxio-core-server-master/2.9.6/"
        + "alluxio-core-server-master-2.9.6.jar")).matches());
    assertTrue(FORBIDDEN.matcher(artifactOf("/m2/org/rocksdb/rocksdbjni/7.0.3/"
        + "rocksdbjni-7.0.3.jar")).matches());
    assertTrue(NEVER_LOADED.matcher("netty-tcnative-boringssl-static").matches());
    assertTrue(NEVER_LOADED.matcher("jakarta.servlet-api").matches());
    assertFalse(NEVER_LOADED.matcher("netty-codec-http2").matches());
    assertFalse(FORBIDDEN.matcher(artifactOf("/m2/org/alluxio/alluxio-core-client-fs/2.9.6/"
        + "alluxio-core-client-fs-2.9.6.jar")).matches());
  }
}
