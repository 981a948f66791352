package io.eccache.isal;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/** Test helpers for parity updates: the coders under test and an independent reference. */
final class Deltas {
  private Deltas() {}

  /** The coders under test: native with addresses read in Java, native via JNI lookups, Java. */
  static List<ErasureCoder> coders(int k, int r, CodeMatrix matrix) {
    return List.of(new NativeReedSolomonCoder(k, r, matrix, true),
        new NativeReedSolomonCoder(k, r, matrix, false), new JavaReedSolomonCoder(k, r, matrix));
  }

  /** count heap buffers of len bytes filled with garbage, in one array, at non-zero offsets. */
  static ByteBuffer[] heapGarbage(int count, int len) {
    byte[] array = new byte[count * (len + 3) + 1];
    Arrays.fill(array, (byte) 0x5a);
    ByteBuffer[] buffers = new ByteBuffer[count];
    for (int i = 0; i < count; i++) {
      buffers[i] = ByteBuffer.wrap(array, 1 + i * (len + 3), len).slice();
    }
    return buffers;
  }

  /** The parity of {@code data} by the all-direct native encode. */
  static byte[][] encode(int k, int r, CodeMatrix matrix, byte[][] data) {
    ByteBuffer[] in = new ByteBuffer[k];
    for (int i = 0; i < k; i++) {
      in[i] = ByteBuffer.allocateDirect(data[i].length).put(data[i]).flip();
    }
    ByteBuffer[] out = Stripes.empty(r, data[0].length);
    ReedSolomon.coder(k, r, matrix, ReedSolomon.Implementation.NATIVE).encode(in, out);
    byte[][] parity = new byte[r][];
    for (int i = 0; i < r; i++) {
      parity[i] = Stripes.bytes(out[i]);
    }
    return parity;
  }

  /** The coefficient of data unit {@code unit} in parity row {@code row}, from the matrix itself. */
  static byte coefficient(ErasureCoder coder, int row, int unit) {
    int k = coder.dataUnits();
    byte[] g = CauchyCode.generatorMatrix(k, k + row + 1, coder.codeMatrix());
    return g[(k + row) * k + unit];
  }

  /** c x bytes, one byte at a time. */
  static byte[] times(byte c, byte[] bytes) {
    byte[] out = new byte[bytes.length];
    for (int b = 0; b < bytes.length; b++) {
      out[b] = GaloisField.mul(c, bytes[b]);
    }
    return out;
  }

  /** A view of {@code n} bytes of a unit from byte {@code from}. */
  static ByteBuffer range(ByteBuffer unit, int from, int n) {
    ByteBuffer view = unit.duplicate();
    view.position(unit.position() + from).limit(unit.position() + from + n);
    return view;
  }
}
