package io.eccache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * eccache keys set before EcCacheKeys loads (alluxio-site.properties and -D options, read when
 * Alluxio's configuration first loads, as in a master loading the plugin afterwards) keep their
 * values, typed, instead of failing with "Cannot register existing key".
 */
class EcCacheKeysTest {
  @TempDir Path conf;

  @Test
  void keysSetBeforeTheClassLoadsAreKeptAndTyped() throws Exception {
    Files.writeString(conf.resolve("alluxio-site.properties"),
        "alluxio.master.eccache.namespace.schemes=sr=replica,sp=partition\n"
            + "alluxio.master.eccache.popularity.weight=0.5\n"
            + "alluxio.master.eccache.small.object.replicas=3\n"
            + "alluxio.master.eccache.coordinator.enabled=false\n");
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Dalluxio.conf.dir=" + conf);
    cmd.add("-Dalluxio.master.eccache.default.k=7");
    cmd.add("-Dalluxio.master.eccache.memory.overhead=0.3");
    cmd.add("-Dalluxio.user.eccache.io.timeout=7s"); // its name before 0.2: taken over
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(EarlyKeysProbe.class.getName());
    Process probe = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!probe.waitFor(60, TimeUnit.SECONDS)) {
      probe.destroyForcibly();
      throw new IOException("probe did not finish: " + out);
    }
    assertEquals(0, probe.exitValue(), out);
    List<String> lines = out.lines().filter(l -> l.contains("=")).collect(
        java.util.stream.Collectors.toList());
    assertEquals(List.of("k=7", "overhead=0.3", "schemes=sr=replica,sp=partition", "weight=0.5",
        "replicas=3", "enabled=false", "timeout=7000"), lines.subList(lines.size() - 7,
        lines.size()), out);
  }
}
