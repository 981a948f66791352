package io.eccache.isal;

import java.nio.ByteBuffer;

/**
 * The coder over ISA-L's {@code ec_encode_data} (SIMD: AVX2, AVX-512 or GFNI, chosen by ISA-L at run
 * time). Its only state is immutable coding tables in Java-owned direct buffers, so there is nothing
 * to close and nothing a concurrent caller can disturb.
 */
final class NativeReedSolomonCoder extends AbstractReedSolomonCoder<ByteBuffer> {
  NativeReedSolomonCoder(int k, int r) {
    super(k, r);
  }

  @Override
  ByteBuffer compile(byte[] coefficients, int rows) {
    int k = coefficients.length / rows;
    ByteBuffer tables = ByteBuffer.allocateDirect(32 * k * rows);
    IsalNative.initTables(k, rows, coefficients, tables);
    return tables;
  }

  @Override
  void apply(ByteBuffer tables, ByteBuffer[] inputs, ByteBuffer[] outputs, int len) {
    int[] positions = new int[inputs.length + outputs.length];
    for (int i = 0; i < inputs.length; i++) {
      positions[i] = inputs[i].position();
    }
    for (int i = 0; i < outputs.length; i++) {
      positions[inputs.length + i] = outputs[i].position();
    }
    IsalNative.encode(tables, inputs.length, outputs.length, len, inputs, outputs, positions);
  }

  @Override
  public ReedSolomon.Implementation implementation() {
    return ReedSolomon.Implementation.NATIVE;
  }
}
