package io.eccache.policy;

import java.util.ArrayList;
import java.util.List;

/** Workloads shared by the allocator tests. Keys are "obj00", "obj01", ... so key order is rank order. */
final class Demands {
  private Demands() {}

  /** @return {@code count} objects of one size with Zipf(exponent) popularity 1 / rank^exponent */
  static List<ObjectDemand> zipf(int count, long sizeBytes, double exponent) {
    List<ObjectDemand> objects = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      objects.add(new ObjectDemand(key(i), sizeBytes, 1.0 / Math.pow(i + 1, exponent)));
    }
    return objects;
  }

  /** @return {@code count} objects of one size and equal popularity 1 */
  static List<ObjectDemand> uniform(int count, long sizeBytes) {
    return zipf(count, sizeBytes, 0);
  }

  static String key(int rank) {
    return String.format("obj%02d", rank);
  }

  /** @return the units of obj00, obj01, ... in rank order */
  static int[] unitsByRank(Allocation allocation, int count) {
    int[] units = new int[count];
    for (int i = 0; i < count; i++) {
      units[i] = allocation.unitsOf(key(i));
    }
    return units;
  }

  /** @return {@code head} followed by 1s up to {@code count} entries */
  static int[] headThenOnes(int count, int... head) {
    int[] units = new int[count];
    for (int i = 0; i < count; i++) {
      units[i] = i < head.length ? head[i] : 1;
    }
    return units;
  }
}
