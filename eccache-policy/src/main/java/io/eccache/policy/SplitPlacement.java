package io.eccache.policy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * EC-Cache's placement: the splits of one object go to distinct workers chosen uniformly at random
 * (paper section 4.2), which spreads load without any knowledge of popularity.
 */
public final class SplitPlacement {
  private SplitPlacement() {}

  /**
   * Chooses {@code count} distinct elements of {@code candidates}, uniformly at random, in random order.
   *
   * @throws IllegalArgumentException if there are fewer candidates than {@code count}
   */
  public static <T> List<T> chooseDistinct(List<T> candidates, int count, Random random) {
    if (count > candidates.size()) {
      throw new IllegalArgumentException("needs " + count + " distinct workers but only "
          + candidates.size() + " are live");
    }
    List<T> pool = new ArrayList<>(candidates);
    // Partial Fisher-Yates: the first `count` positions are a uniform random sample.
    for (int i = 0; i < count; i++) {
      Collections.swap(pool, i, i + random.nextInt(pool.size() - i));
    }
    return new ArrayList<>(pool.subList(0, count));
  }
}
