package io.eccache.isal;

import java.lang.ref.Reference;
import java.nio.ByteBuffer;

/**
 * The coder over ISA-L's {@code ec_encode_data} (SIMD: AVX2 or AVX-512, chosen by ISA-L at run time).
 * Its only state is immutable coding tables in Java-owned direct buffers, so there is nothing to
 * close and nothing a concurrent caller can disturb.
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

  @Override
  public ReedSolomon.Implementation implementation() {
    return ReedSolomon.Implementation.NATIVE;
  }
}
