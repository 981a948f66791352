package io.eccache.policy;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What an allocator decided: how many units each object gets, and what that costs in memory.
 *
 * <p>A unit is a parity split for {@link ParityAllocator}, a copy for {@link ReplicaAllocator} and a
 * partition for {@link PartitionAllocator}. {@link #extraBytes()} is the memory spent beyond one copy of
 * every object, so it can exceed {@link #budgetBytes()} when the mandatory base units alone do. Immutable;
 * the map iterates in key order so printed results are reproducible.
 */
public final class Allocation {
  private final Map<String, Integer> units;
  private final long extraBytes;
  private final long budgetBytes;

  /**
   * @param units units per key, each at least 0
   * @param extraBytes memory beyond one copy of every object, at least 0
   * @param budgetBytes the memory budget the allocator worked to, at least 0
   * @throws IllegalArgumentException if a count or byte figure is negative or a key or count is null
   */
  public Allocation(Map<String, Integer> units, long extraBytes, long budgetBytes) {
    Objects.requireNonNull(units, "units");
    TreeMap<String, Integer> copy = new TreeMap<>();
    for (Map.Entry<String, Integer> entry : units.entrySet()) {
      if (entry.getKey() == null || entry.getValue() == null || entry.getValue() < 0) {
        throw new IllegalArgumentException("units must map keys to counts >= 0 but had "
            + entry.getKey() + "=" + entry.getValue());
      }
      copy.put(entry.getKey(), entry.getValue());
    }
    if (extraBytes < 0) {
      throw new IllegalArgumentException("extraBytes must be >= 0 but was " + extraBytes);
    }
    if (budgetBytes < 0) {
      throw new IllegalArgumentException("budgetBytes must be >= 0 but was " + budgetBytes);
    }
    this.units = Collections.unmodifiableMap(copy);
    this.extraBytes = extraBytes;
    this.budgetBytes = budgetBytes;
  }

  /** @return units per key, unmodifiable, in key order */
  public Map<String, Integer> units() {
    return units;
  }

  /**
   * @param key a key that was allocated
   * @return that key's units
   * @throws IllegalArgumentException if the key was not part of this allocation
   */
  public int unitsOf(String key) {
    Integer count = units.get(key);
    if (count == null) {
      throw new IllegalArgumentException("no allocation for key '" + key + "'");
    }
    return count;
  }

  /** @return memory spent beyond one copy of every object, in bytes */
  public long extraBytes() {
    return extraBytes;
  }

  /** @return the memory budget, in bytes, that the allocator worked to */
  public long budgetBytes() {
    return budgetBytes;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof Allocation)) {
      return false;
    }
    Allocation that = (Allocation) other;
    return extraBytes == that.extraBytes && budgetBytes == that.budgetBytes && units.equals(that.units);
  }

  @Override
  public int hashCode() {
    return Objects.hash(units, extraBytes, budgetBytes);
  }

  @Override
  public String toString() {
    return "Allocation{extraBytes=" + extraBytes + ", budgetBytes=" + budgetBytes + ", units=" + units + "}";
  }
}
