package io.eccache.isal;

import java.lang.reflect.Field;
import java.nio.Buffer;
import java.nio.ByteBuffer;

/**
 * Reads a direct buffer's native address in Java, so that one native call can take every unit's
 * address as a {@code long} instead of calling back into the JVM per buffer (each
 * {@code GetObjectArrayElement}/{@code GetDirectBufferAddress} is a VM transition; at 4 KiB units
 * those cost as much as the coding itself).
 *
 * <p>Uses {@code sun.misc.Unsafe}, as Netty does, on JDKs that allow it quietly (up to 23; 24 and later
 * warn on its use). Elsewhere, or if the address read in Java ever disagrees with JNI's
 * {@code GetDirectBufferAddress}, {@link #AVAILABLE} is false and callers pass the buffers to JNI.
 */
final class DirectAddresses {
  /** Whether {@link #of(ByteBuffer)} may be used. */
  static final boolean AVAILABLE;

  private static final sun.misc.Unsafe UNSAFE;
  private static final long ADDRESS_OFFSET;

  static {
    sun.misc.Unsafe unsafe = null;
    long offset = -1;
    if (Runtime.version().feature() < 24) {
      try {
        Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        unsafe = (sun.misc.Unsafe) f.get(null);
        offset = unsafe.objectFieldOffset(Buffer.class.getDeclaredField("address"));
      } catch (ReflectiveOperationException | RuntimeException e) {
        unsafe = null;
      }
    }
    UNSAFE = unsafe;
    ADDRESS_OFFSET = offset;
    AVAILABLE = unsafe != null && agreesWithJni();
  }

  private DirectAddresses() {}

  /** The address of byte 0 of a direct buffer (not of its position). */
  static long of(ByteBuffer direct) {
    return UNSAFE.getLong(direct, ADDRESS_OFFSET);
  }

  private static boolean agreesWithJni() {
    if (!IsalLibrary.isAvailable()) {
      return false;
    }
    ByteBuffer probe = ByteBuffer.allocateDirect(64);
    ByteBuffer slice = probe.position(13).slice();
    return UNSAFE.getLong(probe, ADDRESS_OFFSET) == IsalNative.address(probe)
        && UNSAFE.getLong(slice, ADDRESS_OFFSET) == IsalNative.address(slice);
  }
}
