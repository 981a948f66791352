package io.eccache.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The system properties a module's failsafe configuration hands its integration tests (built
 * jars, class directories, JVM flags), read so that a test run outside Maven says what is missing
 * rather than failing on a null.
 */
public final class FailsafeProperties {
  private FailsafeProperties() {}

  /** The value of {@code property}; fails, naming it, when it is unset or empty. */
  public static String required(String property) {
    String value = System.getProperty(property);
    if (value == null || value.isEmpty()) {
      throw new IllegalStateException("system property " + property + " is not set (the pom's"
          + " failsafe configuration sets it)");
    }
    return value;
  }

  /**
   * The file or directory {@code property} names, which the module's {@code package} phase builds;
   * fails, with {@code build} (the command that builds it), when it is not there.
   */
  public static Path existing(String property, String build) throws IOException {
    Path path = Paths.get(required(property)).toAbsolutePath().normalize();
    if (!Files.exists(path)) {
      throw new IOException(path + " is missing: run the build through `package` first ("
          + build + ")");
    }
    return path;
  }
}
