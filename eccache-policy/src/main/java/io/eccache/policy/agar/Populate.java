package io.eccache.policy.agar;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Agar's POPULATE with RELAX and ADD (ICDCS'17 Fig. 4 and 5), with the pseudo-code's gaps closed as follows
 * (docs/agar.md explains each):
 *
 * <ul>
 *   <li>{@code maxV[s]} holds the best configuration found so far whose weight is at most {@code s}; slots
 *       above the capacity are never created.
 *   <li>Options are taken in decreasing value ({@link OptionOrder#BY_VALUE}, ties by key then weight), or
 *       grouped by key ({@link OptionOrder#BY_KEY}: keys by their best option's value, each key's options by
 *       decreasing value), the other reading of the paper's {@code ORDERBY(AllOptions, Keys)}.
 *   <li>For each option both moves start from a snapshot of {@code maxV} taken before the option: RELAX and
 *       ADD read only the snapshot and write improvements into {@code maxV}. So {@code maxV} is never
 *       modified while iterated and an option enters each configuration at most once (0/1 knapsack).
 *   <li>RELAX(config in slot s): for each option {@code old} of another key in the config, keep the best
 *       option of {@code old}'s key weighing at most {@code old.weight - option.weight} (or evict the key
 *       wholly) and add {@code option}; the best such candidate, if it beats {@code maxV[s]}, goes to slot s
 *       (its weight is at most the config's).
 *   <li>ADD(config): config plus option into the slot of the resulting weight if that fits the capacity and
 *       beats the slot. A configuration never holds two options of one key: if the key is already present,
 *       ADD <em>replaces</em> its option (the result is a valid configuration, usually lighter, and it is
 *       kept only if it beats the slot it lands in; skipping would only lose such candidates).
 *   <li>The result is the best configuration over all slots (ties to the lighter one): {@code maxV[capacity]}
 *       may never be filled.
 *   <li>The paper stops "a fixed number of iterations after MaxV[C] is first filled" without the number;
 *       here the stop is off by default and {@link #withEarlyStop(int)} sets it.
 * </ul>
 *
 * <p>Time O(options x capacity) for the moves plus the copies of the configurations that win a slot
 * (O(options in it) each); RELAX is O(1) per configuration and option thanks to a per-configuration table
 * (see {@code Slot}). Stateless and thread-safe.
 * POPULATE is a heuristic: it never beats {@link ExactKnapsack} and on some instances falls short of it.
 */
public final class Populate implements KnapsackSolver {
  /** The order in which options are considered. */
  public enum OptionOrder {
    /** All options by decreasing value; ties by key, then by weight. */
    BY_VALUE,
    /** Keys by their most valuable option, decreasing; each key's options by decreasing value. */
    BY_KEY
  }

  private final OptionOrder order;
  /** Options considered after {@code maxV[capacity]} is first filled; negative for no early stop. */
  private final int optionsAfterFull;

  /** POPULATE with options by decreasing value and no early stop. */
  public Populate() {
    this(OptionOrder.BY_VALUE, -1);
  }

  private Populate(OptionOrder order, int optionsAfterFull) {
    this.order = order;
    this.optionsAfterFull = optionsAfterFull;
  }

  /**
   * @param order the option order
   * @return this solver with that order
   */
  public Populate withOrder(OptionOrder order) {
    return new Populate(Objects.requireNonNull(order, "order"), optionsAfterFull);
  }

  /**
   * @param options how many more options to consider once {@code maxV[capacity]} is first filled, at least 0
   * @return this solver with the paper's early stop
   * @throws IllegalArgumentException if {@code options} is negative
   */
  public Populate withEarlyStop(int options) {
    if (options < 0) {
      throw new IllegalArgumentException("early stop must be >= 0 options but was " + options);
    }
    return new Populate(order, options);
  }

  @Override
  public CacheConfiguration solve(Collection<CachingOption> options, int capacityChunks) {
    FixedChunkSlots.checkCapacity(capacityChunks);
    Map<String, List<CachingOption>> byKey = new HashMap<>();
    int maxWeight = 0;
    for (CachingOption option : options) {
      byKey.computeIfAbsent(option.key(), unused -> new ArrayList<>()).add(option);
      maxWeight = Math.max(maxWeight, option.weight());
    }
    Map<String, CachingOption[]> keptWithin = keptWithin(byKey, maxWeight);
    Slot[] maxV = new Slot[capacityChunks + 1];
    maxV[0] = new Slot(CacheConfiguration.empty());
    int afterFull = -1;
    for (CachingOption option : ordered(options, byKey)) {
      if (option.weight() <= capacityChunks) {
        Slot[] snapshot = maxV.clone();
        for (int slot = 0; slot <= capacityChunks; slot++) {
          Slot config = snapshot[slot];
          if (config != null) {
            offer(maxV, slot, config.relax(option, keptWithin, maxWeight));
            add(maxV, config.config, option);
          }
        }
      }
      if (maxV[capacityChunks] != null) {
        afterFull++;
        if (optionsAfterFull >= 0 && afterFull >= optionsAfterFull) {
          break;
        }
      }
    }
    CacheConfiguration best = maxV[0].config;
    for (Slot slot : maxV) {
      if (slot != null && slot.config.value() > best.value()) {
        best = slot.config;
      }
    }
    return best;
  }

  private List<CachingOption> ordered(Collection<CachingOption> options,
      Map<String, List<CachingOption>> byKey) {
    Comparator<CachingOption> byValue = Comparator.comparingDouble(CachingOption::value).reversed()
        .thenComparing(CachingOption::key).thenComparingInt(CachingOption::weight);
    List<CachingOption> sorted = new ArrayList<>(options);
    if (order == OptionOrder.BY_VALUE) {
      sorted.sort(byValue);
      return sorted;
    }
    Map<String, Double> keyValue = new HashMap<>();
    for (Map.Entry<String, List<CachingOption>> entry : byKey.entrySet()) {
      double max = 0;
      for (CachingOption option : entry.getValue()) {
        max = Math.max(max, option.value());
      }
      keyValue.put(entry.getKey(), max);
    }
    sorted.sort(Comparator.comparingDouble((CachingOption o) -> keyValue.get(o.key())).reversed()
        .thenComparing(CachingOption::key).thenComparing(byValue));
    return sorted;
  }

  /**
   * SEARCHOPTION, tabulated once per run: per key, for each room 0..maxWeight the most valuable option
   * weighing at most that (null for none, i.e. the key is evicted wholly).
   */
  private static Map<String, CachingOption[]> keptWithin(Map<String, List<CachingOption>> byKey,
      int maxWeight) {
    Map<String, CachingOption[]> table = new HashMap<>();
    for (Map.Entry<String, List<CachingOption>> entry : byKey.entrySet()) {
      CachingOption[] best = new CachingOption[maxWeight + 1];
      for (int room = 0; room <= maxWeight; room++) {
        for (CachingOption candidate : entry.getValue()) {
          if (candidate.weight() <= room && (best[room] == null || candidate.value() > best[room].value())) {
            best[room] = candidate;
          }
        }
      }
      table.put(entry.getKey(), best);
    }
    return table;
  }

  /** Fig. 4 lines 14-21, with a present key's option replaced rather than doubled. */
  private static void add(Slot[] maxV, CacheConfiguration config, CachingOption option) {
    CachingOption own = config.option(option.key());
    int weight = config.weight() - (own == null ? 0 : own.weight()) + option.weight();
    double value = config.value() - (own == null ? 0 : own.value()) + option.value();
    if (weight < maxV.length && beats(value, maxV[weight])) {
      maxV[weight] = new Slot(config.with(option));
    }
  }

  private static void offer(Slot[] maxV, int slot, CacheConfiguration candidate) {
    if (candidate != null && beats(candidate.value(), maxV[slot])) {
      maxV[slot] = new Slot(candidate);
    }
  }

  private static boolean beats(double value, Slot incumbent) {
    return incumbent == null || value > incumbent.config.value();
  }

  /**
   * A configuration in {@code maxV} with what RELAX needs of it, computed on first use: for each weight w
   * an option must make room for, the two best shrinks (of distinct keys) of an option weighing at least w.
   * A shrink keeps the key's best option within {@code old.weight - w} (or evicts it) and costs
   * {@code old.value - kept.value}. Two, because the best may be of the key being added, which RELAX skips.
   * This makes RELAX O(1) per configuration and option instead of O(options in the configuration).
   */
  private static final class Slot {
    final CacheConfiguration config;
    private CachingOption[] firstOld;
    private CachingOption[] firstKept;
    private double[] firstGain;
    private CachingOption[] secondOld;
    private CachingOption[] secondKept;
    private double[] secondGain;

    Slot(CacheConfiguration config) {
      this.config = config;
    }

    /** Fig. 5: the best way to make room for {@code option} at no more weight, or null if none gains. */
    CacheConfiguration relax(CachingOption option, Map<String, CachingOption[]> keptWithin, int maxWeight) {
      if (firstOld == null) {
        tabulate(keptWithin, maxWeight);
      }
      int w = option.weight();
      CachingOption old = firstOld[w];
      CachingOption kept = firstKept[w];
      double gain = firstGain[w];
      if (old != null && old.key().equals(option.key())) {
        old = secondOld[w];
        kept = secondKept[w];
        gain = secondGain[w];
      }
      if (old == null) {
        return null;
      }
      CachingOption own = config.option(option.key());
      double value = config.value() - (own == null ? 0 : own.value()) + option.value() + gain;
      if (!(value > config.value())) {
        return null;
      }
      CacheConfiguration relaxed = config.without(old.key());
      if (kept != null) {
        relaxed = relaxed.with(kept);
      }
      return relaxed.with(option);
    }

    private void tabulate(Map<String, CachingOption[]> keptWithin, int maxWeight) {
      firstOld = new CachingOption[maxWeight + 1];
      firstKept = new CachingOption[maxWeight + 1];
      firstGain = new double[maxWeight + 1];
      secondOld = new CachingOption[maxWeight + 1];
      secondKept = new CachingOption[maxWeight + 1];
      secondGain = new double[maxWeight + 1];
      // Key order (the configuration's), strict improvement: ties go to the smaller key, as before.
      for (CachingOption old : config.options().values()) {
        CachingOption[] within = keptWithin.get(old.key());
        for (int w = 1; w <= Math.min(old.weight(), maxWeight); w++) {
          CachingOption kept = within[old.weight() - w];
          double gain = (kept == null ? 0 : kept.value()) - old.value();
          if (firstOld[w] == null || gain > firstGain[w]) {
            secondOld[w] = firstOld[w];
            secondKept[w] = firstKept[w];
            secondGain[w] = firstGain[w];
            firstOld[w] = old;
            firstKept[w] = kept;
            firstGain[w] = gain;
          } else if (secondOld[w] == null || gain > secondGain[w]) {
            secondOld[w] = old;
            secondKept[w] = kept;
            secondGain[w] = gain;
          }
        }
      }
    }
  }

  @Override
  public String toString() {
    return "Populate{order=" + order + ", earlyStop="
        + (optionsAfterFull < 0 ? "off" : optionsAfterFull) + "}";
  }
}
