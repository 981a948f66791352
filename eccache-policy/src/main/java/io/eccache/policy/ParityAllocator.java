package io.eccache.policy;

import java.util.List;

/**
 * EC-Cache's parity allocation (OSDI'16 section 6.1): every object is split into k data splits and gets at
 * least {@code baseParities} parity splits; what is left of the memory budget buys extra parities for the
 * most loaded objects, flattening the popularity skew from the most popular object down.
 *
 * <p>A parity split of an object of size S costs {@code ceil(S / k)} bytes. The budget is
 * {@code floor(overheadBudget * sum S)} bytes of parity (padding of the last data split is not counted).
 * Extras go one at a time to the object with the highest per-split load {@code P / (k + r)}; an object
 * whose next parity would exceed {@code maxSplits} splits or the remaining budget is passed over for good
 * while smaller objects may still fit. Objects with popularity 0 never get extras. Stateless and
 * thread-safe.
 */
public final class ParityAllocator {
  private final int dataSplits;
  private final int baseParities;
  private final double overheadBudget;
  private final int maxSplits;

  /**
   * @param k data splits per object, at least 1 (the paper uses 10)
   * @param baseParities parities every object gets, at least 0 (the paper's Delta = 1, i.e. 10% at k = 10)
   * @param overheadBudget parity memory as a fraction of the total object size, e.g. 0.15
   * @param maxSplits most splits (data plus parity) one object may have; at least {@code k + baseParities}
   * @throws IllegalArgumentException if any parameter is out of range
   */
  public ParityAllocator(int k, int baseParities, double overheadBudget, int maxSplits) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1 but was " + k);
    }
    if (baseParities < 0) {
      throw new IllegalArgumentException("baseParities must be >= 0 but was " + baseParities);
    }
    SkewFlattener.checkOverheadBudget(overheadBudget);
    if ((long) maxSplits < (long) k + baseParities) {
      throw new IllegalArgumentException("maxSplits must be >= k + baseParities = "
          + ((long) k + baseParities) + " but was " + maxSplits);
    }
    this.dataSplits = k;
    this.baseParities = baseParities;
    this.overheadBudget = overheadBudget;
    this.maxSplits = maxSplits;
  }

  /**
   * Decides the parity count r of every object.
   *
   * <p>Base parities are always given, even when they alone exceed the budget: an object without them
   * could not tolerate a lost split. {@link Allocation#extraBytes()} then reports the true parity bytes,
   * which exceed {@link Allocation#budgetBytes()}.
   *
   * @param objects the objects, with distinct keys
   * @return per key the parity count r, plus the parity bytes and the budget
   * @throws IllegalArgumentException if two objects share a key
   * @throws ArithmeticException if the byte totals overflow a long
   */
  public Allocation allocate(List<ObjectDemand> objects) {
    return SkewFlattener.flatten(objects, overheadBudget, baseParities, 0, dataSplits,
        maxSplits - dataSplits, this::splitBytes);
  }

  /**
   * @param sizeBytes an object's size
   * @return the bytes one split of that object occupies, {@code ceil(sizeBytes / k)}
   */
  public long splitBytes(long sizeBytes) {
    if (sizeBytes < 0) {
      throw new IllegalArgumentException("sizeBytes must be >= 0 but was " + sizeBytes);
    }
    return sizeBytes / dataSplits + (sizeBytes % dataSplits == 0 ? 0 : 1);
  }

  @Override
  public String toString() {
    return "ParityAllocator{k=" + dataSplits + ", baseParities=" + baseParities + ", overheadBudget="
        + overheadBudget + ", maxSplits=" + maxSplits + "}";
  }
}
