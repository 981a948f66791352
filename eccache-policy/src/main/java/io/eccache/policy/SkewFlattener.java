package io.eccache.policy;

import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.LongUnaryOperator;

/**
 * The rule EC-Cache uses for both of its schemes (paper section 6.1): give every object its base units, then
 * spend the rest of the budget "to flatten out the popularity skew ... starting from the most popular
 * object". Greedy water-filling: repeatedly give one more unit to the object whose per-unit load is highest.
 */
final class SkewFlattener {
  private SkewFlattener() {}

  /**
   * Allocates units by greedy water-filling.
   *
   * @param objects the objects; keys must be distinct
   * @param overheadBudget budget as a fraction of the total size of all objects
   * @param baseUnits units every object gets whatever the budget
   * @param freeUnits units that cost nothing (1 for replication: the copy that is always cached)
   * @param loadOffset units that share an object's load but are not counted (k data splits for EC)
   * @param maxUnits no object gets more than this many units
   * @param unitCost bytes one unit of an object of the given size costs
   */
  static Allocation flatten(List<ObjectDemand> objects, double overheadBudget, int baseUnits, int freeUnits,
      int loadOffset, int maxUnits, LongUnaryOperator unitCost) {
    Objects.requireNonNull(objects, "objects");
    int count = objects.size();
    String[] keys = new String[count];
    double[] popularity = new double[count];
    long[] cost = new long[count];
    int[] units = new int[count];
    Set<String> seen = new HashSet<>();
    long totalSize = 0;
    for (int i = 0; i < count; i++) {
      ObjectDemand object = Objects.requireNonNull(objects.get(i), "objects[" + i + "]");
      if (!seen.add(object.key())) {
        throw new IllegalArgumentException("duplicate key '" + object.key() + "'");
      }
      keys[i] = object.key();
      popularity[i] = object.popularity();
      cost[i] = unitCost.applyAsLong(object.sizeBytes());
      units[i] = baseUnits;
      totalSize = Math.addExact(totalSize, object.sizeBytes());
    }
    // A cast from double saturates at Long.MAX_VALUE, which is what a huge fraction should mean.
    long budget = (long) Math.floor(overheadBudget * (double) totalSize);

    long spent = 0;
    for (int i = 0; i < count; i++) {
      spent = Math.addExact(spent, Math.multiplyExact(cost[i], (long) (baseUnits - freeUnits)));
    }

    // Highest load per unit first; equal loads go to the smaller key so results do not depend on input order.
    Comparator<Integer> hottestFirst = (a, b) -> {
      int byLoad = Double.compare(popularity[b] / (loadOffset + units[b]),
          popularity[a] / (loadOffset + units[a]));
      return byLoad != 0 ? byLoad : keys[a].compareTo(keys[b]);
    };
    PriorityQueue<Integer> heap = new PriorityQueue<>(Math.max(1, count), hottestFirst);
    for (int i = 0; i < count; i++) {
      // An object nobody reads gains nothing from more units.
      if (popularity[i] > 0 && units[i] < maxUnits) {
        heap.add(i);
      }
    }
    while (!heap.isEmpty()) {
      int hottest = heap.poll();
      // Dropped for good when it does not fit: the budget only shrinks, and its cost never changes.
      if (units[hottest] >= maxUnits || cost[hottest] > budget - spent) {
        continue;
      }
      units[hottest]++;
      spent += cost[hottest];
      heap.add(hottest);
    }

    Map<String, Integer> result = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      result.put(keys[i], units[i]);
    }
    return new Allocation(result, spent, budget);
  }

  /**
   * @throws IllegalArgumentException if the fraction is negative, NaN or infinite
   */
  static void checkOverheadBudget(double overheadBudget) {
    if (!(overheadBudget >= 0) || Double.isInfinite(overheadBudget)) {
      throw new IllegalArgumentException("overheadBudget must be a finite fraction >= 0 but was "
          + overheadBudget);
    }
  }
}
