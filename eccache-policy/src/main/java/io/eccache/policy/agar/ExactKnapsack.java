package io.eccache.policy.agar;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The optimum of the multiple-choice knapsack Agar poses: for each key choose one option or none, total
 * weight at most the capacity, total value as large as possible. Dynamic programming over keys,
 * {@code best[c]} = the largest value of weight at most c using the keys so far; O(keys x capacity x options
 * per key) time and O(keys x capacity) memory. The tests use it as the oracle for {@link Populate}.
 * Stateless and thread-safe; ties go to the earlier configuration found (keys in key order, lighter options
 * first).
 */
public final class ExactKnapsack implements KnapsackSolver {
  @Override
  public CacheConfiguration solve(Collection<CachingOption> options, int capacityChunks) {
    FixedChunkSlots.checkCapacity(capacityChunks);
    Map<String, List<CachingOption>> byKey = new TreeMap<>();
    for (CachingOption option : options) {
      byKey.computeIfAbsent(option.key(), unused -> new ArrayList<>()).add(option);
    }
    List<List<CachingOption>> groups = new ArrayList<>(byKey.values());
    for (List<CachingOption> group : groups) {
      group.sort((a, b) -> Integer.compare(a.weight(), b.weight()));
    }
    double[] best = new double[capacityChunks + 1];
    // choice[g][c]: the option of group g in the best solution of weight <= c over groups 0..g, -1 for none.
    int[][] choice = new int[groups.size()][capacityChunks + 1];
    for (int g = 0; g < groups.size(); g++) {
      List<CachingOption> group = groups.get(g);
      double[] next = best.clone();
      int[] chosen = choice[g];
      for (int c = 0; c <= capacityChunks; c++) {
        chosen[c] = -1;
        for (int j = 0; j < group.size(); j++) {
          CachingOption option = group.get(j);
          if (option.weight() <= c) {
            double candidate = best[c - option.weight()] + option.value();
            if (candidate > next[c]) {
              next[c] = candidate;
              chosen[c] = j;
            }
          }
        }
      }
      best = next;
    }
    List<CachingOption> picked = new ArrayList<>();
    int room = capacityChunks;
    for (int g = groups.size() - 1; g >= 0; g--) {
      int j = choice[g][room];
      if (j >= 0) {
        CachingOption option = groups.get(g).get(j);
        picked.add(option);
        room -= option.weight();
      }
    }
    return CacheConfiguration.of(picked);
  }
}
