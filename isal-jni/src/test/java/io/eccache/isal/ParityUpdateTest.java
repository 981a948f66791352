package io.eccache.isal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What one parity update computes: {@code parityDelta} writes exactly c(row, unit) x delta (checked
 * against the matrix and the field, not against the coder), {@code encodeDelta} adds it (a stripe
 * encoded unit by unit from zero parity is its encode), empty calls write nothing, and the plans of
 * row subsets stay within the plan cache's bound; native (both ways) and Java alike.
 */
class ParityUpdateTest {
  @ParameterizedTest
  @EnumSource(CodeMatrix.class)
  void parityDeltaIsTheCoefficientTimesTheDelta(CodeMatrix matrix) {
    int k = 7;
    int r = 5;
    int[] rows = {4, 0, 2, 1, 3};
    for (int len : new int[] {1, 15, 16, 33, 64, 65, 4097}) {
      ByteBuffer delta = Stripes.random(1, len, len)[0];
      for (ErasureCoder coder : Deltas.coders(k, r, matrix)) {
        for (int unit = 0; unit < k; unit++) {
          // Garbage: overwritten, not accumulated.
          ByteBuffer[] out = unit % 2 == 0 ? Stripes.empty(r, len) : Deltas.heapGarbage(r, len);
          coder.parityDelta(unit, delta, rows, out);
          for (int g = 0; g < r; g++) {
            byte c = Deltas.coefficient(coder, rows[g], unit);
            assertArrayEquals(Deltas.times(c, Stripes.bytes(delta)), Stripes.bytes(out[g]),
                coder + " len " + len + " unit " + unit + " row " + rows[g]);
          }
          if (matrix == CodeMatrix.XOR_FIRST_CAUCHY) {
            assertArrayEquals(Stripes.bytes(delta), Stripes.bytes(out[1]), "row 0 is the delta");
          }
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(CodeMatrix.class)
  void encodingUnitByUnitFromZeroParityEqualsEncode(CodeMatrix matrix) {
    // A unit's content is its delta from zeros: adding each one to zero parity encodes the stripe.
    int k = 10;
    int r = 4;
    int len = 5000;
    ByteBuffer[] data = Stripes.random(k, len, 77);
    for (ErasureCoder coder : Deltas.coders(k, r, matrix)) {
      ByteBuffer[] parity = new ByteBuffer[r];
      for (int i = 0; i < r; i++) {
        parity[i] = i % 2 == 0 ? ByteBuffer.allocate(len) : ByteBuffer.allocateDirect(len);
      }
      for (int unit = 0; unit < k; unit++) {
        coder.encodeDelta(unit, data[unit], parity);
      }
      ByteBuffer[] expected = Stripes.empty(r, len);
      coder.encode(data, expected);
      for (int i = 0; i < r; i++) {
        assertArrayEquals(Stripes.bytes(expected[i]), Stripes.bytes(parity[i]), coder + " " + i);
      }
    }
  }

  @Test
  void noRowsOrZeroLengthWriteNothing() {
    for (ErasureCoder coder : Deltas.coders(4, 2, CodeMatrix.XOR_FIRST_CAUCHY)) {
      ByteBuffer delta = Stripes.random(1, 50, 3)[0];
      coder.encodeDelta(1, delta, new int[0], new ByteBuffer[0]);
      coder.parityDelta(1, delta, new int[0], new ByteBuffer[0]);
      byte[] array = new byte[10];
      Arrays.fill(array, (byte) 0x5a);
      coder.encodeDelta(3, ByteBuffer.wrap(array, 2, 0), new ByteBuffer[] {
          ByteBuffer.wrap(array, 4, 0), ByteBuffer.allocateDirect(0)});
      coder.parityDelta(0, ByteBuffer.allocateDirect(0), new int[] {1},
          new ByteBuffer[] {ByteBuffer.wrap(array, 2, 0)});
      for (byte b : array) {
        assertEquals((byte) 0x5a, b, coder.toString());
      }
    }
  }

  @Test
  void updatePlansForRowSubsetsAreCachedWithinTheBound() {
    // r = 8 has 255 non-empty row subsets: 100 of them, each checked, through one coder each.
    int k = 5;
    int r = 8;
    int len = 100;
    for (ErasureCoder coder : Deltas.coders(k, r, CodeMatrix.XOR_FIRST_CAUCHY)) {
      ByteBuffer delta = Stripes.random(1, len, 4)[0];
      for (int mask = 1; mask <= 100; mask++) {
        int bits = mask;
        int[] rows = IntStream.range(0, r).filter(bit -> (bits >> bit & 1) != 0)
            .toArray();
        ByteBuffer[] out = Stripes.empty(rows.length, len);
        coder.parityDelta(mask % k, delta, rows, out);
        for (int g = 0; g < rows.length; g++) {
          byte c = Deltas.coefficient(coder, rows[g], mask % k);
          assertArrayEquals(Deltas.times(c, Stripes.bytes(delta)), Stripes.bytes(out[g]));
        }
      }
      int cached = ((AbstractReedSolomonCoder<?>) coder).cachedDecodePlans();
      assertTrue(cached <= AbstractReedSolomonCoder.MAX_CACHED_DECODE_PLANS, cached + " plans");
    }
  }
}
