package io.eccache.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.conf.Configuration;
import alluxio.conf.InstancedConfiguration;
import alluxio.conf.PropertyKey;
import io.eccache.client.EcCacheClient;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.FailsafeProperties;
import io.eccache.testkit.SharedCluster;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The plain Java example as a user runs it: {@code java -cp} the shaded client, the example's
 * classes and SLF4J (slf4j-api and slf4j-simple), nothing else, in a JVM of its own, against a real
 * 6-worker cluster in this JVM. Proves the shaded jar stands alone: a class it lacks (RocksDB's
 * CompressionType once was) fails the example with NoClassDefFoundError here.
 */
class ShadedJarAloneIT {
  private static final long EXAMPLE_TIMEOUT_S = 120;

  @RegisterExtension
  static final SharedCluster CLUSTER = SharedCluster.of(EmbeddedCluster.builder().workers(6));

  @Test
  void exampleRunsOnTheShadedJarAndSlf4jAlone(EmbeddedCluster cluster) throws Exception {
    List<String> classpath = new ArrayList<>();
    classpath.add(existing("eccache.client.shaded.jar").toString());
    classpath.add(existing("eccache.example.classes").toString());
    try (Stream<Path> jars = Files.list(existing("eccache.slf4j.dir"))) {
      classpath.addAll(jars.map(Path::toString).sorted().collect(Collectors.toList()));
    }
    assertEquals(4, classpath.size(), "shaded jar, example classes, slf4j-api, slf4j-simple: "
        + classpath);
    String master = "127.0.0.1:" + cluster.master().getRpcAddress().getPort();
    List<String> command = List.of(
        Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-cp", String.join(File.pathSeparator, classpath),
        PutGetExample.class.getName(), master);

    Path out = Paths.get("target", "shaded-alone.out").toAbsolutePath();
    Path err = Paths.get("target", "shaded-alone.err").toAbsolutePath();
    ProcessBuilder pb = new ProcessBuilder(command)
        .redirectOutput(out.toFile()).redirectError(err.toFile());
    // Nothing from this JVM's environment that could add to the classpath or the configuration.
    pb.environment().remove("CLASSPATH");
    pb.environment().remove("JAVA_TOOL_OPTIONS");
    pb.environment().remove("ALLUXIO_CONF_DIR");
    Process p = pb.start();
    if (!p.waitFor(EXAMPLE_TIMEOUT_S, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError("the example did not finish within " + EXAMPLE_TIMEOUT_S
          + " s against " + master + "; its output: " + out + ", " + err);
    }
    String stdout = Files.readString(out);
    String stderr = Files.readString(err);
    String both = "command: " + String.join(" ", command) + "\nstdout:\n" + stdout
        + "\nstderr:\n" + stderr;
    assertEquals(0, p.exitValue(), both);
    assertTrue(stdout.contains("examples/small: 100000 bytes ok"), both);
    assertTrue(stdout.contains("examples/medium: 6291456 bytes ok"), both);
    // The fixed code was kept as given: 4 data + 1 parity split.
    assertTrue(stdout.contains("RS(4,1)"), both);
    assertTrue(stdout.contains("examples/large: 20971520 bytes ok"), both);
    assertTrue(stdout.contains("all objects read back intact"), both);
    assertFalse(stderr.contains("NoClassDefFoundError") || stderr.contains("ClassNotFoundException"),
        both);
    // SLF4J warns on stderr when it finds no binding or several.
    assertFalse(stderr.contains("SLF4J:"), both);

    InstancedConfiguration conf = Configuration.copyGlobal();
    conf.set(PropertyKey.MASTER_HOSTNAME, "127.0.0.1");
    conf.set(PropertyKey.MASTER_RPC_PORT, cluster.master().getRpcAddress().getPort());
    try (EcCacheClient cache = EcCacheClient.create(conf)) {
      assertEquals(List.of(), cache.list("examples/"), "the example deletes what it stored");
    }
  }

  private static Path existing(String property) throws IOException {
    return FailsafeProperties.existing(property, "mvn -pl examples/java-putget -am verify");
  }
}
