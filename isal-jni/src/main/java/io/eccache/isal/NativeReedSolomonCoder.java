package io.eccache.isal;

import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The coder over ISA-L's {@code ec_encode_data} and {@code ec_encode_data_update} (SIMD: AVX2 or
 * AVX-512, chosen by ISA-L at run time).
 * Its only state is immutable coding tables in Java-owned direct buffers, so there is nothing to
 * close and nothing a concurrent caller can disturb. Direct units are passed as addresses; heap
 * units' arrays are pinned for the native call ({@code GetPrimitiveArrayCritical}), never copied.
 */
final class NativeReedSolomonCoder extends AbstractReedSolomonCoder<NativeReedSolomonCoder.Tables> {
  /** ISA-L's expanded coefficients for one coefficient matrix of k columns. */
  static final class Tables {
    final ByteBuffer buffer;
    final long address;
    final int k;

    Tables(ByteBuffer buffer, int k) {
      this.buffer = buffer;
      this.address = DirectAddresses.AVAILABLE ? DirectAddresses.of(buffer) : 0;
      this.k = k;
    }
  }

  /** The {@code dataIndex} of a full encode: k inputs, not one unit's change. */
  private static final int ENCODE = -1;

  /** Whether unit addresses are read in Java (one JNI call, no callbacks) or by JNI per buffer. */
  private final boolean addressesInJava;

  NativeReedSolomonCoder(int k, int r) {
    this(k, r, CodeMatrix.CAUCHY);
  }

  NativeReedSolomonCoder(int k, int r, CodeMatrix matrix) {
    this(k, r, matrix, DirectAddresses.AVAILABLE);
  }

  /** For tests: {@code addressesInJava = false} takes the path used where Unsafe is unavailable. */
  NativeReedSolomonCoder(int k, int r, boolean addressesInJava) {
    this(k, r, CodeMatrix.CAUCHY, addressesInJava);
  }

  /** For tests, as {@link #NativeReedSolomonCoder(int, int, boolean)}. */
  NativeReedSolomonCoder(int k, int r, CodeMatrix matrix, boolean addressesInJava) {
    super(k, r, matrix);
    this.addressesInJava = addressesInJava && DirectAddresses.AVAILABLE;
  }

  @Override
  Tables compile(byte[] coefficients, int rows) {
    int k = coefficients.length / rows;
    ByteBuffer tables = ByteBuffer.allocateDirect(32 * k * rows);
    IsalNative.initTables(k, rows, coefficients, tables);
    return new Tables(tables, k);
  }

  @Override
  void apply(Tables tables, ByteBuffer[] inputs, ByteBuffer[] outputs, int len) {
    code(tables, ENCODE, false, inputs, outputs, len);
  }

  @Override
  void applyDelta(Tables tables, int dataIndex, ByteBuffer delta, ByteBuffer[] outputs, int len,
      boolean overwrite) {
    // ec_encode_data_update takes the same tables as ec_encode_data and reads their column dataIndex.
    code(tables, dataIndex, overwrite, new ByteBuffer[] {delta}, outputs, len);
  }

  /**
   * One native call: the encode of {@code inputs} (k units) when {@code dataIndex} is
   * {@link #ENCODE}, else the update of {@code outputs} by the change {@code inputs[0]} of data unit
   * {@code dataIndex} (onto zeroed outputs when {@code overwrite}).
   */
  private void code(Tables tables, int dataIndex, boolean overwrite, ByteBuffer[] inputs,
      ByteBuffer[] outputs, int len) {
    int in = inputs.length;
    int rows = outputs.length;
    if (!allDirect(inputs) || !allDirect(outputs)) {
      codeMixed(tables, dataIndex, overwrite, inputs, outputs, len);
      return;
    }
    if (addressesInJava) {
      long[] addresses = new long[in + rows];
      for (int i = 0; i < in; i++) {
        addresses[i] = DirectAddresses.of(inputs[i]) + inputs[i].position();
      }
      for (int i = 0; i < rows; i++) {
        addresses[in + i] = DirectAddresses.of(outputs[i]) + outputs[i].position();
      }
      if (dataIndex == ENCODE) {
        IsalNative.encodeAddresses(tables.address, in, rows, len, addresses);
      } else {
        IsalNative.updateAddresses(tables.address, tables.k, rows, dataIndex, overwrite, len,
            addresses);
      }
      // The native code used raw addresses: the memory must outlive the call.
      Reference.reachabilityFence(tables);
      Reference.reachabilityFence(inputs);
      Reference.reachabilityFence(outputs);
      return;
    }
    int[] positions = new int[in + rows];
    for (int i = 0; i < in; i++) {
      positions[i] = inputs[i].position();
    }
    for (int i = 0; i < rows; i++) {
      positions[in + i] = outputs[i].position();
    }
    if (dataIndex == ENCODE) {
      IsalNative.encode(tables.buffer, in, rows, len, inputs, outputs, positions);
    } else {
      IsalNative.update(tables.buffer, tables.k, rows, dataIndex, overwrite, len, inputs, outputs,
          positions);
    }
  }

  /**
   * Units of which some are heap buffers: their arrays are pinned in the native call, not copied.
   * Each distinct array is passed once (a PUT's k data cells are usually views of one array).
   */
  private void codeMixed(Tables tables, int dataIndex, boolean overwrite, ByteBuffer[] inputs,
      ByteBuffer[] outputs, int len) {
    int in = inputs.length;
    int units = in + outputs.length;
    long[] offsets = new long[units];
    int[] arrayOf = new int[units];
    byte[][] arrays = new byte[units][];
    ByteBuffer[] directs = addressesInJava ? null : new ByteBuffer[units];
    int distinct = 0;
    for (int u = 0; u < units; u++) {
      ByteBuffer b = u < in ? inputs[u] : outputs[u - in];
      if (b.isDirect()) {
        arrayOf[u] = -1;
        if (addressesInJava) {
          offsets[u] = DirectAddresses.of(b) + b.position();
        } else {
          directs[u] = b;
          offsets[u] = b.position();
        }
        continue;
      }
      byte[] array = b.array();
      int index = 0;
      while (index < distinct && arrays[index] != array) {
        index++;
      }
      if (index == distinct) {
        arrays[distinct++] = array;
      }
      arrayOf[u] = index;
      offsets[u] = b.arrayOffset() + b.position();
    }
    byte[][] pinned = Arrays.copyOf(arrays, distinct);
    if (dataIndex == ENCODE) {
      IsalNative.encodeMixed(tables.buffer, in, outputs.length, len, directs, offsets, arrayOf,
          pinned);
    } else {
      IsalNative.updateMixed(tables.buffer, tables.k, outputs.length, dataIndex, overwrite, len,
          directs, offsets, arrayOf, pinned);
    }
    // Raw addresses of direct units were used: their memory must outlive the call.
    Reference.reachabilityFence(inputs);
    Reference.reachabilityFence(outputs);
  }

  private static boolean allDirect(ByteBuffer[] buffers) {
    for (ByteBuffer b : buffers) {
      if (!b.isDirect()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public ReedSolomon.Implementation implementation() {
    return ReedSolomon.Implementation.NATIVE;
  }
}
