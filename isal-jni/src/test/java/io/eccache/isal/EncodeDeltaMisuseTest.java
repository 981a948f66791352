package io.eccache.isal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * encodeDelta and parityDelta refuse what encode refuses (wrong counts, nulls, unequal lengths,
 * read-only heap buffers, read-only outputs, outputs sharing memory with the delta or each other),
 * and indices out of range, with a message that names the problem and before any byte is written.
 */
class EncodeDeltaMisuseTest {
  private static final int K = 4;
  private static final int R = 3;
  private static final int LEN = 100;

  private static void rejects(org.junit.jupiter.api.function.Executable call, String mentions) {
    MisuseTest.rejects(call, mentions);
  }

  @ParameterizedTest
  @EnumSource(ReedSolomon.Implementation.class)
  void badIndicesAndCounts(ReedSolomon.Implementation impl) {
    ErasureCoder coder = ReedSolomon.coder(K, R, CodeMatrix.XOR_FIRST_CAUCHY, impl);
    ByteBuffer delta = Stripes.random(1, LEN, 1)[0];
    ByteBuffer[] two = Stripes.empty(2, LEN);
    ByteBuffer[] all = Stripes.empty(R, LEN);

    rejects(() -> coder.encodeDelta(-1, delta, all), "data unit -1 is out of range: data units"
        + " are 0..3");
    rejects(() -> coder.encodeDelta(K, delta, all), "data unit 4 is out of range");
    rejects(() -> coder.parityDelta(K + 1, delta, new int[] {0}, Stripes.empty(1, LEN)),
        "data unit 5 is out of range");
    rejects(() -> coder.encodeDelta(0, delta, null, two), "parityRows must not be null");
    rejects(() -> coder.encodeDelta(0, delta, new int[] {0, R}, two),
        "parity row 3 is out of range: parity rows are 0..2 (row i is unit k + i)");
    rejects(() -> coder.encodeDelta(0, delta, new int[] {-1, 0}, two), "parity row -1 is out");
    rejects(() -> coder.encodeDelta(0, delta, new int[] {1, 1}, two),
        "parity row 1 is listed twice");
    rejects(() -> coder.encodeDelta(0, delta, new int[] {1}, two),
        "parity has 2 buffers; expected 1");
    rejects(() -> coder.encodeDelta(0, delta, two), "parity has 2 buffers; expected 3");
    rejects(() -> coder.encodeDelta(0, delta, (ByteBuffer[]) null), "parity must not be null");
    rejects(() -> coder.parityDelta(0, delta, new int[] {0}, null), "outputs must not be null");
    rejects(() -> coder.encodeDelta(0, null, all), "delta must not be null");
  }

  @ParameterizedTest
  @EnumSource(ReedSolomon.Implementation.class)
  void badBuffers(ReedSolomon.Implementation impl) {
    ErasureCoder coder = ReedSolomon.coder(K, R, impl);
    ByteBuffer delta = Stripes.random(1, LEN, 2)[0];
    int[] rows = {2, 0};

    rejects(() -> coder.encodeDelta(1, ByteBuffer.allocate(LEN).asReadOnlyBuffer(), rows,
        Stripes.empty(2, LEN)), "delta is a read-only heap buffer; the coder takes heap buffers");
    ByteBuffer[] readOnlyHeap = Stripes.empty(2, LEN);
    readOnlyHeap[1] = ByteBuffer.allocate(LEN).asReadOnlyBuffer();
    rejects(() -> coder.encodeDelta(1, delta, rows, readOnlyHeap),
        "parity[1] is a read-only heap buffer");
    ByteBuffer[] readOnlyDirect = Stripes.empty(2, LEN);
    readOnlyDirect[0] = readOnlyDirect[0].asReadOnlyBuffer();
    rejects(() -> coder.parityDelta(1, delta, rows, readOnlyDirect),
        "outputs[0] is read-only but is written to");
    ByteBuffer[] withNull = Stripes.empty(2, LEN);
    withNull[1] = null;
    rejects(() -> coder.encodeDelta(1, delta, rows, withNull), "parity[1] is null");
    rejects(() -> coder.encodeDelta(1, delta, rows, Stripes.empty(2, LEN - 1)),
        "parity[0] has 99 bytes remaining; every unit in a call must have the same length (100)");
    ByteBuffer[] unequal = Stripes.empty(2, LEN);
    unequal[1] = ByteBuffer.allocate(LEN + 1);
    rejects(() -> coder.parityDelta(1, delta, rows, unequal), "outputs[1] has 101 bytes");
    // A read-only direct delta is only read: accepted.
    coder.encodeDelta(1, delta.asReadOnlyBuffer(), rows, Stripes.empty(2, LEN));
  }

