package io.eccache.client;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * Where a PUT's bytes come from: an array (its data cells written from it as they are) or a stream
 * (through a small chunk).
 */
abstract class ByteSource {
  /** Fills {@code dst} up to its limit; returns the bytes put, less only at the end of the data. */
  abstract int fill(ByteBuffer dst) throws IOException;

  /** Up to {@code max} bytes, fewer only at the end of the data. */
  byte[] readUpTo(int max) throws IOException {
    ByteBuffer head = ByteBuffer.allocate(max);
    fill(head);
    return java.util.Arrays.copyOf(head.array(), head.position());
  }

  static ByteSource of(byte[] data) {
    return new ArraySource(data);
  }

  /**
   * The whole object as one array when {@code source} is an array no byte of which was read yet,
   * so a PUT can write its data cells from it without staging them; else null.
   */
  static byte[] wholeArray(ByteSource source) {
    return source instanceof ArraySource && ((ArraySource) source).at == 0
        ? ((ArraySource) source).data : null;
  }

  /** The bytes of a caller's array (never copied until read). */
  private static final class ArraySource extends ByteSource {
    private final byte[] data;
    private int at;

    ArraySource(byte[] data) {
      this.data = data;
    }

    @Override
    int fill(ByteBuffer dst) {
      int n = Math.min(dst.remaining(), data.length - at);
      dst.put(data, at, n);
      at += n;
      return n;
    }
  }

  /** {@code head}, then what {@code rest} yields. */
  static ByteSource concat(byte[] head, ByteSource rest) {
    ByteSource first = of(head);
    return new ByteSource() {
      @Override
      int fill(ByteBuffer dst) throws IOException {
        int n = first.fill(dst);
        return dst.hasRemaining() ? n + rest.fill(dst) : n;
      }
    };
  }

  /**
   * What {@code source} yields, also fed to {@code digest} as it passes, so a PUT computes the
   * object's checksum in the same pass that writes it.
   */
  static ByteSource digesting(ByteSource source, java.security.MessageDigest digest) {
    return new ByteSource() {
      @Override
      int fill(ByteBuffer dst) throws IOException {
        int start = dst.position();
        int n = source.fill(dst);
        digest.update(dst.duplicate().limit(start + n).position(start));
        return n;
      }
    };
  }

  static ByteSource of(InputStream in) {
    return new ByteSource() {
      private final byte[] chunk = new byte[64 << 10];

      @Override
      int fill(ByteBuffer dst) throws IOException {
        int total = 0;
        while (dst.hasRemaining()) {
          int n = in.read(chunk, 0, Math.min(chunk.length, dst.remaining()));
          if (n < 0) {
            break;
          }
          dst.put(chunk, 0, n);
          total += n;
        }
        return total;
      }
    };
  }
}
