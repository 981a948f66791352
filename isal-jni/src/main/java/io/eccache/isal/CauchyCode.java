package io.eccache.isal;

/**
 * The systematic (k, r) Reed-Solomon code with a Cauchy generator matrix over {@link GaloisField}: the
 * first k rows are the identity; parity row {@code i} (for {@code k <= i < k + r}) has entries
 * {@code 1 / (i XOR j)} as ISA-L's {@code gf_gen_cauchy1_matrix} builds it ({@link CodeMatrix#CAUCHY}),
 * or those entries times {@code k XOR j} ({@link CodeMatrix#XOR_FIRST_CAUCHY}, whose row k is all ones).
 *
 * <p>Every square submatrix of a Cauchy matrix, scaled by columns or not, is invertible, so any k of
 * the k + r units decode; and a parity row depends only on its index and k, never on r, so parities
 * can be added to or dropped from a stored object later without touching the others. This class is
 * pure logic shared by the native and the Java coder: it turns an erasure pattern into the
 * coefficient rows that rebuild the lost units.
 */
final class CauchyCode {
  private final int k;
  private final int r;
  /** (k + r) x k, row-major. */
  private final byte[] generator;

  CauchyCode(int k, int r, CodeMatrix matrix) {
    ReedSolomon.checkCode(k, r);
    this.k = k;
    this.r = r;
    this.generator = generatorMatrix(k, k + r, matrix);
  }

  /** The m x k Cauchy generator matrix, row-major; identical to ISA-L's {@code gf_gen_cauchy1_matrix}. */
  static byte[] generatorMatrix(int k, int m) {
    return generatorMatrix(k, m, CodeMatrix.CAUCHY);
  }

  /** The m x k generator matrix of {@code matrix}, row-major. */
  static byte[] generatorMatrix(int k, int m, CodeMatrix matrix) {
    byte[] a = new byte[m * k];
    for (int i = 0; i < k; i++) {
      a[i * k + i] = 1;
    }
    for (int i = k; i < m; i++) {
      for (int j = 0; j < k; j++) {
        byte cauchy = GaloisField.inv((byte) (i ^ j));
        // k ^ j is 1 / (entry j of row k): column j scaled so that row k becomes all ones.
        a[i * k + j] = matrix == CodeMatrix.CAUCHY ? cauchy : GaloisField.mul(cauchy, (byte) (k ^ j));
      }
    }
    return a;
  }

  int k() {
    return k;
  }

  int r() {
    return r;
  }

  /** The r x k coefficients that turn the k data units into the r parity units. */
  byte[] parityRows() {
    byte[] rows = new byte[r * k];
    System.arraycopy(generator, k * k, rows, 0, r * k);
    return rows;
  }

  /** The coefficients of parity rows {@code chosen} (each in 0..r-1), in that order: chosen.length x k. */
  byte[] parityRows(int[] chosen) {
    byte[] rows = new byte[chosen.length * k];
    for (int i = 0; i < chosen.length; i++) {
      System.arraycopy(generator, (k + chosen[i]) * k, rows, i * k, k);
    }
    return rows;
  }

  /**
   * The coefficients that rebuild units {@code wanted} (data or parity, in that order) from the k units
   * {@code survivors}, as a {@code wanted.length x k} row-major matrix whose column j multiplies
   * survivor j.
   */
  byte[] decodeRows(int[] survivors, int[] wanted) {
    byte[] chosen = new byte[k * k];
    for (int i = 0; i < k; i++) {
      System.arraycopy(generator, survivors[i] * k, chosen, i * k, k);
    }
    // data = inverse x survivors, and unit u = generator[u] x data = (generator[u] x inverse) x survivors.
    byte[] inverse = GaloisField.invert(chosen, k);
    byte[] rows = new byte[wanted.length * k];
    for (int w = 0; w < wanted.length; w++) {
      int unit = wanted[w];
      if (unit < k) {
        System.arraycopy(inverse, unit * k, rows, w * k, k);
        continue;
      }
      for (int j = 0; j < k; j++) {
        byte sum = 0;
        for (int l = 0; l < k; l++) {
          sum ^= GaloisField.mul(generator[unit * k + l], inverse[l * k + j]);
        }
        rows[w * k + j] = sum;
      }
    }
    return rows;
  }
}
