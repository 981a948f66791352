package io.eccache.policy;

import java.util.List;

/**
 * Selective replication, EC-Cache's baseline (OSDI'16 section 6.1): every object gets {@code baseCopies}
 * copies, and the memory budget buys extra copies of the most loaded objects, flattening the popularity
 * skew from the most popular object down.
 *
 * <p>A copy of an object of size S costs S bytes. The budget is {@code floor(overheadBudget * sum S)} bytes
 * beyond the first copy of every object, and copies beyond the first that {@code baseCopies} asks for are
 * charged to it. Extras go one at a time to the object with the highest per-copy load {@code P / c}; an
 * object whose next copy would exceed {@code maxCopies} or the remaining budget is passed over for good
 * while smaller objects may still fit. Objects with popularity 0 never get extras. Stateless and
 * thread-safe.
 */
public final class ReplicaAllocator {
  private final int baseCopies;
  private final double overheadBudget;
  private final int maxCopies;

  /**
   * @param baseCopies copies every object gets, at least 1
   * @param overheadBudget memory beyond one copy of everything, as a fraction of the total object size
   * @param maxCopies most copies of one object, at least {@code baseCopies}
   * @throws IllegalArgumentException if any parameter is out of range
   */
  public ReplicaAllocator(int baseCopies, double overheadBudget, int maxCopies) {
    if (baseCopies < 1) {
      throw new IllegalArgumentException("baseCopies must be >= 1 but was " + baseCopies);
    }
    SkewFlattener.checkOverheadBudget(overheadBudget);
    if (maxCopies < baseCopies) {
      throw new IllegalArgumentException("maxCopies must be >= baseCopies = " + baseCopies + " but was "
          + maxCopies);
    }
    this.baseCopies = baseCopies;
    this.overheadBudget = overheadBudget;
    this.maxCopies = maxCopies;
  }

  /**
   * Decides the copy count of every object.
   *
   * <p>Base copies are always given, even when they alone exceed the budget; {@link Allocation#extraBytes()}
   * then reports the true bytes beyond one copy each, which exceed {@link Allocation#budgetBytes()}.
   *
   * @param objects the objects, with distinct keys
   * @return per key the copy count, plus the bytes beyond one copy each and the budget
   * @throws IllegalArgumentException if two objects share a key
   * @throws ArithmeticException if the byte totals overflow a long
   */
  public Allocation allocate(List<ObjectDemand> objects) {
    return SkewFlattener.flatten(objects, overheadBudget, baseCopies, 1, 0, maxCopies, size -> size);
  }

  @Override
  public String toString() {
    return "ReplicaAllocator{baseCopies=" + baseCopies + ", overheadBudget=" + overheadBudget
        + ", maxCopies=" + maxCopies + "}";
  }
}
