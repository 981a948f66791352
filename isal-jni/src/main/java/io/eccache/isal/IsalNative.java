package io.eccache.isal;

import java.nio.ByteBuffer;

/**
 * The JNI entry points (src/main/c/isal_jni.c). Callers check arguments first; the native side only
 * guards against what would crash the JVM. Use only after {@link IsalLibrary#isAvailable()}.
 */
final class IsalNative {
  private IsalNative() {}

  /** ISA-L's {@code gf_gen_cauchy1_matrix(matrix, m, k)}: the m x k generator, row-major. */
  static native void generateCauchyMatrix(byte[] matrix, int m, int k);

  /** ISA-L's {@code ec_init_tables}: expands {@code rows x k} coefficients into 32 * k * rows bytes. */
  static native void initTables(int k, int rows, byte[] coefficients, ByteBuffer tables);

  /**
   * ISA-L's {@code ec_encode_data}: outputs[i] = sum_j c(i, j) x inputs[j] over len bytes, where unit
   * j starts at {@code positions[j]} of inputs[j] and output i at {@code positions[k + i]}.
   */
  static native void encode(ByteBuffer tables, int k, int rows, int len, ByteBuffer[] inputs,
      ByteBuffer[] outputs, int[] positions);

  /**
   * The same as {@link #encode} with every address resolved by the caller: {@code addresses} holds
   * the k input and then the {@code rows} output addresses (position included), {@code tables} the
   * address of the coding tables. No call back into the JVM. The caller keeps every buffer reachable
   * for the duration of the call.
   */
  static native void encodeAddresses(long tables, int k, int rows, int len, long[] addresses);

  /** JNI's {@code GetDirectBufferAddress}: checks {@link DirectAddresses} against the JVM's view. */
  static native long address(ByteBuffer direct);
}
