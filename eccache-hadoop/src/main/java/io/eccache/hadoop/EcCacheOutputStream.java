package io.eccache.hadoop;

import io.eccache.client.EcCacheClient;
import io.eccache.client.PutOptions;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file being created: its bytes go to a local buffer file (so memory stays small whatever the
 * size, and a writer that fails half way leaves nothing behind), and {@link #close()} PUTs the
 * object, streamed, with its exact length. The object becomes visible, whole, when close returns;
 * until then readers see the previous version or nothing. The buffer file is deleted on every path.
 */
final class EcCacheOutputStream extends OutputStream {
  private final EcCacheClient client;
  private final String key;
  private final PutOptions options;
  private final Path buffer;
  private final OutputStream out;
  private long length;
  private boolean closed;

  EcCacheOutputStream(EcCacheClient client, String key, PutOptions options, Path bufferDir)
      throws IOException {
    this.client = client;
    this.key = key;
    this.options = options;
    Files.createDirectories(bufferDir);
    this.buffer = Files.createTempFile(bufferDir, "eccache-put-", ".buf");
    try {
      this.out = new BufferedOutputStream(Files.newOutputStream(buffer), 1 << 16);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(buffer);
      throw e;
    }
  }

  @Override
  public void write(int b) throws IOException {
    checkOpen();
    out.write(b);
    length++;
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    checkOpen();
    out.write(b, off, len);
    length += len;
  }

  @Override
  public void flush() throws IOException {
    checkOpen();
    out.flush(); // the object itself appears at close only
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException("the output stream of '" + key + "' is closed");
    }
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      out.close();
      try (InputStream in = Files.newInputStream(buffer)) {
        client.put(key, in, length, options);
      }
    } finally {
      Files.deleteIfExists(buffer);
    }
  }
}
