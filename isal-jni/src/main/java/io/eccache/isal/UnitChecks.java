package io.eccache.isal;

import java.nio.ByteBuffer;

/**
 * The buffer contract of {@link ErasureCoder}, checked before anything is written: counts, nulls,
 * lengths, heap buffers with an accessible array, writable outputs, and no output sharing memory with
 * an input or another output. Every failure is an {@link IllegalArgumentException} naming the buffer.
 */
final class UnitChecks {
  private UnitChecks() {}

  static void checkCount(ByteBuffer[] buffers, String name, int expected) {
    if (buffers == null) {
      throw new IllegalArgumentException(name + " must not be null");
    }
    if (buffers.length != expected) {
      throw new IllegalArgumentException(
          name + " has " + buffers.length + " buffers; expected " + expected);
    }
  }

  static int unitLength(ByteBuffer[] buffers, String name) {
    if (buffers[0] == null) {
      throw new IllegalArgumentException(name + "[0] is null");
    }
    return buffers[0].remaining();
  }

  /** {@code indices}: the index each buffer is named by in messages, or null for its own. */
  static void checkUnits(ByteBuffer[] buffers, int[] indices, String name, int len,
      boolean written) {
    for (int at = 0; at < buffers.length; at++) {
      checkUnit(buffers[at], name + "[" + (indices == null ? at : indices[at]) + "]", len, written);
    }
  }

  /** One unit, named {@code label} in messages. */
  static void checkUnit(ByteBuffer b, String label, int len, boolean written) {
    if (b == null) {
      throw new IllegalArgumentException(label + " is null");
    }
    if (!b.isDirect() && !b.hasArray()) {
      // A read-only heap buffer hides its array; the native coder reads heap units through it.
      throw new IllegalArgumentException(label + " is a read-only heap buffer; the"
          + " coder takes heap buffers with an accessible array (ByteBuffer.wrap or allocate) or"
          + " direct buffers");
    }
    if (written && b.isReadOnly()) {
      throw new IllegalArgumentException(label + " is read-only but is written to");
    }
    if (b.remaining() != len) {
      throw new IllegalArgumentException(label + " has " + b.remaining()
          + " bytes remaining; every unit in a call must have the same length (" + len + ")");
    }
  }

  /**
   * Refuses an output that shares memory with an input or with another output: the native coder
   * reads its inputs while it writes its outputs, so such a call would write wrong parity silently
   * (and the Java twin, which buffers, would disagree with it). Heap units share memory when they
   * are views of one array with overlapping ranges; direct ones when their addresses overlap (known
   * only where {@link DirectAddresses} works: only the native coder needs that). Null units (erased)
   * and units without an accessible array (ignored survivors) are skipped.
   */
  static void checkNoOverlap(ByteBuffer[] inputs, String inName, ByteBuffer[] outputs,
      String outName, int len) {
    if (len == 0) {
      return;
    }
    checkOutputsDisjoint(outputs, outName, len);
    for (int i = 0; i < inputs.length; i++) {
      checkNoOverlap(inputs[i], inName + "[" + i + "]", outputs, outName, len);
    }
  }

  /** The same for one input, named {@code inLabel}; outputs among themselves are not checked. */
  static void checkNoOverlap(ByteBuffer input, String inLabel, ByteBuffer[] outputs,
      String outName, int len) {
    if (input == null || len == 0) {
      return;
    }
    for (int o = 0; o < outputs.length; o++) {
      if (overlap(input, outputs[o], len)) {
        throw new IllegalArgumentException(outName + "[" + o + "] shares memory with " + inLabel
            + ": an output must not overlap any input"
            + (input.isDirect() ? "" : " (the same array, overlapping ranges)"));
      }
    }
  }

  static void checkOutputsDisjoint(ByteBuffer[] outputs, String outName, int len) {
    if (len == 0) {
      return;
    }
    for (int o = 0; o < outputs.length; o++) {
      for (int p = 0; p < o; p++) {
        if (overlap(outputs[o], outputs[p], len)) {
          throw new IllegalArgumentException(outName + "[" + o + "] and " + outName + "[" + p
              + "] share memory: every output must be a buffer of its own");
        }
      }
    }
  }

  /** Whether len bytes from a's position and len bytes from b's position are partly the same. */
  private static boolean overlap(ByteBuffer a, ByteBuffer b, int len) {
    if (a.isDirect() != b.isDirect()) {
      return false;
    }
    if (a.isDirect()) {
      return DirectAddresses.AVAILABLE && overlap(DirectAddresses.of(a) + a.position(),
          DirectAddresses.of(b) + b.position(), len);
    }
    return a.hasArray() && b.hasArray() && a.array() == b.array()
        && overlap(a.arrayOffset() + a.position(), b.arrayOffset() + b.position(), len);
  }

  private static boolean overlap(long a, long b, int len) {
    return a < b + len && b < a + len;
  }
}
