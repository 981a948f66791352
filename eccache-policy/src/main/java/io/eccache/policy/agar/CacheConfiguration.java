package io.eccache.policy.agar;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What the cache holds: at most one {@link CachingOption} per object key, with the total weight (chunks)
 * and value. Holding one option per key is built in: {@link #with} replaces the key's option. Immutable.
 */
public final class CacheConfiguration {
  private static final CacheConfiguration EMPTY = new CacheConfiguration(new TreeMap<>());

  private final Map<String, CachingOption> byKey;
  private final int weight;
  private final double value;

  private CacheConfiguration(TreeMap<String, CachingOption> byKey) {
    this.byKey = Collections.unmodifiableMap(byKey);
    int totalWeight = 0;
    double totalValue = 0;
    // Summed afresh in key order, so equal contents always give bit-equal values.
    for (CachingOption option : byKey.values()) {
      totalWeight += option.weight();
      totalValue += option.value();
    }
    this.weight = totalWeight;
    this.value = totalValue;
  }

  /** @return the configuration caching nothing */
  public static CacheConfiguration empty() {
    return EMPTY;
  }

  /**
   * @param options options with distinct keys
   * @return the configuration holding them
   * @throws IllegalArgumentException if two options share a key
   */
  public static CacheConfiguration of(Collection<CachingOption> options) {
    TreeMap<String, CachingOption> byKey = new TreeMap<>();
    for (CachingOption option : options) {
      if (byKey.put(option.key(), option) != null) {
        throw new IllegalArgumentException("two options of '" + option.key() + "' in one configuration");
      }
    }
    return new CacheConfiguration(byKey);
  }

  /**
   * @param option an option; replaces this configuration's option of the same key, if any
   * @return the new configuration
   */
  public CacheConfiguration with(CachingOption option) {
    TreeMap<String, CachingOption> next = new TreeMap<>(byKey);
    next.put(option.key(), option);
    return new CacheConfiguration(next);
  }

  /**
   * @param key an object key
   * @return this configuration without that key's option (this one if it has none)
   */
  public CacheConfiguration without(String key) {
    if (!byKey.containsKey(key)) {
      return this;
    }
    TreeMap<String, CachingOption> next = new TreeMap<>(byKey);
    next.remove(key);
    return new CacheConfiguration(next);
  }

  /** @return the options by key, in key order */
  public Map<String, CachingOption> options() {
    return byKey;
  }

  /**
   * @param key an object key
   * @return its option, or null if the object is not cached
   */
  public CachingOption option(String key) {
    return byKey.get(Objects.requireNonNull(key, "key"));
  }

  /**
   * @param key an object key
   * @return the chunk indexes cached for it, ascending; empty if none
   */
  public List<Integer> chunks(String key) {
    CachingOption option = option(key);
    return option == null ? List.of() : option.chunks();
  }

  /** @return chunks held in all */
  public int weight() {
    return weight;
  }

  /** @return the sum of the options' values */
  public double value() {
    return value;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof CacheConfiguration && byKey.equals(((CacheConfiguration) other).byKey);
  }

  @Override
  public int hashCode() {
    return byKey.hashCode();
  }

  @Override
  public String toString() {
    return "CacheConfiguration{weight=" + weight + ", value=" + value + ", " + byKey.values() + "}";
  }
}
