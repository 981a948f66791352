package io.eccache.lognode;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * {@code lognode.properties}: what a directory's files mean (format, code, row, unit size, scheme,
 * reserved-area size), written when a directory is first used and checked on every later open, so a
 * node is never started on another node's files, or with settings that would misread them.
 */
final class NodeIdentity {
  static final String FILE = "lognode.properties";
  private static final String FORMAT = "1";

  private NodeIdentity() {}

  /**
   * Writes the identity if the directory has none, else checks it.
   *
   * @throws IllegalArgumentException if the directory belongs to a node set up otherwise
   */
  static void establish(LogNodeConfig config) throws IOException {
    Path file = config.directory().resolve(FILE);
    Properties wanted = of(config);
    if (!Files.exists(file)) {
      Path tmp = config.directory().resolve(FILE + ".tmp");
      try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
        wanted.store(out, "eccache log node: do not edit; these settings say how the files here are laid out");
      }
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      return;
    }
    Properties found = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      found.load(in);
    }
    for (String key : wanted.stringPropertyNames()) {
      if (!wanted.getProperty(key).equals(found.getProperty(key))) {
        throw new IllegalArgumentException("directory " + config.directory() + " holds a log node with "
            + key + "=" + found.getProperty(key) + ", but this node is configured with " + key + "="
            + wanted.getProperty(key) + ": use another directory, or the settings the files were written with");
      }
    }
  }

  private static Properties of(LogNodeConfig config) {
    Properties p = new Properties();
    p.setProperty("format", FORMAT);
    p.setProperty("k", Integer.toString(config.dataUnits()));
    p.setProperty("r", Integer.toString(config.parityUnits()));
    p.setProperty("row", Integer.toString(config.row()));
    p.setProperty("matrix", config.coder().codeMatrix().name());
    p.setProperty("unitSize", Integer.toString(config.unitSize()));
    p.setProperty("scheme", config.scheme().name());
    p.setProperty("reservedBytes", Integer.toString(config.reservedBytes()));
    return p;
  }
}
