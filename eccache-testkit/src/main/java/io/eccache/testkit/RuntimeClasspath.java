package io.eccache.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A module's runtime classpath as the maven-dependency-plugin's build-classpath execution writes
 * it ({@code target/runtime-classpath.txt}): what the tests that keep the product lean read.
 */
public final class RuntimeClasspath {
  private RuntimeClasspath() {}

  /** The entries of {@code target/runtime-classpath.txt}, each checked to exist. */
  public static List<Path> entries() throws IOException {
    Path file = Path.of("target", "runtime-classpath.txt");
    assertTrue(Files.isRegularFile(file), file.toAbsolutePath() + " is missing: the "
        + "maven-dependency-plugin's build-classpath execution writes it (run through Maven)");
    List<Path> entries = Arrays.stream(Files.readString(file, StandardCharsets.UTF_8).trim()
        .split(Pattern.quote(File.pathSeparator)))
        .filter(e -> !e.isBlank()).map(Path::of).collect(Collectors.toList());
    for (Path entry : entries) {
      assertTrue(Files.exists(entry), "no such classpath entry: " + entry);
    }
    return entries;
  }
}
