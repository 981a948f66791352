package io.eccache.isal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Wrong arguments get an IllegalArgumentException that names the problem; nothing crashes. */
class MisuseTest {
  private static final int K = 4;
  private static final int R = 2;
  private static final int LEN = 100;

  static void rejects(Executable call, String mentions) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
    assertTrue(e.getMessage().contains(mentions),
        () -> "message '" + e.getMessage() + "' should mention '" + mentions + "'");
  }

  @ParameterizedTest
  @EnumSource(ReedSolomon.Implementation.class)
  void badCodes(ReedSolomon.Implementation impl) {
    rejects(() -> ReedSolomon.coder(0, 1, impl), "k=0");
    rejects(() -> ReedSolomon.coder(1, 0, impl), "r=0");
    rejects(() -> ReedSolomon.coder(-3, 2, impl), "k=-3");
    rejects(() -> ReedSolomon.coder(250, 6, impl), "k + r <= 255");
    assertEquals(255, ReedSolomon.coder(250, 5, impl).dataUnits() + 5);
  }

  @ParameterizedTest
  @EnumSource(ReedSolomon.Implementation.class)
  void badEncodeArguments(ReedSolomon.Implementation impl) {
    ErasureCoder coder = ReedSolomon.coder(K, R, impl);
    ByteBuffer[] data = Stripes.random(K, LEN, 1);
    ByteBuffer[] parity = Stripes.empty(R, LEN);

    rejects(() -> coder.encode(null, parity), "data must not be null");
    rejects(() -> coder.encode(data, null), "parity must not be null");
    rejects(() -> coder.encode(Stripes.random(K - 1, LEN, 1), parity), "expected 4");
    rejects(() -> coder.encode(data, Stripes.empty(R + 1, LEN)), "expected 2");

    ByteBuffer[] readOnlyHeap = data.clone();
    readOnlyHeap[2] = ByteBuffer.allocate(LEN).asReadOnlyBuffer();
    rejects(() -> coder.encode(readOnlyHeap, parity), "data[2] is a read-only heap buffer");

    ByteBuffer[] withNull = data.clone();
    withNull[3] = null;
    rejects(() -> coder.encode(withNull, parity), "data[3] is null");
    ByteBuffer[] firstNull = data.clone();
    firstNull[0] = null;
    rejects(() -> coder.encode(firstNull, parity), "data[0] is null");

    ByteBuffer[] unequal = data.clone();
    unequal[1] = ByteBuffer.allocateDirect(LEN + 1);
    rejects(() -> coder.encode(unequal, parity), "same length");
    rejects(() -> coder.encode(data, Stripes.empty(R, LEN - 1)), "parity[0] has 99 bytes");

    ByteBuffer[] readOnly = Stripes.empty(R, LEN);
    readOnly[1] = readOnly[1].asReadOnlyBuffer();
    rejects(() -> coder.encode(data, readOnly), "read-only");
  }

  @ParameterizedTest
  @EnumSource(ReedSolomon.Implementation.class)
  void badDecodeArguments(ReedSolomon.Implementation impl) {
    ErasureCoder coder = ReedSolomon.coder(K, R, impl);
    ByteBuffer[] units = new ByteBuffer[K + R];
    System.arraycopy(Stripes.random(K + R, LEN, 2), 0, units, 0, K + R);
    units[0] = null;
    ByteBuffer[] out = Stripes.empty(1, LEN);

    rejects(() -> coder.decode(null, new int[] {0}, out), "units must not be null");
    rejects(() -> coder.decode(units, null, out), "erased must not be null");
    rejects(() -> coder.decode(units, new int[] {0}, null), "outputs must not be null");
    rejects(() -> coder.decode(new ByteBuffer[K], new int[] {0}, out), "expected 6");
    rejects(() -> coder.decode(units, new int[] {0}, Stripes.empty(2, LEN)), "expected 1");
    rejects(() -> coder.decode(units, new int[] {6}, out), "out of range");
    rejects(() -> coder.decode(units, new int[] {-1}, out), "out of range");
    rejects(() -> coder.decode(units, new int[] {1}, out), "both given");
    ByteBuffer[] two = units.clone();
    two[1] = null;
    rejects(() -> coder.decode(two, new int[] {0, 0}, Stripes.empty(2, LEN)), "listed twice");

    ByteBuffer[] tooFew = units.clone();
    tooFew[1] = null;
    tooFew[2] = null;
    rejects(() -> coder.decode(tooFew, new int[] {0}, out), "only 3 of 6 units");

    ByteBuffer[] readOnlyHeap = units.clone();
    readOnlyHeap[3] = ByteBuffer.allocate(LEN).asReadOnlyBuffer();
    rejects(() -> coder.decode(readOnlyHeap, new int[] {0}, out), "units[3] is a read-only heap");
    rejects(() -> coder.decode(units, new int[] {0},
        new ByteBuffer[] {ByteBuffer.allocate(LEN).asReadOnlyBuffer()}),
        "outputs[0] is a read-only heap buffer");
    rejects(() -> coder.decode(units, new int[] {0}, Stripes.empty(1, LEN + 5)), "same length");
  }

  @ParameterizedTest
  @EnumSource(ReedSolomon.Implementation.class)
  void aRejectedCallWritesNothing(ReedSolomon.Implementation impl) {
    ErasureCoder coder = ReedSolomon.coder(K, R, impl);
    ByteBuffer[] data = Stripes.random(K, LEN, 3);
    ByteBuffer[] parity = Stripes.empty(R, LEN);
    // The second output is bad: the first must stay untouched.
    parity[1] = ByteBuffer.allocate(LEN).asReadOnlyBuffer();
    assertThrows(IllegalArgumentException.class, () -> coder.encode(data, parity));
    byte[] first = Stripes.bytes(parity[0]);
    for (byte b : first) {
      assertEquals((byte) 0x5a, b);
    }
  }

  @org.junit.jupiter.api.Test
  void nativeEntryPointsGuardAgainstWhatWouldCrash() {
    // Past the Java checks, the C side still refuses what would dereference a bad pointer.
    ByteBuffer tables = ByteBuffer.allocateDirect(32 * 2 * 1);
    IsalNative.initTables(2, 1, new byte[] {1, 1}, tables);
    ByteBuffer[] in = {ByteBuffer.allocateDirect(8), ByteBuffer.allocate(8)};
    ByteBuffer[] out = {ByteBuffer.allocateDirect(8)};
    rejects(() -> IsalNative.encode(tables, 2, 1, 8, in, out, new int[3]), "direct ByteBuffer");
    ByteBuffer[] withNull = {ByteBuffer.allocateDirect(8), null};
    rejects(() -> IsalNative.encode(tables, 2, 1, 8, withNull, out, new int[3]), "direct");
    rejects(() -> IsalNative.encode(ByteBuffer.allocate(64), 2, 1, 8, in, out, new int[3]),
        "tables must be a direct buffer");
    rejects(() -> IsalNative.initTables(2, 1, new byte[] {1, 1}, ByteBuffer.allocateDirect(8)),
        "32 * k * rows");
    rejects(() -> IsalNative.initTables(200, 100, new byte[1], tables), "k + rows <= 255");
    rejects(() -> IsalNative.generateCauchyMatrix(new byte[3], 4, 2), "shorter");
  }
}
