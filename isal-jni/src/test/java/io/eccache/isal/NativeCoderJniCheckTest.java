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
}
