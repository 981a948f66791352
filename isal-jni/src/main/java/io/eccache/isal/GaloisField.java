package io.eccache.isal;

/**
 * Arithmetic in GF(2^8) with the primitive polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11d) and
 * generator 2: the field ISA-L and Hadoop's Reed-Solomon coders use, so all three agree byte for byte.
 */
final class GaloisField {
  private static final int POLYNOMIAL = 0x11d;

  /** EXP[i] = 2^i, doubled in length so that EXP[LOG[a] + LOG[b]] needs no modulo. */
  private static final byte[] EXP = new byte[510];
  private static final int[] LOG = new int[256];
  /** MUL[a][b] = a * b: one 256-byte row per coefficient, the pure-Java coder's inner loop table. */
  private static final byte[][] MUL = new byte[256][256];

  static {
    int x = 1;
    for (int i = 0; i < 255; i++) {
      EXP[i] = (byte) x;
      EXP[i + 255] = (byte) x;
      LOG[x] = i;
      x <<= 1;
      if (x >= 256) {
        x ^= POLYNOMIAL;
      }
    }
    for (int a = 0; a < 256; a++) {
      for (int b = 0; b < 256; b++) {
        MUL[a][b] = a == 0 || b == 0 ? 0 : EXP[LOG[a] + LOG[b]];
      }
    }
  }

  private GaloisField() {}

  static byte mul(byte a, byte b) {
    return MUL[a & 0xff][b & 0xff];
  }

  /** The product table of coefficient {@code c}: {@code row(c)[x & 0xff] == c * x}. */
  static byte[] row(byte c) {
    return MUL[c & 0xff];
  }

  /** The multiplicative inverse; 0 has none and maps to 0, as in ISA-L's {@code gf_inv}. */
  static byte inv(byte a) {
    int v = a & 0xff;
    return v == 0 ? 0 : EXP[255 - LOG[v]];
  }

  /**
   * Inverts the n x n row-major matrix {@code m} by Gauss-Jordan elimination.
   *
   * @throws IllegalArgumentException if the matrix is singular
   */
  static byte[] invert(byte[] m, int n) {
    byte[] a = m.clone();
    byte[] out = new byte[n * n];
    for (int i = 0; i < n; i++) {
      out[i * n + i] = 1;
    }
    for (int col = 0; col < n; col++) {
      int pivot = col;
      while (pivot < n && a[pivot * n + col] == 0) {
        pivot++;
      }
      if (pivot == n) {
        throw new IllegalArgumentException("matrix is singular (column " + col + " has no pivot)");
      }
      if (pivot != col) {
        swapRows(a, n, pivot, col);
        swapRows(out, n, pivot, col);
      }
      byte[] scale = row(inv(a[col * n + col]));
      for (int j = 0; j < n; j++) {
        a[col * n + j] = scale[a[col * n + j] & 0xff];
        out[col * n + j] = scale[out[col * n + j] & 0xff];
      }
      for (int i = 0; i < n; i++) {
        byte factor = a[i * n + col];
        if (i == col || factor == 0) {
          continue;
        }
        byte[] f = row(factor);
        for (int j = 0; j < n; j++) {
          a[i * n + j] ^= f[a[col * n + j] & 0xff];
          out[i * n + j] ^= f[out[col * n + j] & 0xff];
        }
      }
    }
    return out;
  }

  private static void swapRows(byte[] m, int n, int r1, int r2) {
    for (int j = 0; j < n; j++) {
      byte t = m[r1 * n + j];
      m[r1 * n + j] = m[r2 * n + j];
      m[r2 * n + j] = t;
    }
  }
}
