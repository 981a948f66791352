package io.eccache.isal;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The pure-Java twin of {@link NativeReedSolomonCoder}: the same code, field and plans, so its output
 * is byte-identical; table-driven GF(2^8) arithmetic, one byte at a time. It is the fallback where the
 * native library cannot load and the reference the native coder is tested against.
 */
final class JavaReedSolomonCoder extends AbstractReedSolomonCoder<byte[][][]> {
  /** Bytes per pass: one input slice and the output accumulators stay in the L1/L2 cache. */
  private static final int SLICE = 4096;

  /** Per-thread slice buffers, so concurrent callers never share scratch space. */
  private static final ThreadLocal<byte[][]> SCRATCH = new ThreadLocal<>();

  JavaReedSolomonCoder(int k, int r) {
    this(k, r, CodeMatrix.CAUCHY);
  }

  JavaReedSolomonCoder(int k, int r, CodeMatrix matrix) {
    super(k, r, matrix);
  }

  /** The plan: for output i and input j, the 256-byte product table of coefficient (i, j). */
  @Override
  byte[][][] compile(byte[] coefficients, int rows) {
    int k = coefficients.length / rows;
    byte[][][] tables = new byte[rows][k][];
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < k; j++) {
        tables[i][j] = GaloisField.row(coefficients[i * k + j]);
      }
    }
    return tables;
  }

  @Override
  void apply(byte[][][] tables, ByteBuffer[] inputs, ByteBuffer[] outputs, int len) {
    int k = inputs.length;
    int rows = outputs.length;
    byte[][] scratch = scratch(rows + 1);
    byte[] slice = scratch[rows];
    // Duplicates: relative bulk gets and puts must not move the caller's positions.
    ByteBuffer[] in = new ByteBuffer[k];
    ByteBuffer[] out = new ByteBuffer[rows];
    for (int j = 0; j < k; j++) {
      in[j] = inputs[j].duplicate();
    }
    for (int i = 0; i < rows; i++) {
      out[i] = outputs[i].duplicate();
    }
    for (int done = 0; done < len; done += SLICE) {
      int n = Math.min(SLICE, len - done);
      for (int i = 0; i < rows; i++) {
        Arrays.fill(scratch[i], 0, n, (byte) 0);
      }
      for (int j = 0; j < k; j++) {
        in[j].get(slice, 0, n);
        for (int i = 0; i < rows; i++) {
          multiplyAdd(tables[i][j], slice, scratch[i], n);
        }
      }
      for (int i = 0; i < rows; i++) {
        out[i].put(scratch[i], 0, n);
      }
    }
  }

  @Override
  void applyDelta(byte[][][] tables, int dataIndex, ByteBuffer delta, ByteBuffer[] outputs, int len,
      boolean overwrite) {
    byte[][] scratch = scratch(2);
    byte[] slice = scratch[0];
    byte[] acc = scratch[1];
    // Duplicates: relative bulk gets and puts must not move the caller's positions.
    ByteBuffer in = delta.duplicate();
    ByteBuffer[] out = new ByteBuffer[outputs.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = outputs[i].duplicate();
    }
    for (int done = 0; done < len; done += SLICE) {
      int n = Math.min(SLICE, len - done);
      in.get(slice, 0, n);
      for (int i = 0; i < out.length; i++) {
        if (overwrite) {
          Arrays.fill(acc, 0, n, (byte) 0);
        } else {
          int at = out[i].position();
          out[i].get(acc, 0, n).position(at);
        }
        multiplyAdd(tables[i][dataIndex], slice, acc, n);
        out[i].put(acc, 0, n);
      }
    }
  }

  /** acc[b] ^= c x src[b], with {@code product} the table of c. */
  private static void multiplyAdd(byte[] product, byte[] src, byte[] acc, int n) {
    if (product[1] == 0) {
      return; // c == 0
    }
    if (product[1] == 1) { // c == 1: plain XOR
      for (int b = 0; b < n; b++) {
        acc[b] ^= src[b];
      }
      return;
    }
    for (int b = 0; b < n; b++) {
      acc[b] ^= product[src[b] & 0xff];
    }
  }

  private static byte[][] scratch(int count) {
    byte[][] s = SCRATCH.get();
    if (s == null || s.length < count) {
      s = new byte[count][SLICE];
      SCRATCH.set(s);
    }
    return s;
  }

  @Override
  public ReedSolomon.Implementation implementation() {
    return ReedSolomon.Implementation.JAVA;
  }
}
