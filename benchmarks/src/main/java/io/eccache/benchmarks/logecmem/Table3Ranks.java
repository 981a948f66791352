package io.eccache.benchmarks.logecmem;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Table 3's words: of IPMem, FSMem and LogECMem, which is "best", "low" or "high" in update
 * latency and (in brackets) in memory, ours from measured medians and the paper's as its table
 * prints them.
 */
final class Table3Ranks {
  /** The schemes Table 3 compares, in its column order. */
  static final List<KvScheme> SCHEMES = List.of(KvScheme.INPLACE, KvScheme.FULLSTRIPE,
      KvScheme.HYBRID);

  private Table3Ranks() {}

  /** A scheme's place among the three: the lowest value is best, the highest high. */
  enum Rank {
    BEST, LOW, HIGH;

    @Override
    public String toString() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * The ranks of {@code values} (lower is better): best, low, high; ties keep Table 3's column
   * order.
   *
   * @throws IllegalArgumentException unless there is one value for each of the three schemes
   */
  static Map<KvScheme, Rank> rank(Map<KvScheme, Double> values) {
    if (!values.keySet().containsAll(SCHEMES) || values.size() != SCHEMES.size()) {
      throw new IllegalArgumentException("Table 3 ranks IPMem, FSMem and LogECMem, got "
          + values.keySet());
    }
    List<KvScheme> order = new ArrayList<>(SCHEMES);
    order.sort(Comparator.comparingDouble(values::get));
    Map<KvScheme, Rank> ranks = new EnumMap<>(KvScheme.class);
    for (int i = 0; i < order.size(); i++) {
      ranks.put(order.get(i), Rank.values()[i]);
    }
    return ranks;
  }

  /**
   * The scheme of the best update latency in the paper's Table 3 for {@code k} and an update
   * share: LogECMem at 95:5 for every k, at 80:20 for k ≥ 12, at 70:30 for k ≥ 16; else FSMem.
   * A k the paper did not run takes the rule of its range.
   */
  static KvScheme paperBestLatency(int k, int updatePercent) {
    boolean hybrid = updatePercent <= 5 || (k >= 12 && updatePercent <= 20)
        || (k >= 16 && updatePercent <= 30);
    return hybrid ? KvScheme.HYBRID : KvScheme.FULLSTRIPE;
  }

  /**
   * The paper's latency ranks: the best as {@link #paperBestLatency}; of the other two, IPMem is
   * "low" only where LogECMem is best at 95:5 (elsewhere the scheme left is "low").
   */
  static Map<KvScheme, Rank> paperLatency(int k, int updatePercent) {
    Map<KvScheme, Rank> ranks = new EnumMap<>(KvScheme.class);
    KvScheme best = paperBestLatency(k, updatePercent);
    ranks.put(best, Rank.BEST);
    if (updatePercent <= 5) {
      ranks.put(KvScheme.INPLACE, Rank.LOW);
      ranks.put(KvScheme.FULLSTRIPE, Rank.HIGH);
    } else {
      ranks.put(KvScheme.INPLACE, Rank.HIGH);
      ranks.put(best == KvScheme.HYBRID ? KvScheme.FULLSTRIPE : KvScheme.HYBRID, Rank.LOW);
    }
    return ranks;
  }

  /** The paper's memory ranks: LogECMem best always, IPMem low, FSMem high. */
  static Map<KvScheme, Rank> paperMemory() {
    Map<KvScheme, Rank> ranks = new EnumMap<>(KvScheme.class);
    ranks.put(KvScheme.HYBRID, Rank.BEST);
    ranks.put(KvScheme.INPLACE, Rank.LOW);
    ranks.put(KvScheme.FULLSTRIPE, Rank.HIGH);
    return ranks;
  }

  /** The scheme's name as Table 3 prints it: IPMem, FSMem, LogECMem. */
  static String name(KvScheme scheme) {
    return scheme.label.replaceAll(" \\(.*", "");
  }

  /** Table 3's cell: {@code latency (memory)}, e.g. {@code best (best)}. */
  static String cell(Rank latency, Rank memory) {
    return latency + " (" + memory + ")";
  }
}
