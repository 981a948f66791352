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

  /**
   * The same as {@link #encode} for units of which some lie in Java byte arrays: one ISA-L call per
   * chunk of units, with every array pinned by {@code GetPrimitiveArrayCritical} (not copied) for
   * that call only. Unit u (k inputs, then {@code rows} outputs) lies in {@code arrays[arrayOf[u]]}
   * from byte {@code offsets[u]} when {@code arrayOf[u] >= 0}; otherwise it is direct: at address
   * {@code offsets[u]} (position included) when {@code directs} is null, else at position
   * {@code offsets[u]} of {@code directs[u]}. {@code arrays} holds each array once; an array holding
   * an output is written back, the others are released unchanged.
   */
  static native void encodeMixed(ByteBuffer tables, int k, int rows, int len, ByteBuffer[] directs,
      long[] offsets, int[] arrayOf, byte[][] arrays);

  /**
   * ISA-L's {@code ec_encode_data_update}, the counterpart of {@link #encode} for one input:
   * outputs[i] ^= c(i, dataIndex) x inputs[0] over len bytes, with {@code tables} built by
   * {@link #initTables} from {@code rows x k} coefficients (column dataIndex is used). With
   * {@code overwrite} each output is zeroed first, so it receives c(i, dataIndex) x inputs[0].
   * {@code positions} holds the input's position, then the outputs'.
   */
  static native void update(ByteBuffer tables, int k, int rows, int dataIndex, boolean overwrite,
      int len, ByteBuffer[] inputs, ByteBuffer[] outputs, int[] positions);

  /** {@link #update} with addresses resolved as for {@link #encodeAddresses}: 1 + rows of them. */
  static native void updateAddresses(long tables, int k, int rows, int dataIndex,
      boolean overwrite, int len, long[] addresses);

  /**
   * {@link #update} for units of which some lie in Java byte arrays, as {@link #encodeMixed}: the
   * units are the one input, then the {@code rows} outputs.
   */
  static native void updateMixed(ByteBuffer tables, int k, int rows, int dataIndex,
      boolean overwrite, int len, ByteBuffer[] directs, long[] offsets, int[] arrayOf,
      byte[][] arrays);

  /** JNI's {@code GetDirectBufferAddress}: checks {@link DirectAddresses} against the JVM's view. */
  static native long address(ByteBuffer direct);
}
