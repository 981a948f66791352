package io.eccache.isal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The XOR-first matrix: parity 0 is the XOR of the data, the code is MDS (any k units decode), both
 * implementations produce the same bytes, and choosing it leaves the default CAUCHY coder as it was.
 */
class CodeMatrixTest {
  private static final CodeMatrix XOR_FIRST = CodeMatrix.XOR_FIRST_CAUCHY;
  private static final int LEN = 777;

  @BeforeAll
  static void nativeLoaded() {
    assertTrue(IsalLibrary.isAvailable(), () -> "native library: " + IsalLibrary.loadingFailureReason());
  }

  @ParameterizedTest
  @EnumSource(ReedSolomon.Implementation.class)
  void theDefaultIsCauchyAndCodersAreCachedPerMatrix(ReedSolomon.Implementation impl) {
    ErasureCoder plain = ReedSolomon.coder(6, 3, impl);
    assertSame(plain, ReedSolomon.coder(6, 3, CodeMatrix.CAUCHY, impl));
    assertEquals(CodeMatrix.CAUCHY, plain.codeMatrix());
    ErasureCoder xor = ReedSolomon.coder(6, 3, XOR_FIRST, impl);
    assertNotSame(plain, xor);
    assertSame(xor, ReedSolomon.coder(6, 3, XOR_FIRST, impl));
    assertEquals(XOR_FIRST, xor.codeMatrix());
    assertEquals(impl, xor.implementation());
    assertEquals(6, xor.dataUnits());
    assertEquals(3, xor.parityUnits());
    assertTrue(xor.toString().endsWith("(k=6, r=3, XOR_FIRST_CAUCHY)"), xor.toString());
    assertTrue(plain.toString().endsWith("(k=6, r=3)"), plain.toString());
    // Neighbouring codes get coders of their own.
    assertEquals(7, ReedSolomon.coder(6, 7, XOR_FIRST, impl).parityUnits());
    assertEquals(7, ReedSolomon.coder(7, 3, XOR_FIRST, impl).dataUnits());
    MisuseTest.rejects(() -> ReedSolomon.coder(6, 3, null, impl), "matrix must not be null");
    MisuseTest.rejects(() -> ReedSolomon.coder(6, 3, XOR_FIRST, null),
        "implementation must not be null");
    MisuseTest.rejects(() -> ReedSolomon.coder(250, 6, XOR_FIRST, impl), "k + r <= 255");
  }

  @Test
  void theConfiguredImplementationServesBothMatrices() {
    assertSame(ReedSolomon.coder(6, 3), ReedSolomon.coder(6, 3, CodeMatrix.CAUCHY));
    assertEquals(ReedSolomon.defaultImplementation(),
        ReedSolomon.coder(6, 3, XOR_FIRST).implementation());
  }

