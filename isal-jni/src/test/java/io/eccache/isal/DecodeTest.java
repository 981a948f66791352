package io.eccache.isal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Any k of the k + r units rebuild every other unit, data and parity, in both implementations. */
class DecodeTest {
  private static final int LEN = 777;

  @ParameterizedTest(name = "RS({0},{1}) every subset")
  @CsvSource({"1,1", "2,1", "3,2", "2,2", "3,3", "4,4", "6,3", "5,6"})
  void everyKSubsetRebuildsEveryOtherUnit(int k, int r) {
    List<int[]> subsets = Stripes.subsets(k + r, k);
    for (ErasureCoder coder : Stripes.bothCoders(k, r)) {
      ByteBuffer[] all = encodedStripe(coder, LEN, k * 100 + r);
      for (int[] survivors : subsets) {
        checkRebuild(coder, all, survivors);
      }
    }
  }

  @ParameterizedTest(name = "RS({0},{1}) random subsets")
  @CsvSource({"10,4", "12,4", "20,6", "10,20", "100,50"})
  void randomSubsetsAndAllParitySubsets(int k, int r) {
    Random random = new Random(k * 1000L + r);
    for (ErasureCoder coder : Stripes.bothCoders(k, r)) {
      ByteBuffer[] all = encodedStripe(coder, LEN, k + r);
      for (int trial = 0; trial < 30; trial++) {
        List<Integer> units = new ArrayList<>();
        for (int i = 0; i < k + r; i++) {
          units.add(i);
        }
        Collections.shuffle(units, random);
        int[] survivors = units.subList(0, k).stream().mapToInt(Integer::intValue).sorted().toArray();
        checkRebuild(coder, all, survivors);
      }
      // The most parity-heavy subset: all parities first, then the last data units.
      int[] parityFirst = new int[k];
      for (int i = 0; i < k; i++) {
        parityFirst[i] = k + r - 1 - i;
      }
      java.util.Arrays.sort(parityFirst);
      checkRebuild(coder, all, parityFirst);
    }
  }

  @ParameterizedTest(name = "RS({0},{1}) erased data only")
  @CsvSource({"10,4", "6,3"})
  void rebuildsOnlyWhatIsAskedAndCachesThePlan(int k, int r) {
    ErasureCoder coder = ReedSolomon.coder(k, r, ReedSolomon.Implementation.NATIVE);
    ByteBuffer[] all = encodedStripe(coder, LEN, 99);
    ByteBuffer[] units = all.clone();
    units[0] = null;
    units[k - 1] = null;
    ByteBuffer[] out = Stripes.empty(1, LEN);
    int before = ((AbstractReedSolomonCoder<?>) coder).cachedDecodePlans();
    for (int i = 0; i < 3; i++) {
      coder.decode(units, new int[] {k - 1}, out);
      assertArrayEquals(Stripes.bytes(all[k - 1]), Stripes.bytes(out[0]));
    }
    assertTrue(((AbstractReedSolomonCoder<?>) coder).cachedDecodePlans() <= before + 1,
        "one erasure pattern must compile one plan");
  }

  /** Encodes a random stripe; returns all k + r units. */
  static ByteBuffer[] encodedStripe(ErasureCoder coder, int len, long seed) {
    int k = coder.dataUnits();
    int r = coder.parityUnits();
    ByteBuffer[] data = Stripes.random(k, len, seed);
    ByteBuffer[] parity = Stripes.empty(r, len);
    coder.encode(data, parity);
    ByteBuffer[] all = new ByteBuffer[k + r];
    System.arraycopy(data, 0, all, 0, k);
    System.arraycopy(parity, 0, all, k, r);
    return all;
  }

  /** Keeps only the survivors, rebuilds every other unit, compares with the originals. */
  static void checkRebuild(ErasureCoder coder, ByteBuffer[] all, int[] survivors) {
    int n = all.length;
    ByteBuffer[] units = new ByteBuffer[n];
    for (int s : survivors) {
      units[s] = all[s];
    }
    int[] erased = new int[n - survivors.length];
    int e = 0;
    for (int i = n - 1; i >= 0; i--) { // reversed: output order must follow erased, not unit order
      if (units[i] == null) {
        erased[e++] = i;
      }
    }
    assertEquals(erased.length, e);
    ByteBuffer[] outputs = Stripes.empty(erased.length, all[0].remaining());
    coder.decode(units, erased, outputs);
    for (int i = 0; i < erased.length; i++) {
      assertArrayEquals(Stripes.bytes(all[erased[i]]), Stripes.bytes(outputs[i]),
          () -> coder + " survivors " + java.util.Arrays.toString(survivors));
    }
  }
}
