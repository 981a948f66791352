package io.eccache.isal;

import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The coder over ISA-L's {@code ec_encode_data} (SIMD: AVX2 or AVX-512, chosen by ISA-L at run time).
 * Its only state is immutable coding tables in Java-owned direct buffers, so there is nothing to
 * close and nothing a concurrent caller can disturb. Direct units are passed as addresses; heap
 * units' arrays are pinned for the native call ({@code GetPrimitiveArrayCritical}), never copied.
 */
final class NativeReedSolomonCoder extends AbstractReedSolomonCoder<NativeReedSolomonCoder.Tables> {
  /** ISA-L's expanded coefficients for one coefficient matrix. */
  static final class Tables {
    final ByteBuffer buffer;
    final long address;

    Tables(ByteBuffer buffer) {
      this.buffer = buffer;
      this.address = DirectAddresses.AVAILABLE ? DirectAddresses.of(buffer) : 0;
    }
  }

  /** Whether unit addresses are read in Java (one JNI call, no callbacks) or by JNI per buffer. */
  private final boolean addressesInJava;

  NativeReedSolomonCoder(int k, int r) {
    this(k, r, DirectAddresses.AVAILABLE);
  }

  /** For tests: {@code addressesInJava = false} takes the path used where Unsafe is unavailable. */
  NativeReedSolomonCoder(int k, int r, boolean addressesInJava) {
    super(k, r);
    this.addressesInJava = addressesInJava && DirectAddresses.AVAILABLE;
  }

  @Override
  Tables compile(byte[] coefficients, int rows) {
    int k = coefficients.length / rows;
    ByteBuffer tables = ByteBuffer.allocateDirect(32 * k * rows);
    IsalNative.initTables(k, rows, coefficients, tables);
    return new Tables(tables);
  }

  @Override
  void apply(Tables tables, ByteBuffer[] inputs, ByteBuffer[] outputs, int len) {
    int k = inputs.length;
    int rows = outputs.length;
    if (!allDirect(inputs) || !allDirect(outputs)) {
      applyMixed(tables, inputs, outputs, len);
      return;
    }
    if (addressesInJava) {
      long[] addresses = new long[k + rows];
      for (int i = 0; i < k; i++) {
        addresses[i] = DirectAddresses.of(inputs[i]) + inputs[i].position();
      }
      for (int i = 0; i < rows; i++) {
        addresses[k + i] = DirectAddresses.of(outputs[i]) + outputs[i].position();
      }
      IsalNative.encodeAddresses(tables.address, k, rows, len, addresses);
      // The native code used raw addresses: the memory must outlive the call.
      Reference.reachabilityFence(tables);
      Reference.reachabilityFence(inputs);
      Reference.reachabilityFence(outputs);
      return;
    }
    int[] positions = new int[k + rows];
    for (int i = 0; i < k; i++) {
      positions[i] = inputs[i].position();
    }
    for (int i = 0; i < rows; i++) {
      positions[k + i] = outputs[i].position();
    }
    IsalNative.encode(tables.buffer, k, rows, len, inputs, outputs, positions);
  }

  /**
   * Units of which some are heap buffers: their arrays are pinned in the native call, not copied.
   * Each distinct array is passed once (a PUT's k data cells are usually views of one array).
   */
  private void applyMixed(Tables tables, ByteBuffer[] inputs, ByteBuffer[] outputs, int len) {
    int k = inputs.length;
    int units = k + outputs.length;
    long[] offsets = new long[units];
    int[] arrayOf = new int[units];
    byte[][] arrays = new byte[units][];
    ByteBuffer[] directs = addressesInJava ? null : new ByteBuffer[units];
    int distinct = 0;
    for (int u = 0; u < units; u++) {
      ByteBuffer b = u < k ? inputs[u] : outputs[u - k];
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
    IsalNative.encodeMixed(tables.buffer, k, outputs.length, len, directs, offsets, arrayOf,
        Arrays.copyOf(arrays, distinct));
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