  @Test
  void parityRowZeroIsAllOnesAndEveryRowIsACauchyRowWithColumnsScaled() {
    for (int k = 1; k < ReedSolomon.MAX_UNITS; k++) {
      byte[] cauchy = CauchyCode.generatorMatrix(k, ReedSolomon.MAX_UNITS);
      byte[] xor = CauchyCode.generatorMatrix(k, ReedSolomon.MAX_UNITS, XOR_FIRST);
      assertArrayEquals(Arrays.copyOf(cauchy, k * k), Arrays.copyOf(xor, k * k),
          "identity, k=" + k);
      for (int j = 0; j < k; j++) {
        assertEquals(1, xor[k * k + j], "row k is all ones, k=" + k + " column " + j);
      }
      for (int i = k; i < ReedSolomon.MAX_UNITS; i++) {
        for (int j = 0; j < k; j++) {
          // Column j of the XOR-first matrix is column j of CAUCHY times 1 / cauchy(k, j).
          byte scale = GaloisField.inv(cauchy[k * k + j]);
          assertEquals(GaloisField.mul(cauchy[i * k + j], scale), xor[i * k + j]);
        }
      }
      // A parity row depends on its index and k only: the first rows of a shorter code are the same.
      for (int m : new int[] {k + 1, Math.min(ReedSolomon.MAX_UNITS, k + 4)}) {
        assertArrayEquals(Arrays.copyOf(xor, m * k), CauchyCode.generatorMatrix(k, m, XOR_FIRST),
            "k=" + k + " m=" + m);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(CodeMatrix.class)
  void everySquareSubmatrixOfTheParityRowsIsInvertible(CodeMatrix matrix) {
    // Any k of [I; P] are invertible iff every square submatrix of P is: the MDS property.
    int checked = 0;
    for (int k = 1; k <= 10; k++) {
      for (int r = 1; r <= 6; r++) {
        byte[] g = CauchyCode.generatorMatrix(k, k + r, matrix);
        byte[] parity = Arrays.copyOfRange(g, k * k, (k + r) * k);
        String singular = singularSubmatrix(parity, r, k);
        assertNull(singular, matrix + " k=" + k + " r=" + r + ": " + singular);
        checked++;
      }
    }
    assertEquals(60, checked);
  }

  @Test
  void theSubmatrixCheckFindsASingularOne() {
    // Columns 0 and 2 are equal in rows 1 and 2: that 2 x 2 submatrix is singular.
    byte[] p = {1, 2, 3, 4, 5, 4, 6, 7, 6};
    assertNotNull(singularSubmatrix(p, 3, 3));
  }

  static List<Arguments> codesAndLengths() {
    List<Arguments> cases = new ArrayList<>();
    int[][] codes = {{1, 1}, {2, 1}, {3, 2}, {6, 3}, {10, 4}, {12, 4}, {20, 6}, {8, 10}, {64, 4},
        {128, 4}, {251, 4}};
    for (int[] code : codes) {
      for (int len : new int[] {1, 63, 4097, (1 << 20) + 3}) {
        if (len < (1 << 20) || code[0] <= 12) {
          cases.add(Arguments.of(code[0], code[1], len));
        }
      }
    }
    return cases;
  }

  @ParameterizedTest(name = "RS({0},{1}) len {2}")
  @MethodSource("codesAndLengths")
  void firstParityIsTheXorOfTheDataAndBothImplementationsAgree(int k, int r, int len) {
    ByteBuffer[] data = Stripes.random(k, len, 17L * k + r + len);
    byte[] xor = new byte[len];
    for (ByteBuffer unit : data) {
      byte[] bytes = Stripes.bytes(unit);
      for (int b = 0; b < len; b++) {
        xor[b] ^= bytes[b];
      }
    }
    ErasureCoder[] coders = Stripes.bothCoders(k, r, XOR_FIRST);
    ByteBuffer[][] parity = new ByteBuffer[coders.length][];
    for (int c = 0; c < coders.length; c++) {
      parity[c] = Stripes.empty(r, len);
      coders[c].encode(data, parity[c]);
      assertArrayEquals(xor, Stripes.bytes(parity[c][0]), coders[c] + ": parity 0 is the XOR");
    }
    for (int i = 0; i < r; i++) {
      assertArrayEquals(Stripes.bytes(parity[1][i]), Stripes.bytes(parity[0][i]),
          "native vs Java, parity " + i);
    }
    if (k > 1 && len > 1) {
      // Not what the CAUCHY code computes: its first parity is no XOR.
      ByteBuffer[] cauchy = Stripes.empty(r, len);
      ReedSolomon.coder(k, r, ReedSolomon.Implementation.NATIVE).encode(data, cauchy);
      assertFalse(Arrays.equals(xor, Stripes.bytes(cauchy[0])));
    }
  }

  @Test
  void parityRowDoesNotDependOnR() {
    int k = 10;
    ByteBuffer[] data = Stripes.random(k, LEN, 8);
    ByteBuffer[] two = Stripes.empty(2, LEN);
    ByteBuffer[] five = Stripes.empty(5, LEN);
    ReedSolomon.coder(k, 2, XOR_FIRST).encode(data, two);
    ReedSolomon.coder(k, 5, XOR_FIRST).encode(data, five);
    for (int i = 0; i < 2; i++) {
      assertArrayEquals(Stripes.bytes(two[i]), Stripes.bytes(five[i]), "parity " + i);
    }
  }

  @ParameterizedTest(name = "RS({0},{1}) every subset")
  @CsvSource({"1,1", "2,1", "1,3", "2,2", "3,2", "3,3", "4,4", "6,3", "5,6", "8,4"})
  void everyKSubsetRebuildsEveryOtherUnit(int k, int r) {
    List<int[]> subsets = Stripes.subsets(k + r, k);
    for (ErasureCoder coder : Stripes.bothCoders(k, r, XOR_FIRST)) {
      ByteBuffer[] all = DecodeTest.encodedStripe(coder, LEN, k * 100 + r);
      for (int[] survivors : subsets) {
        DecodeTest.checkRebuild(coder, all, survivors);
      }
    }
  }

  @ParameterizedTest(name = "RS({0},{1}) random subsets")
  @CsvSource({"10,4", "20,6", "12,20", "64,4", "128,4", "100,50", "251,4"})
  void randomSubsetsRebuildEveryOtherUnit(int k, int r) {
    Random random = new Random(k * 1000L + r);
    int trials = k > 100 ? 6 : 20;
    for (ErasureCoder coder : Stripes.bothCoders(k, r, XOR_FIRST)) {
      ByteBuffer[] all = DecodeTest.encodedStripe(coder, LEN, k + r);
      List<Integer> units = new ArrayList<>();
      for (int i = 0; i < k + r; i++) {
        units.add(i);
      }
      for (int trial = 0; trial < trials; trial++) {
        Collections.shuffle(units, random);
        int[] survivors =
            units.subList(0, k).stream().mapToInt(Integer::intValue).sorted().toArray();
        DecodeTest.checkRebuild(coder, all, survivors);
      }
      // Every parity read, and only the last data units.
      int[] parityFirst = new int[k];
      for (int i = 0; i < k; i++) {
        parityFirst[i] = r + i;
      }
      DecodeTest.checkRebuild(coder, all, parityFirst);
    }
  }

  /**
   * A square submatrix of the {@code rows x cols} matrix {@code m} that is singular, described, or
   * null if there is none; every one is tried.
   */
  private static String singularSubmatrix(byte[] m, int rows, int cols) {
    for (int size = 1; size <= Math.min(rows, cols); size++) {
      for (int[] rowSet : Stripes.subsets(rows, size)) {
        for (int[] colSet : Stripes.subsets(cols, size)) {
          byte[] sub = new byte[size * size];
          for (int i = 0; i < size; i++) {
            for (int j = 0; j < size; j++) {
              sub[i * size + j] = m[rowSet[i] * cols + colSet[j]];
            }
          }
          try {
            GaloisField.invert(sub, size);
          } catch (IllegalArgumentException singular) {
            return "rows " + Arrays.toString(rowSet) + " columns " + Arrays.toString(colSet);
          }
        }
      }
    }
    return null;
  }
}
