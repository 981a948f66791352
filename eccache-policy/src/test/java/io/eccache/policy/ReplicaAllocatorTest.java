package io.eccache.policy;

import static io.eccache.policy.Demands.headThenOnes;
import static io.eccache.policy.Demands.unitsByRank;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplicaAllocatorTest {
  private static final long SIZE = 10_000_000;

  @Test
  void uniformPopularityGivesTheExtrasToTheSmallestKeys() {
    // 15% of 200 MB = 30 MB = 3 extra copies; all loads tie at 1/1, winners drop to 1/2: obj00..obj02.
    Allocation allocation = new ReplicaAllocator(1, 0.15, 4).allocate(Demands.uniform(20, SIZE));
    assertArrayEquals(headThenOnes(20, 2, 2, 2), unitsByRank(allocation, 20));
    assertEquals(30_000_000, allocation.budgetBytes());
    assertEquals(30_000_000, allocation.extraBytes());
  }

  @Test
  void zipfOverTwentyObjects() {
    // 3 extras. Loads in units of P0: obj00 1 (c 1->2), 1/2 (2->3); obj01 2^-s; obj02 3^-s.
    //  zipf 0.9: 1, then 0.536 (obj01) beats 0.5, then 0.5 (obj00) beats 0.372: c = [3, 2, 1, ...]
    //  zipf 1.1: 1, then 0.5 (obj00) beats 0.467, then 0.467 (obj01) beats 1/3: c = [3, 2, 1, ...]
    for (double exponent : new double[] {0.9, 1.1}) {
      Allocation allocation = new ReplicaAllocator(1, 0.15, 4).allocate(Demands.zipf(20, SIZE, exponent));
      assertArrayEquals(headThenOnes(20, 3, 2), unitsByRank(allocation, 20), "zipf " + exponent);
      assertEquals(30_000_000, allocation.extraBytes());
    }
  }

  @Test
  void zipfOverFiftyObjectsFlattensDifferentlyForEachExponent() {
    // 15% of 500 MB = 75 MB: 7 extra copies, 5 MB left over. The extras are the 7 largest P_i / c:
    //  zipf 0.9: 1, .536, .5, .372, .333, .287 (obj03), .268 (obj01 at c = 2) -> c = [4, 3, 2, 2, 1, ...]
    //  zipf 1.1: 1, .5, .467, .333, .299 (obj02), .25 (obj00 at c = 4), .233 (obj01 at c = 2);
    //    obj03's .218 misses -> c = [5, 3, 2, 1, ...]
    Allocation flatter = new ReplicaAllocator(1, 0.15, 8).allocate(Demands.zipf(50, SIZE, 0.9));
    assertArrayEquals(headThenOnes(50, 4, 3, 2, 2), unitsByRank(flatter, 50));
    Allocation steeper = new ReplicaAllocator(1, 0.15, 8).allocate(Demands.zipf(50, SIZE, 1.1));
    assertArrayEquals(headThenOnes(50, 5, 3, 2), unitsByRank(steeper, 50));
    assertEquals(75_000_000, flatter.budgetBytes());
    assertEquals(70_000_000, flatter.extraBytes());
    assertEquals(70_000_000, steeper.extraBytes());
  }

  @Test
  void budgetBelowOneObjectGivesNoExtras() {
    // 4% of 200 MB = 8 MB < one 10 MB copy.
    Allocation allocation = new ReplicaAllocator(1, 0.04, 4).allocate(Demands.zipf(20, SIZE, 0.9));
    assertArrayEquals(headThenOnes(20), unitsByRank(allocation, 20));
    assertEquals(8_000_000, allocation.budgetBytes());
    assertEquals(0, allocation.extraBytes());
  }

  @Test
  void baseCopiesAreChargedAndGivenEvenBeyondTheBudget() {
    // Two copies each costs 200 MB beyond the first copies, far over the 30 MB budget.
    Allocation allocation = new ReplicaAllocator(2, 0.15, 4).allocate(Demands.zipf(20, SIZE, 0.9));
    int[] two = new int[20];
    Arrays.fill(two, 2);
    assertArrayEquals(two, unitsByRank(allocation, 20));
    assertEquals(30_000_000, allocation.budgetBytes());
    assertEquals(200_000_000, allocation.extraBytes());
  }

  @Test
  void hugeBudgetCapsEveryReadObjectAndLeavesUnreadOnesAtBase() {
    List<ObjectDemand> objects = new ArrayList<>(Demands.zipf(19, SIZE, 1.1));
    objects.add(new ObjectDemand("unread", SIZE, 0));
    Allocation allocation = new ReplicaAllocator(1, 100.0, 4).allocate(objects);
    for (int i = 0; i < 19; i++) {
      assertEquals(4, allocation.unitsOf(Demands.key(i)));
    }
    assertEquals(1, allocation.unitsOf("unread"));
    assertEquals(19 * 3 * SIZE, allocation.extraBytes());
  }

  @Test
  void aBigHotObjectThatDoesNotFitLeavesRoomForASmallerOne() {
    // 15% of 110 MB = 16.5 MB: big's 100 MB copy never fits; small gets one 10 MB copy, 6.5 MB left.
    List<ObjectDemand> objects = List.of(new ObjectDemand("big", 100_000_000, 10),
        new ObjectDemand("small", 10_000_000, 1));
    Allocation allocation = new ReplicaAllocator(1, 0.15, 4).allocate(objects);
    assertEquals(1, allocation.unitsOf("big"));
    assertEquals(2, allocation.unitsOf("small"));
    assertEquals(16_500_000, allocation.budgetBytes());
    assertEquals(10_000_000, allocation.extraBytes());
  }

  @Test
  void identicalBudgetsLeaveLessThanOneObjectUnspent() {
    long size = 10_000_007;
    for (double budget : new double[] {0.04, 0.10, 0.117, 0.15, 0.2, 0.333, 0.5}) {
      for (double exponent : new double[] {0.0, 0.9, 1.1}) {
        Allocation allocation =
            new ReplicaAllocator(1, budget, 100).allocate(Demands.zipf(100, size, exponent));
        allocation.units().values().forEach(c -> assertTrue(c < 100, "not capped"));
        long unspent = allocation.budgetBytes() - allocation.extraBytes();
        assertTrue(unspent >= 0 && unspent < size, "budget " + budget + " zipf " + exponent + " left "
            + unspent);
      }
    }
  }

  @Test
  void rejectsBadParametersQuotingThem() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new ReplicaAllocator(0, 0.15, 4))
        .getMessage().contains("0"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new ReplicaAllocator(1, -1.0, 4))
        .getMessage().contains("-1.0"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new ReplicaAllocator(3, 0.15, 2))
        .getMessage().contains("2"));
  }
}
