package io.eccache.hadoop;

import io.eccache.client.SeekableObjectStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileSystem;

/**
 * An eccache object as Hadoop sees an open file: {@code Seekable}, {@code PositionedReadable} and
 * {@link ByteBufferReadable} over the client's {@link SeekableObjectStream}, which reads only the
 * stripes a read needs. A positioned read (Parquet's footer and column chunks) neither moves the
 * stream nor reads its window.
 */
final class EcCacheInputStream extends FSInputStream implements ByteBufferReadable {
  private final SeekableObjectStream in;
  private final FileSystem.Statistics statistics;

  EcCacheInputStream(SeekableObjectStream in, FileSystem.Statistics statistics) {
    this.in = in;
    this.statistics = statistics;
  }

  @Override
  public void seek(long pos) throws IOException {
    in.seek(pos);
  }

  @Override
  public long getPos() throws IOException {
    return in.getPos();
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false; // every read already binds late to the splits that answer first
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b >= 0) {
      count(1);
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    return count(in.read(b, off, len));
  }

  @Override
  public int read(long position, byte[] b, int off, int len) throws IOException {
    return count(in.read(position, b, off, len));
  }

  @Override
  public void readFully(long position, byte[] b, int off, int len) throws IOException {
    in.readFully(position, b, off, len);
    count(len);
  }

  @Override
  public void readFully(long position, byte[] b) throws IOException {
    readFully(position, b, 0, b.length);
  }

  @Override
  public int read(ByteBuffer buf) throws IOException {
    if (buf.hasArray()) {
      int n = read(buf.array(), buf.arrayOffset() + buf.position(), buf.remaining());
      if (n > 0) {
        buf.position(buf.position() + n);
      }
      return n;
    }
    byte[] copy = new byte[Math.min(buf.remaining(), 1 << 20)];
    int n = read(copy, 0, copy.length);
    if (n > 0) {
      buf.put(copy, 0, n);
    }
    return n;
  }

  @Override
  public int available() throws IOException {
    return in.available();
  }

  @Override
  public long skip(long n) throws IOException {
    if (n <= 0) {
      return 0;
    }
    long pos = in.getPos();
    long to = Math.min(in.size(), pos + n);
    in.seek(to);
    return to - pos;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  private int count(int n) {
    if (n > 0 && statistics != null) {
      statistics.incrementBytesRead(n);
    }
    return n;
  }
}
