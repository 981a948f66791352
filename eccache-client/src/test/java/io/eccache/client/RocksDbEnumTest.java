package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The client carries one class of RocksDB instead of rocksdbjni (54 MB of native libraries):
 * {@code org.rocksdb.CompressionType}, which {@code alluxio.conf.PropertyKey}'s static initialiser
 * names. The copy must be the very class Alluxio's servers load from their rocksdbjni (on this
 * test classpath through the testkit), or the two would disagree where both are on a classpath.
 */
class RocksDbEnumTest {
  private static final String CLASS_FILE = "org/rocksdb/CompressionType.class";

  @Test
  void theClientsCopyIsRocksDbsOwnEnum() throws Exception {
    Path copy = Path.of("target", "classes").resolve(CLASS_FILE);
    assertTrue(Files.isRegularFile(copy), copy.toAbsolutePath() + " is missing: the "
        + "maven-dependency-plugin's rocksdb-compression-type execution copies it");
    List<URL> jars = Collections.list(getClass().getClassLoader().getResources(CLASS_FILE))
        .stream().filter(u -> u.toString().contains("/rocksdbjni-")).collect(Collectors.toList());
    assertEquals(1, jars.size(), "rocksdbjni on the test classpath: " + jars);
    byte[] original;
    try (InputStream in = jars.get(0).openStream()) {
      original = in.readAllBytes();
    }
    assertArrayEquals(original, Files.readAllBytes(copy),
        "the copied enum differs from " + jars.get(0) + ": rocksdb.version must be Alluxio's");
  }
}
