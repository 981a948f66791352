package io.eccache.client;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a PUT reads on the local machine ({@code eccache put}, {@code alluxio fs ecPut}): stdin for
 * {@code -}, else a file checked and opened before the cluster is contacted, so bad input creates
 * nothing there. Errors are {@link LocalOutput.LocalFileException}s naming the OS error and path.
 */
public final class LocalInput {
  private final InputStream in;
  private final long length;

  private LocalInput(InputStream in, long length) {
    this.in = in;
    this.length = length;
  }

  /**
   * Opens {@code file} ({@code -}: stdin) for reading.
   *
   * @throws LocalOutput.LocalFileException when it is missing, a directory or unreadable
   */
  public static LocalInput open(String file) throws IOException {
    if ("-".equals(file)) {
      return new LocalInput(System.in, -1);
    }
    Path path = Path.of(file);
    if (Files.isDirectory(path)) {
      throw new LocalOutput.LocalFileException("Is a directory: " + file
          + " (a PUT stores one file)", null);
    }
    try {
      InputStream in = Files.newInputStream(path);
      // The size of a special file (a FIFO, /dev/stdin) means nothing: stream it to its end.
      return new LocalInput(in, Files.isRegularFile(path) ? Files.size(path) : -1);
    } catch (IOException e) {
      throw LocalOutput.describe(e, path);
    }
  }

  /** The bytes to store; the caller closes it (closing stdin is harmless at the end of a PUT). */
  public InputStream stream() {
    return in;
  }

  /** Bytes in the file, or -1 when not known ahead (stdin, a FIFO). */
  public long length() {
    return length;
  }
}
