package io.eccache.policy;

import static io.eccache.policy.Demands.headThenOnes;
import static io.eccache.policy.Demands.unitsByRank;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ParityAllocatorTest {
  /** 10 MB objects: one split at k = 10 is exactly 1 MB, so budgets count in whole splits. */
  private static final long SIZE = 10_000_000;
  private static final long SPLIT = 1_000_000;

  @Test
  void uniformPopularityGivesTheExtrasToTheSmallestKeys() {
    // 20 x 10 MB = 200 MB; 15% = 30 MB = 30 splits; base r = 1 takes 20, leaving 10 extras. All loads tie
    // at 1/11; each winner drops to 1/12, so the next smallest key at 1/11 wins: obj00..obj09 get r = 2.
    List<ObjectDemand> objects = Demands.uniform(20, SIZE);
    Allocation allocation = new ParityAllocator(10, 1, 0.15, 20).allocate(objects);
    int[] expected = new int[20];
    Arrays.fill(expected, 0, 10, 2);
    Arrays.fill(expected, 10, 20, 1);
    assertArrayEquals(expected, unitsByRank(allocation, 20));
    assertEquals(30 * SPLIT, allocation.budgetBytes());
    assertEquals(30 * SPLIT, allocation.extraBytes());

    // Input order must not matter.
    List<ObjectDemand> shuffled = new ArrayList<>(objects);
    Collections.shuffle(shuffled, new Random(7));
    assertEquals(allocation, new ParityAllocator(10, 1, 0.15, 20).allocate(shuffled));
  }

  @Test
  void zipfOverTwentyObjectsFeedsTheHottestUntilItIsCapped() {
    // 10 extras as above. obj00's j-th extra has per-split load P0/(10 + j), j = 1..9 before the cap
    // (maxSplits 20 means r <= 10); obj01's first is P1/11. P1/P0 = 2^-0.9 = 0.536 (2^-1.1 = 0.467), so
    // P1/11 = 0.0487 P0 (0.0424 P0) is below P0/19 = 0.0526 P0: obj00 takes 9 extras to r = 10, then the
    // 10th goes to obj01. Same vector for both exponents; the tail stays at 1.
    for (double exponent : new double[] {0.9, 1.1}) {
      Allocation allocation = new ParityAllocator(10, 1, 0.15, 20).allocate(Demands.zipf(20, SIZE, exponent));
      assertArrayEquals(headThenOnes(20, 10, 2), unitsByRank(allocation, 20), "zipf " + exponent);
      assertEquals(30 * SPLIT, allocation.extraBytes());
    }
  }

  @Test
  void zipfOverFiftyObjectsFlattensDifferentlyForEachExponent() {
    // 50 x 10 MB: budget 75 splits, base 50, 25 extras. maxSplits 30 caps r at 20 (19 extras for obj00,
    // loads P0/11 .. P0/29 >= 0.0345 P0, all above anything obj01 or obj02 offer beyond the values below).
    // The other 6 extras are the 6 largest of P_i/(10 + j), in units of P0:
    //  zipf 0.9: obj01 0.536/11..16 = .0487 .0447 .0412 .0383 .0357 .0335; obj02 0.372/11, /12 = .0338 .0310
    //    -> top 6: five of obj01 (down to .0357) and obj02's .0338: r = [20, 6, 2, 1, ...]
    //  zipf 1.1: obj01 0.467/11..16 = .0424 .0389 .0359 .0333 .0311 .0292; obj02 0.299/11 = .0272
    //    -> top 6: all six of obj01: r = [20, 7, 1, 1, ...]
    Allocation flatter = new ParityAllocator(10, 1, 0.15, 30).allocate(Demands.zipf(50, SIZE, 0.9));
    assertArrayEquals(headThenOnes(50, 20, 6, 2), unitsByRank(flatter, 50));
    Allocation steeper = new ParityAllocator(10, 1, 0.15, 30).allocate(Demands.zipf(50, SIZE, 1.1));
    assertArrayEquals(headThenOnes(50, 20, 7), unitsByRank(steeper, 50));
    assertEquals(75 * SPLIT, flatter.budgetBytes());
    assertEquals(75 * SPLIT, flatter.extraBytes());
    assertEquals(75 * SPLIT, steeper.extraBytes());
  }

  @Test
  void budgetOfExactlyTheBaseGivesNoExtras() {
    // 10% of 200 MB = 20 splits = the base parities.
    Allocation allocation = new ParityAllocator(10, 1, 0.10, 20).allocate(Demands.zipf(20, SIZE, 0.9));
    assertArrayEquals(headThenOnes(20), unitsByRank(allocation, 20));
    assertEquals(20 * SPLIT, allocation.budgetBytes());
    assertEquals(20 * SPLIT, allocation.extraBytes());
  }

  @Test
  void baseParitiesAreGivenEvenBeyondTheBudget() {
    // 5% = 10 splits, but 20 objects need one parity each: extraBytes reports the truth.
    Allocation allocation = new ParityAllocator(10, 1, 0.05, 20).allocate(Demands.zipf(20, SIZE, 0.9));
    assertArrayEquals(headThenOnes(20), unitsByRank(allocation, 20));
    assertEquals(10 * SPLIT, allocation.budgetBytes());
    assertEquals(20 * SPLIT, allocation.extraBytes());
  }

  @Test
  void hugeBudgetCapsEveryReadObjectAndLeavesUnreadOnesAtBase() {
    List<ObjectDemand> objects = new ArrayList<>(Demands.zipf(19, SIZE, 0.9));
    objects.add(new ObjectDemand("unread", SIZE, 0));
    Allocation allocation = new ParityAllocator(10, 1, 100.0, 14).allocate(objects);
    for (int i = 0; i < 19; i++) {
      assertEquals(4, allocation.unitsOf(Demands.key(i)), "maxSplits 14 - k 10");
    }
    assertEquals(1, allocation.unitsOf("unread"));
    assertEquals((19 * 4 + 1) * SPLIT, allocation.extraBytes());
  }

  @Test
  void aBigHotObjectThatDoesNotFitLeavesRoomForASmallerOne() {
    // 110 MB total; 15% = 16.5 MB. Base: big 10 MB + small 1 MB = 11 MB, 5.5 MB left. big is hotter
    // (10/11 vs 1/11) but its 10 MB split does not fit, so it is dropped; small takes 1 MB extras five
    // times (r = 6) until 0.5 MB remain.
    List<ObjectDemand> objects = List.of(new ObjectDemand("big", 100_000_000, 10),
        new ObjectDemand("small", 10_000_000, 1));
    Allocation allocation = new ParityAllocator(10, 1, 0.15, 20).allocate(objects);
    assertEquals(1, allocation.unitsOf("big"));
    assertEquals(6, allocation.unitsOf("small"));
    assertEquals(16_500_000, allocation.budgetBytes());
    assertEquals(16_000_000, allocation.extraBytes());
  }

  @Test
  void identicalBudgetsLeaveLessThanOneSplitUnspent() {
    // 10,000,007-byte objects: a split is ceil(S / 10) = 1,000,001 bytes, so budgets rarely divide evenly.
    long size = 10_000_007;
    ParityAllocator sizer = new ParityAllocator(10, 1, 0.1, 200);
    long split = sizer.splitBytes(size);
    assertEquals(1_000_001, split);
    for (double budget : new double[] {0.117, 0.15, 0.2, 0.333, 0.5}) {
      for (double exponent : new double[] {0.0, 0.9, 1.1}) {
        Allocation allocation =
            new ParityAllocator(10, 1, budget, 200).allocate(Demands.zipf(100, size, exponent));
        allocation.units().values().forEach(r -> assertTrue(r < 190, "not capped"));
        long unspent = allocation.budgetBytes() - allocation.extraBytes();
        assertTrue(unspent >= 0 && unspent < split, "budget " + budget + " zipf " + exponent + " left "
            + unspent);
      }
    }
  }

  @Test
  void rejectsBadParametersQuotingThem() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new ParityAllocator(0, 1, 0.15, 20))
        .getMessage().contains("0"));
    assertThrows(IllegalArgumentException.class, () -> new ParityAllocator(10, -1, 0.15, 20));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new ParityAllocator(10, 1, -0.5, 20))
        .getMessage().contains("-0.5"));
    assertThrows(IllegalArgumentException.class, () -> new ParityAllocator(10, 1, Double.NaN, 20));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new ParityAllocator(10, 1, 0.15, 10))
        .getMessage().contains("10"));
    List<ObjectDemand> duplicated = List.of(new ObjectDemand("a", 1, 1), new ObjectDemand("a", 2, 2));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> new ParityAllocator(10, 1, 0.15, 20).allocate(duplicated)).getMessage().contains("'a'"));
  }

  @Test
  void emptyInputGivesAnEmptyAllocation() {
    Allocation allocation = new ParityAllocator(10, 1, 0.15, 20).allocate(List.of());
    assertTrue(allocation.units().isEmpty());
    assertEquals(0, allocation.extraBytes());
    assertEquals(0, allocation.budgetBytes());
  }
}
