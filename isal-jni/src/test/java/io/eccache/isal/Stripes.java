package io.eccache.isal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Test data: direct buffers of random bytes, placed at a non-zero position to catch offset bugs. */
final class Stripes {
  private Stripes() {}

  /** count direct buffers whose [position, limit) holds len random bytes, position = pad. */
  static ByteBuffer[] random(int count, int len, long seed) {
    Random random = new Random(seed);
    ByteBuffer[] buffers = new ByteBuffer[count];
    for (int i = 0; i < count; i++) {
      int pad = 1 + random.nextInt(7);
      byte[] bytes = new byte[len + 2 * pad];
      random.nextBytes(bytes);
      ByteBuffer b = ByteBuffer.allocateDirect(bytes.length);
      b.put(bytes).position(pad).limit(pad + len);
      buffers[i] = b;
    }
    return buffers;
  }

  /** count direct buffers of len bytes filled with garbage, so an output that is not written shows. */
  static ByteBuffer[] empty(int count, int len) {
    ByteBuffer[] buffers = new ByteBuffer[count];
    for (int i = 0; i < count; i++) {
      ByteBuffer b = ByteBuffer.allocateDirect(len + 3);
      while (b.hasRemaining()) {
        b.put((byte) 0x5a);
      }
      b.position(3);
      buffers[i] = b;
    }
    return buffers;
  }

  /** The unit's bytes, without moving the buffer. */
  static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  static ErasureCoder[] bothCoders(int k, int r) {
    return new ErasureCoder[] {
        ReedSolomon.coder(k, r, ReedSolomon.Implementation.NATIVE),
        ReedSolomon.coder(k, r, ReedSolomon.Implementation.JAVA)};
  }

  static ErasureCoder[] bothCoders(int k, int r, CodeMatrix matrix) {
    return new ErasureCoder[] {
        ReedSolomon.coder(k, r, matrix, ReedSolomon.Implementation.NATIVE),
        ReedSolomon.coder(k, r, matrix, ReedSolomon.Implementation.JAVA)};
  }

  /** Every k-element subset of {0, ..., n - 1}, each in ascending order. */
  static List<int[]> subsets(int n, int k) {
    List<int[]> out = new ArrayList<>();
    subsets(n, k, 0, new int[k], 0, out);
    return out;
  }

  private static void subsets(int n, int k, int start, int[] current, int depth, List<int[]> out) {
    if (depth == k) {
      out.add(current.clone());
      return;
    }
    for (int i = start; i < n; i++) {
      current[depth] = i;
      subsets(n, k, i + 1, current, depth + 1, out);
    }
  }
}
