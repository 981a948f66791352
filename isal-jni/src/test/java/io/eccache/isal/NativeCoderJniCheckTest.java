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

    ByteBuffer tables = ByteBuffer.allocateDirect(32 * 2);
    assertThrows(IllegalArgumentException.class, () -> IsalNative.encode(tables, 2, 1, 8,
        new ByteBuffer[] {ByteBuffer.allocateDirect(8), ByteBuffer.allocate(8)},
        new ByteBuffer[] {ByteBuffer.allocateDirect(8)}, new int[3]));
    assertThrows(ArrayIndexOutOfBoundsException.class, () -> IsalNative.encode(tables, 2, 1, 8,
        new ByteBuffer[] {ByteBuffer.allocateDirect(8), ByteBuffer.allocateDirect(8)},
        new ByteBuffer[] {ByteBuffer.allocateDirect(8)}, new int[1]));
    assertThrows(IllegalArgumentException.class,
        () -> IsalNative.initTables(2, 1, new byte[2], ByteBuffer.allocate(64)));
  }
}
