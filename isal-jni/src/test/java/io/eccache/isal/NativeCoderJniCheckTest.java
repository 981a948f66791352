package io.eccache.isal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * Exercises every JNI entry point, including the error paths, so that the run with -Xcheck:jni (a
 * separate surefire execution) catches misuse of the JNI API: missing exception checks, leaked local
 * references, calls with an exception pending.
 */
class NativeCoderJniCheckTest {
  @Test
  void everyEntryPointUnderTheJniChecker() {
    assertTrue(IsalLibrary.isAvailable(), IsalLibrary::loadingFailureReason);
    if (Boolean.getBoolean("eccache.test.expectCheckJni")) {
      assertTrue(ManagementFactory.getRuntimeMXBean().getInputArguments().contains("-Xcheck:jni"),
          "the JNI-checked execution must really run with -Xcheck:jni");
    }
    int k = 20;
    int r = 6; // more than the JVM's 16 guaranteed local references per call
    ErasureCoder coder = ReedSolomon.coder(k, r, ReedSolomon.Implementation.NATIVE);
    ByteBuffer[] data = Stripes.random(k, 4096, 5);
    ByteBuffer[] parity = Stripes.empty(r, 4096);
    coder.encode(data, parity);
    ByteBuffer[] units = new ByteBuffer[k + r];
    System.arraycopy(data, 0, units, 0, k);
    System.arraycopy(parity, 0, units, k, r);
    int[] erased = {0, 1, 2, 3, 4, 5};
    for (int e : erased) {
      units[e] = null;
    }
    ByteBuffer[] out = Stripes.empty(erased.length, 4096);
    coder.decode(units, erased, out);
    for (int i = 0; i < erased.length; i++) {
      assertArrayEquals(Stripes.bytes(data[erased[i]]), Stripes.bytes(out[i]));
    }

    // Heap units: 26 arrays of their own (more local references than the 16 guaranteed), then
    // every unit in one array, outputs among the inputs, longer than one pinned chunk. Under the
    // checker the VM pins arrays by copying them: an array pinned twice, or written back while an
    // output lies elsewhere in it, would lose outputs here.
    for (boolean addressesInJava : new boolean[] {true, false}) {
      ErasureCoder mixed = new NativeReedSolomonCoder(k, r, addressesInJava);
      ByteBuffer[] heapData = new ByteBuffer[k];
      for (int i = 0; i < k; i++) {
        heapData[i] = i % 3 == 0 ? data[i] : ByteBuffer.wrap(Stripes.bytes(data[i]));
      }
      ByteBuffer[] heapParity = new ByteBuffer[r];
      for (int i = 0; i < r; i++) {
        heapParity[i] = ByteBuffer.allocate(4096);
      }
      mixed.encode(heapData, heapParity);
      for (int i = 0; i < r; i++) {
        assertArrayEquals(Stripes.bytes(parity[i]), Stripes.bytes(heapParity[i]));
      }
      int len = 256 * 1024 + 100;
      ErasureCoder small = new NativeReedSolomonCoder(3, 2, addressesInJava);
      byte[] array = new byte[5 * len];
      new java.util.Random(9).nextBytes(array);
      ByteBuffer[] units5 = new ByteBuffer[5];
      for (int i = 0; i < 5; i++) {
        units5[i] = ByteBuffer.wrap(array, i * len, len).slice();
      }
      small.encode(new ByteBuffer[] {units5[0], units5[1], units5[2]},
          new ByteBuffer[] {units5[3], units5[4]});
      byte[] unit0 = Stripes.bytes(units5[0]);
      byte[] unit1 = Stripes.bytes(units5[1]);
      java.util.Arrays.fill(array, 0, 2 * len, (byte) 0);
      small.decode(new ByteBuffer[] {null, null, units5[2], units5[3], units5[4]},
          new int[] {1, 0}, new ByteBuffer[] {units5[1], units5[0]});
      assertArrayEquals(unit0, Stripes.bytes(units5[0]));
      assertArrayEquals(unit1, Stripes.bytes(units5[1]));
    }

    ByteBuffer tables = ByteBuffer.allocateDirect(32 * 2);
    assertThrows(IllegalArgumentException.class, () -> IsalNative.encode(tables, 2, 1, 8,
        new ByteBuffer[] {ByteBuffer.allocateDirect(8), ByteBuffer.allocate(8)},
        new ByteBuffer[] {ByteBuffer.allocateDirect(8)}, new int[3]));
    assertThrows(ArrayIndexOutOfBoundsException.class, () -> IsalNative.encode(tables, 2, 1, 8,
        new ByteBuffer[] {ByteBuffer.allocateDirect(8), ByteBuffer.allocateDirect(8)},
        new ByteBuffer[] {ByteBuffer.allocateDirect(8)}, new int[1]));
    assertThrows(IllegalArgumentException.class,
        () -> IsalNative.initTables(2, 1, new byte[2], ByteBuffer.allocate(64)));
    byte[] array = new byte[16];
    assertThrows(IllegalArgumentException.class, () -> IsalNative.encodeMixed(tables, 2, 1, 8,
        null, new long[] {0, 8, 9}, new int[3], new byte[][] {array}));
    assertThrows(IllegalArgumentException.class, () -> IsalNative.encodeMixed(tables, 2, 1, 8,
        new ByteBuffer[] {null, null, ByteBuffer.allocate(8)}, new long[3], new int[] {0, 0, -1},
        new byte[][] {array}));
    assertThrows(IllegalArgumentException.class, () -> IsalNative.encodeMixed(tables, 2, 1, 8,
        null, new long[3], new int[3], new byte[][] {null}));
    assertThrows(ArrayIndexOutOfBoundsException.class, () -> IsalNative.encodeMixed(tables, 2, 1,
        8, null, new long[2], new int[3], new byte[][] {array}));
    assertThrows(ArrayIndexOutOfBoundsException.class, () -> IsalNative.encodeMixed(tables, 2, 1,
        8, new ByteBuffer[1], new long[3], new int[] {0, 0, -1}, new byte[][] {array}));
  }

