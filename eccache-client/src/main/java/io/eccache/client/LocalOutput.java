package io.eccache.client;

import java.io.FileNotFoundException;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Where a GET writes on the local machine ({@code eccache get}, {@code alluxio fs ecGet}), by rules
 * that never destroy what the target is:
 * <ul>
 *   <li>{@code -}: stdout, streamed (left open for what prints after).</li>
 *   <li>A directory (existing, or any name ending in {@code /}): the file {@code DIR/<last key
 *       segment>} in it.</li>
 *   <li>A symbolic link: written through to the file it points to (the link stays a link).</li>
 *   <li>A special file (character or block device, FIFO, socket): streamed straight into it, never
 *       replaced.</li>
 *   <li>A regular file, or a new one: written to a hidden sibling {@code .NAME.PID.part} and renamed
 *       over the target by {@link #commit()}; {@link #close()} without a commit removes it, so a
 *       failed GET leaves nothing behind.</li>
 * </ul>
 * Opening checks the local side before anything is read, and local failures are
 * {@link LocalFileException}s whose message names the OS error and the path ("Permission denied:
 * PATH").
 */
public final class LocalOutput implements AutoCloseable {
  /** A local file or directory could not be read or written: the message names the OS error. */
  public static final class LocalFileException extends IOException {
    private static final long serialVersionUID = 1L;

    public LocalFileException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private final Path target;
  private final Path partial;
  private final OutputStream out;
  private boolean committed;

  private LocalOutput(Path target, Path partial, OutputStream out) {
    this.target = target;
    this.partial = partial;
    this.out = target == null ? out : new FilterOutputStream(out) {
      // A local write failure (disk full, I/O error) is named as such, not as a failed read.
      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        try {
          out.write(b, off, len);
        } catch (IOException e) {
          throw describe(e, partial != null ? partial : target);
        }
      }

      @Override
      public void flush() throws IOException {
        try {
          out.flush();
        } catch (IOException e) {
          throw describe(e, partial != null ? partial : target);
        }
      }
    };
  }

  /**
   * Opens where the object under {@code key} goes.
   *
   * @param file a path, or {@code -} for stdout
   * @throws LocalFileException when the target cannot be written (missing directory, permission)
   */
  public static LocalOutput open(String file, String key) throws IOException {
    if ("-".equals(file)) {
      return new LocalOutput(null, null, nonClosing(System.out));
    }
    Path target = Path.of(file).toAbsolutePath();
    if (file.endsWith("/") || Files.isDirectory(target)) {
      if (!Files.isDirectory(target)) {
        throw new LocalFileException("No such file or directory: " + file, null);
      }
      target = target.resolve(lastSegment(key));
    }
    target = followLinks(target);
    if (Files.isDirectory(target)) {
      throw new LocalFileException("Is a directory: " + target, null);
    }
    if (Files.exists(target) && !Files.isRegularFile(target)) {
      // A device, FIFO or socket: write into it as it is; renaming over it would replace it.
      try {
        return new LocalOutput(target, null,
            Files.newOutputStream(target, StandardOpenOption.WRITE));
      } catch (IOException e) {
        throw describe(e, target);
      }
    }
    Path parent = target.getParent();
    if (!Files.isDirectory(parent)) {
      throw new LocalFileException((Files.exists(parent) ? "Not a directory: "
          : "No such file or directory: ") + parent, null);
    }
    // Beside the target (same file system, so the rename is atomic), with the usual permissions.
    Path partial = parent.resolve(
        "." + target.getFileName() + "." + ProcessHandle.current().pid() + ".part");
    try {
      OutputStream out = Files.newOutputStream(partial, StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE);
      // Ctrl-C ends the JVM without close(): its shutdown still removes the part file (the name
      // holds our pid, so after the rename nothing of anyone else's has it).
      partial.toFile().deleteOnExit();
      return new LocalOutput(target, partial, out);
    } catch (IOException e) {
      // Named by the directory: the part file is ours, the directory is what the user can fix.
      throw new LocalFileException(reason(e) + ": " + parent + " (writing " + target.getFileName()
          + " there)", e);
    }
  }

  /** The file written (after directories and links are resolved); null for stdout. */
  public Path target() {
    return target;
  }

  /** Where the bytes go now (the {@code .part} file for a regular target). */
  public OutputStream stream() {
    return out;
  }

  /** Flushes and closes the stream and, for a regular target, renames the part file over it. */
  public void commit() throws IOException {
    try {
      out.close();
      if (partial != null) {
        Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.ATOMIC_MOVE);
      }
    } catch (IOException e) {
      throw describe(e, target);
    }
    committed = true;
  }

  /** Without a {@link #commit()}: closes the stream and removes the part file. */
  @Override
  public void close() throws IOException {
    if (committed) {
      return;
    }
    try {
      out.close();
    } catch (IOException ignored) {
      // failing already; the part file goes anyway
    } finally {
      if (partial != null) {
        Files.deleteIfExists(partial);
      }
    }
  }

  /**
   * An I/O error on a local path as the OS names it ("Permission denied: PATH"), typed as a
   * {@link LocalFileException}.
   */
  public static LocalFileException describe(IOException e, Path path) {
    if (e instanceof LocalFileException) {
      return (LocalFileException) e;
    }
    String where = e instanceof FileSystemException && ((FileSystemException) e).getFile() != null
        ? ((FileSystemException) e).getFile() : String.valueOf(path);
    return new LocalFileException(reason(e) + ": " + where, e);
  }

  /** The OS's name for the error: "Permission denied", "No such file or directory". */
  private static String reason(IOException e) {
    String what;
    if (e instanceof AccessDeniedException) {
      what = "Permission denied";
    } else if (e instanceof NoSuchFileException || e instanceof FileNotFoundException) {
      what = "No such file or directory";
    } else if (e instanceof NotDirectoryException) {
      what = "Not a directory";
    } else if (e instanceof FileSystemException && ((FileSystemException) e).getReason() != null) {
      what = ((FileSystemException) e).getReason();
    } else {
      what = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
    return what;
  }

  /** The key's last {@code /}-separated segment: the file name a directory target gets. */
  static String lastSegment(String key) {
    String name = key.substring(key.lastIndexOf('/') + 1);
    if (name.isEmpty() || name.equals(".") || name.equals("..")) {
      throw new IllegalArgumentException("key '" + key + "' has no last segment to name a file"
          + " in a directory: give the file name");
    }
    return name;
  }

  /** Follows symbolic links (relative ones from their own directory) to what they name. */
  private static Path followLinks(Path path) throws IOException {
    for (int hops = 0; Files.isSymbolicLink(path); hops++) {
      if (hops == 40) {
        throw new LocalFileException("Too many levels of symbolic links: " + path, null);
      }
      path = path.getParent().resolve(Files.readSymbolicLink(path)).normalize();
    }
    return path.toAbsolutePath();
  }

  private static OutputStream nonClosing(OutputStream out) {
    return new FilterOutputStream(out) {
      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        flush();
      }
    };
  }
}