  @ParameterizedTest
  @EnumSource(ReedSolomon.Implementation.class)
  void outputsSharingMemoryWithTheDeltaOrEachOtherAreRefused(ReedSolomon.Implementation impl) {
    ErasureCoder coder = ReedSolomon.coder(K, R, impl);
    int[] rows = {0, 1};
    // Direct: the delta itself as an output, and two outputs overlapping by one byte.
    ByteBuffer delta = Stripes.random(1, LEN, 3)[0];
    rejects(() -> coder.encodeDelta(0, delta, rows,
        new ByteBuffer[] {Stripes.empty(1, LEN)[0], delta.duplicate()}),
        "parity[1] shares memory with delta: an output must not overlap any input");
    ByteBuffer big = ByteBuffer.allocateDirect(3 * LEN);
    ByteBuffer first = big.duplicate().position(0).limit(LEN).slice();
    ByteBuffer second = big.duplicate().position(LEN - 1).limit(2 * LEN - 1).slice();
    rejects(() -> coder.parityDelta(0, delta, rows, new ByteBuffer[] {first, second}),
        "outputs[1] and outputs[0] share memory");
    // Heap: views of one array.
    byte[] array = new byte[4 * LEN];
    new Random(4).nextBytes(array);
    byte[] before = array.clone();
    ByteBuffer heapDelta = ByteBuffer.wrap(array, LEN, LEN);
    ByteBuffer free = ByteBuffer.wrap(array, 3 * LEN, LEN);
    ByteBuffer overlapping = ByteBuffer.wrap(array, 2 * LEN - 1, LEN + 1).slice().limit(LEN);
    rejects(() -> coder.encodeDelta(0, heapDelta, rows, new ByteBuffer[] {free, overlapping}),
        "parity[1] shares memory with delta: an output must not overlap any input (the same array,"
            + " overlapping ranges)");
    rejects(() -> coder.encodeDelta(0, heapDelta, rows,
        new ByteBuffer[] {free, ByteBuffer.wrap(array, 3 * LEN - 10, LEN)}),
        "parity[1] and parity[0] share memory");
    assertArrayEquals(before, array, "a refused call wrote");
    // Adjacent ranges of one array do not overlap: accepted.
    coder.encodeDelta(0, heapDelta, rows,
        new ByteBuffer[] {ByteBuffer.wrap(array, 0, LEN), ByteBuffer.wrap(array, 2 * LEN, LEN)});
  }

  @ParameterizedTest
  @EnumSource(ReedSolomon.Implementation.class)
  void aRejectedCallWritesNothing(ReedSolomon.Implementation impl) {
    ErasureCoder coder = ReedSolomon.coder(K, R, impl);
    ByteBuffer delta = Stripes.random(1, LEN, 5)[0];
    for (boolean overwrite : new boolean[] {false, true}) {
      ByteBuffer[] parity = Stripes.empty(R, LEN);
      parity[2] = delta.duplicate(); // the last output is bad: the others must stay untouched
      if (overwrite) {
        assertThrows(IllegalArgumentException.class,
            () -> coder.parityDelta(3, delta, new int[] {0, 1, 2}, parity));
      } else {
        assertThrows(IllegalArgumentException.class, () -> coder.encodeDelta(3, delta, parity));
      }
      for (int i = 0; i < 2; i++) {
        byte[] expected = new byte[LEN];
        Arrays.fill(expected, (byte) 0x5a);
        assertArrayEquals(expected, Stripes.bytes(parity[i]));
      }
    }
  }

  @Test
  void theNativeUpdateEntriesGuardAgainstWhatWouldCrash() {
    // Past the Java checks, the C side still refuses a column outside the tables and bad pointers.
    ByteBuffer tables = ByteBuffer.allocateDirect(32 * 2);
    IsalNative.initTables(2, 1, new byte[] {1, 1}, tables);
    ByteBuffer[] in = {ByteBuffer.allocateDirect(8)};
    ByteBuffer[] out = {ByteBuffer.allocateDirect(8)};
    rejects(() -> IsalNative.update(tables, 2, 1, 2, false, 8, in, out, new int[2]),
        "data index must be in 0..k-1");
    rejects(() -> IsalNative.update(tables, 2, 1, -1, false, 8, in, out, new int[2]),
        "data index");
    rejects(() -> IsalNative.update(tables, 2, 1, 0, false, 8,
        new ByteBuffer[] {ByteBuffer.allocate(8)}, out, new int[2]), "direct ByteBuffer");
    rejects(() -> IsalNative.update(ByteBuffer.allocate(64), 2, 1, 0, false, 8, in, out,
        new int[2]), "tables must be a direct buffer");
    rejects(() -> IsalNative.update(tables, 200, 100, 0, false, 8, in, out, new int[2]),
        "k + rows <= 255");
    rejects(() -> IsalNative.updateAddresses(1, 2, 1, 0, true, 8, new long[2]),
        "null unit address");
    rejects(() -> IsalNative.updateAddresses(0, 2, 1, 0, true, 8, new long[] {1, 1}),
        "one address per unit");
    rejects(() -> IsalNative.updateAddresses(1, 2, 1, 0, true, 8, new long[1]),
        "one address per unit");
    rejects(() -> IsalNative.updateAddresses(1, 2, 1, 9, true, 8, new long[2]), "data index");
    byte[] array = new byte[16];
    rejects(() -> IsalNative.updateMixed(tables, 2, 1, 0, false, 8, null, new long[] {0, 9},
        new int[2], new byte[][] {array}), "outside its array");
    rejects(() -> IsalNative.updateMixed(tables, 2, 1, 0, false, 8, null, new long[] {0, 8},
        new int[] {0, 1}, new byte[][] {array}), "outside its array");
    rejects(() -> IsalNative.updateMixed(tables, 2, 1, 0, false, 8, null, new long[2],
        new int[] {-1, 0}, new byte[][] {array}), "without an array must be a direct");
    rejects(() -> IsalNative.updateMixed(tables, 2, 1, 3, false, 8, null, new long[2],
        new int[2], new byte[][] {array}), "data index");
    // Zero length: nothing to do, nothing dereferenced.
    IsalNative.updateAddresses(0, 2, 1, 0, true, 0, new long[0]);
    assertEquals(0, array[0]);
  }
}