  @Test
  void everyUpdateEntryPointUnderTheJniChecker() {
    assertTrue(IsalLibrary.isAvailable(), IsalLibrary::loadingFailureReason);
    int k = 10;
    int r = 20; // 20 outputs and the delta: more than the 16 guaranteed local references
    int len = 4096;
    ErasureCoder twin = new JavaReedSolomonCoder(k, r, CodeMatrix.XOR_FIRST_CAUCHY);
    ByteBuffer delta = Stripes.random(1, len, 7)[0];
    ByteBuffer heapDelta = ByteBuffer.wrap(Stripes.bytes(delta));
    ByteBuffer[] start = Stripes.random(r, len, 8);
    ByteBuffer[] expected = copies(start, true);
    twin.encodeDelta(3, delta, expected);
    int[] rows = {5, 0, 19, 7};
    ByteBuffer[] expectedDeltas = Stripes.empty(rows.length, len);
    twin.parityDelta(4, delta, rows, expectedDeltas);
    for (boolean addressesInJava : new boolean[] {true, false}) {
      ErasureCoder coder =
          new NativeReedSolomonCoder(k, r, CodeMatrix.XOR_FIRST_CAUCHY, addressesInJava);
      for (boolean heap : new boolean[] {false, true}) {
        // All direct, then 21 arrays of their own (delta and parities).
        ByteBuffer[] parity = copies(start, !heap);
        coder.encodeDelta(3, heap ? heapDelta : delta, parity);
        ByteBuffer[] deltas = new ByteBuffer[rows.length];
        for (int i = 0; i < rows.length; i++) {
          deltas[i] = heap ? ByteBuffer.allocate(len) : ByteBuffer.allocateDirect(len);
        }
        coder.parityDelta(4, heap ? heapDelta : delta, rows, deltas);
        for (int i = 0; i < r; i++) {
          assertArrayEquals(Stripes.bytes(expected[i]), Stripes.bytes(parity[i]));
        }
        for (int i = 0; i < rows.length; i++) {
          assertArrayEquals(Stripes.bytes(expectedDeltas[i]), Stripes.bytes(deltas[i]));
        }
      }
      // The delta and two parities in one array, longer than one pinned chunk: under the checker
      // the array is pinned by copying, so a second pin or a lost write-back would show.
      int big = 256 * 1024 + 100;
      byte[] array = new byte[3 * big];
      new java.util.Random(10).nextBytes(array);
      byte[] reference = array.clone();
      ErasureCoder small = new NativeReedSolomonCoder(3, 2, CodeMatrix.XOR_FIRST_CAUCHY,
          addressesInJava);
      ByteBuffer d = ByteBuffer.wrap(array, 0, big).slice();
      ByteBuffer[] p = {ByteBuffer.wrap(array, 2 * big, big).slice(),
          ByteBuffer.wrap(array, big, big).slice()};
      small.encodeDelta(2, d, new int[] {1, 0}, p);
      ByteBuffer[] want = {ByteBuffer.wrap(reference, 2 * big, big).slice(),
          ByteBuffer.wrap(reference, big, big).slice()};
      new JavaReedSolomonCoder(3, 2, CodeMatrix.XOR_FIRST_CAUCHY)
          .encodeDelta(2, ByteBuffer.wrap(reference, 0, big).slice(), new int[] {1, 0}, want);
      assertArrayEquals(reference, array);
      small.parityDelta(1, d, new int[] {0}, new ByteBuffer[] {p[0]});
      assertArrayEquals(Stripes.bytes(d), Stripes.bytes(p[0]), "row 0 of XOR-first: the delta");
    }

    ByteBuffer tables = ByteBuffer.allocateDirect(32 * 2);
    IsalNative.initTables(2, 1, new byte[] {1, 1}, tables);
    ByteBuffer[] in = {ByteBuffer.allocateDirect(8)};
    ByteBuffer[] out = {ByteBuffer.allocateDirect(8)};
    assertThrows(IllegalArgumentException.class,
        () -> IsalNative.update(tables, 2, 1, 2, false, 8, in, out, new int[2]));
    assertThrows(IllegalArgumentException.class, () -> IsalNative.update(tables, 2, 1, 0, true, 8,
        new ByteBuffer[] {ByteBuffer.allocate(8)}, out, new int[2]));
    assertThrows(ArrayIndexOutOfBoundsException.class,
        () -> IsalNative.update(tables, 2, 1, 1, false, 8, in, out, new int[1]));
    assertThrows(IllegalArgumentException.class,
        () -> IsalNative.updateAddresses(1, 2, 1, -1, false, 8, new long[2]));
    assertThrows(IllegalArgumentException.class,
        () -> IsalNative.updateAddresses(1, 2, 1, 0, false, 8, new long[2]));
    byte[] small = new byte[16];
    assertThrows(IllegalArgumentException.class, () -> IsalNative.updateMixed(tables, 2, 1, 0,
        false, 8, null, new long[] {0, 9}, new int[2], new byte[][] {small}));
    assertThrows(IllegalArgumentException.class, () -> IsalNative.updateMixed(tables, 2, 1, 5,
        false, 8, null, new long[] {0, 8}, new int[2], new byte[][] {small}));
    assertThrows(ArrayIndexOutOfBoundsException.class, () -> IsalNative.updateMixed(tables, 2, 1,
        0, true, 8, null, new long[1], new int[2], new byte[][] {small}));
    assertThrows(IllegalArgumentException.class, () -> IsalNative.updateMixed(tables, 2, 1, 0,
        true, 8, new ByteBuffer[] {ByteBuffer.allocate(8), null}, new long[2], new int[] {-1, 0},
        new byte[][] {small}));
  }

  /** Copies of the units' bytes, direct or heap. */
  private static ByteBuffer[] copies(ByteBuffer[] units, boolean direct) {
    ByteBuffer[] out = new ByteBuffer[units.length];
    for (int i = 0; i < units.length; i++) {
      byte[] bytes = Stripes.bytes(units[i]);
      out[i] = direct ? ByteBuffer.allocateDirect(bytes.length).put(bytes).flip()
          : ByteBuffer.wrap(bytes);
    }
    return out;
  }
}
