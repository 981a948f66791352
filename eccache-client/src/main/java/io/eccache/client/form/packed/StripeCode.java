package io.eccache.client.form.packed;

import io.eccache.common.proto.LogId;
import io.eccache.common.proto.ReadParityRequest;
import io.eccache.common.proto.Stripe;
import io.eccache.isal.CodeMatrix;
import io.eccache.isal.ErasureCoder;
import io.eccache.isal.ReedSolomon;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The code of packed stripes: RS(k, r) over the XOR-first Cauchy matrix, so parity row 0 (P1,
 * cached as unit k) is the XOR of the k data units and rows 1..r-1 live on log nodes. Unit
 * {@code i} of a stripe is data for {@code i < k}, P1 for {@code i = k}; log row {@code j} is unit
 * {@code k + j} to the decoder.
 */
final class StripeCode {
  private static final Map<Long, ErasureCoder> CODERS = new ConcurrentHashMap<>();

  private StripeCode() {}

  /** The (shared, thread-safe) coder of RS(k, r) packed stripes. */
  static ErasureCoder coder(int k, int r) {
    return CODERS.computeIfAbsent(((long) k << 32) | r,
        c -> ReedSolomon.coder(k, r, CodeMatrix.XOR_FIRST_CAUCHY));
  }

  /** The r parity units of {@code data} (k units of one size). */
  static byte[][] encode(byte[][] data, int r) {
    int k = data.length;
    ByteBuffer[] in = new ByteBuffer[k];
    for (int i = 0; i < k; i++) {
      in[i] = ByteBuffer.wrap(data[i]);
    }
    byte[][] parity = new byte[r][data[0].length];
    ByteBuffer[] out = new ByteBuffer[r];
    for (int i = 0; i < r; i++) {
      out[i] = ByteBuffer.wrap(parity[i]);
    }
    coder(k, r).encode(in, out);
    return parity;
  }

  /**
   * Rebuilds unit {@code lost} from {@code units} (k + r entries, data then parity rows; null
   * where unknown, at least k known).
   */
  static byte[] decode(byte[][] units, int k, int r, int lost) {
    return decode(units, k, r, new int[] {lost})[0];
  }

  /** Rebuilds units {@code lost} (each null in {@code units}), in that order. */
  static byte[][] decode(byte[][] units, int k, int r, int[] lost) {
    ByteBuffer[] in = new ByteBuffer[k + r];
    int unitSize = 0;
    for (int i = 0; i < k + r; i++) {
      if (units[i] != null) {
        in[i] = ByteBuffer.wrap(units[i]);
        unitSize = units[i].length;
      }
    }
    byte[][] out = new byte[lost.length][unitSize];
    ByteBuffer[] outputs = new ByteBuffer[lost.length];
    for (int j = 0; j < lost.length; j++) {
      outputs[j] = ByteBuffer.wrap(out[j]);
    }
    coder(k, r).decode(in, lost, outputs);
    return out;
  }

  /** The log holding parity row {@code row} of {@code stripe}. */
  static LogId log(Stripe stripe, int row) {
    return log(stripe.getNamespace(), stripe.getDataUnits(), stripe.getParityUnits(), row,
        stripe.getUnitSize());
  }

  /** A log node's parity row {@code row} of {@code stripe}, asked at the stripe's version. */
  static ReadParityRequest readParity(Stripe stripe, int row) {
    return ReadParityRequest.newBuilder().setLog(log(stripe, row)).setStripe(stripe.getId())
        .setVersion(stripe.getVersion()).build();
  }

  /** The log holding parity row {@code row} of a packed namespace's stripes. */
  static LogId log(String namespace, int k, int r, int row, long unitSize) {
    return LogId.newBuilder().setNamespace(namespace).setDataUnits(k).setParityUnits(r)
        .setRow(row).setUnitSize((int) unitSize).build();
  }
}
