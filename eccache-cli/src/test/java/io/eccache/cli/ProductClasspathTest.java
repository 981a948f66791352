package io.eccache.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The product command carries the client only: its runtime classpath (written by the
 * maven-dependency-plugin to target/runtime-classpath.txt, the same scope bin/eccache copies to
 * target/lib) holds neither the benchmark, the testkit, the local cluster, JMH, XChart, Alluxio's
 * master and worker nor hadoop-common. demo, bench, sim and check live in benchmarks
 * (bin/eccache-bench); cluster start|stop|status in eccache-local-cluster (bin/eccache-cluster).
 */
class ProductClasspathTest {
  private static final Pattern FORBIDDEN = Pattern.compile(
      "benchmarks|eccache-testkit|eccache-local-cluster|jmh-.*|xchart"
          + "|alluxio-core-server-(master|worker)|hadoop-common");

  @Test
  void runtimeClasspathHoldsNoBenchmarkTestkitOrServer() throws Exception {
    Path file = Path.of("target", "runtime-classpath.txt");
    assertTrue(Files.isRegularFile(file), file.toAbsolutePath() + " is missing: the "
        + "maven-dependency-plugin's build-classpath execution writes it (run through Maven)");
    List<String> artifacts = Arrays.stream(Files.readString(file, StandardCharsets.UTF_8).trim()
        .split(Pattern.quote(File.pathSeparator)))
        .filter(e -> !e.isBlank()).map(ProductClasspathTest::artifactOf)
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
        + " (benchmark, test or server code belongs in benchmarks' eccache-bench)");
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
    assertFalse(FORBIDDEN.matcher(artifactOf("/m2/org/alluxio/alluxio-core-client-fs/2.9.6/"
        + "alluxio-core-client-fs-2.9.6.jar")).matches());
  }
}
