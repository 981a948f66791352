package io.eccache.isal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.erasurecode.ErasureCoderOptions;
import org.apache.hadoop.io.erasurecode.rawcoder.RSRawEncoder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The native coder, the Java twin and Hadoop's pure-Java coder compute the same parity bytes. */
class ParityEquivalenceTest {
  private static final int[][] CODES = {{2, 1}, {3, 2}, {6, 3}, {10, 1}, {10, 4}, {12, 4}, {20, 6}};
  private static final int[] LENGTHS = {1, 7, 64, 4097, (1 << 20) + 3};

  @BeforeAll
  static void nativeLoaded() {
    assertTrue(IsalLibrary.isAvailable(), () -> "native library: " + IsalLibrary.loadingFailureReason());
  }

  static List<Arguments> codesAndLengths() {
    List<Arguments> cases = new ArrayList<>();
    for (int[] code : CODES) {
      for (int len : LENGTHS) {
        cases.add(Arguments.of(code[0], code[1], len));
      }
    }
    return cases;
  }

  @ParameterizedTest(name = "RS({0},{1}) len {2}")
  @MethodSource("codesAndLengths")
  void nativeJavaAndHadoopParityAreIdentical(int k, int r, int len) throws IOException {
    ByteBuffer[] data = Stripes.random(k, len, 31L * k + r + len);
    ByteBuffer[] nativeParity = Stripes.empty(r, len);
    ByteBuffer[] javaParity = Stripes.empty(r, len);
    ReedSolomon.coder(k, r, ReedSolomon.Implementation.NATIVE).encode(data, nativeParity);
    ReedSolomon.coder(k, r, ReedSolomon.Implementation.JAVA).encode(data, javaParity);

    byte[][] hadoopData = new byte[k][];
    for (int i = 0; i < k; i++) {
      hadoopData[i] = Stripes.bytes(data[i]);
    }
    byte[][] hadoopParity = new byte[r][len];
    new RSRawEncoder(new ErasureCoderOptions(k, r)).encode(hadoopData, hadoopParity);

    for (int i = 0; i < r; i++) {
      byte[] expected = Stripes.bytes(javaParity[i]);
      assertArrayEquals(expected, Stripes.bytes(nativeParity[i]), "native vs Java, parity " + i);
      assertArrayEquals(expected, hadoopParity[i], "Hadoop vs Java, parity " + i);
    }
  }

  @Test
  void bothWaysOfPassingBuffersToJniAgree() {
    int k = 12;
    int r = 4;
    ErasureCoder viaJava = new NativeReedSolomonCoder(k, r, true);
    ErasureCoder viaJni = new NativeReedSolomonCoder(k, r, false);
    ErasureCoder twin = ReedSolomon.coder(k, r, ReedSolomon.Implementation.JAVA);
    ByteBuffer[] data = Stripes.random(k, 5000, 11);
    ByteBuffer[][] parity = {Stripes.empty(r, 5000), Stripes.empty(r, 5000), Stripes.empty(r, 5000)};
    viaJava.encode(data, parity[0]);
    viaJni.encode(data, parity[1]);
    twin.encode(data, parity[2]);
    for (int i = 0; i < r; i++) {
      assertArrayEquals(Stripes.bytes(parity[2][i]), Stripes.bytes(parity[0][i]));
      assertArrayEquals(Stripes.bytes(parity[2][i]), Stripes.bytes(parity[1][i]));
    }
    // And decoding through the per-buffer JNI path.
    ByteBuffer[] units = new ByteBuffer[k + r];
    System.arraycopy(data, 1, units, 1, k - 1);
    units[k] = parity[1][0];
    ByteBuffer[] out = Stripes.empty(1, 5000);
    viaJni.decode(units, new int[] {0}, out);
    assertArrayEquals(Stripes.bytes(data[0]), Stripes.bytes(out[0]));
  }

  @Test
  void alignedUnitsStartOnACacheLine() {
    for (int len : new int[] {0, 1, 4096, 1 << 20}) {
      ByteBuffer b = ReedSolomon.allocateAligned(len);
      assertTrue(b.isDirect());
      assertEquals(len, b.capacity());
      assertEquals(0, b.position());
      assertEquals(len, b.limit());
      if (DirectAddresses.AVAILABLE) {
        assertEquals(0, DirectAddresses.of(b) % 64);
      }
    }
  }

  @Test
  void javaGeneratorMatrixEqualsIsal() {
    for (int k = 1; k <= 40; k++) {
      for (int m : new int[] {k + 1, k + 4, Math.min(255, 2 * k + 7), 255}) {
        byte[] isal = new byte[m * k];
        IsalNative.generateCauchyMatrix(isal, m, k);
        assertArrayEquals(isal, CauchyCode.generatorMatrix(k, m), "k=" + k + " m=" + m);
      }
    }
  }

  @Test
  void parityRowDoesNotDependOnR() {
    int k = 10;
    int len = 1000;
    ByteBuffer[] data = Stripes.random(k, len, 7);
    ByteBuffer[] two = Stripes.empty(2, len);
    ByteBuffer[] five = Stripes.empty(5, len);
    ReedSolomon.coder(k, 2).encode(data, two);
    ReedSolomon.coder(k, 5).encode(data, five);
    for (int i = 0; i < 2; i++) {
      assertArrayEquals(Stripes.bytes(two[i]), Stripes.bytes(five[i]), "parity " + i);
    }
  }

  @Test
  void encodeDoesNotMovePositionsOrLimits() {
    ByteBuffer[] data = Stripes.random(3, 100, 3);
    ByteBuffer[] parity = Stripes.empty(2, 100);
    int[] before = {data[0].position(), data[0].limit(), parity[1].position(), parity[1].limit()};
    for (ErasureCoder coder : Stripes.bothCoders(3, 2)) {
      coder.encode(data, parity);
      assertArrayEquals(before, new int[] {data[0].position(), data[0].limit(),
          parity[1].position(), parity[1].limit()}, coder.toString());
    }
  }

  @Test
  void zeroLengthUnitsAreANoOp() {
    ByteBuffer[] data = Stripes.random(4, 0, 1);
    ByteBuffer[] parity = Stripes.empty(2, 0);
    for (ErasureCoder coder : Stripes.bothCoders(4, 2)) {
      coder.encode(data, parity);
      assertEquals(0, parity[0].remaining());
    }
  }
}
