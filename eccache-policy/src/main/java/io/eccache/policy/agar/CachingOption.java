package io.eccache.policy.agar;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One way of caching one object (Agar section IV-A): which of its chunks, how many (the weight, in chunks
 * of cache) and what that is worth (the value: popularity times the read latency saved against caching
 * nothing of the object, in milliseconds per period). Options of one key are alternatives: a configuration
 * holds at most one of them. Immutable.
 */
public final class CachingOption {
  private final String key;
  private final List<Integer> chunks;
  private final double value;
  private final Duration improvement;

  /**
   * @param key the object's key
   * @param chunks the chunk indexes to cache, at least one, distinct
   * @param improvement the read latency saved against caching nothing of the object, not negative
   * @param value popularity times the improvement in milliseconds; finite, not negative
   * @throws IllegalArgumentException if a chunk repeats, none is given, or the improvement or value is out
   *     of range
   */
  public CachingOption(String key, List<Integer> chunks, Duration improvement, double value) {
    this.key = Objects.requireNonNull(key, "key");
    List<Integer> sorted = new ArrayList<>(Objects.requireNonNull(chunks, "chunks"));
    Collections.sort(sorted);
    if (sorted.isEmpty()) {
      throw new IllegalArgumentException("an option of '" + key + "' must cache at least one chunk");
    }
    for (int i = 1; i < sorted.size(); i++) {
      if (sorted.get(i).equals(sorted.get(i - 1))) {
        throw new IllegalArgumentException(
            "chunk " + sorted.get(i) + " repeats in an option of '" + key + "'");
      }
    }
    this.improvement = Objects.requireNonNull(improvement, "improvement");
    if (improvement.isNegative()) {
      throw new IllegalArgumentException("improvement must not be negative for '" + key + "'");
    }
    if (!(value >= 0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException(
          "value must be finite and >= 0 but was " + value + " for '" + key + "'");
    }
    this.chunks = Collections.unmodifiableList(sorted);
    this.value = value;
  }

  /** @return the object's key */
  public String key() {
    return key;
  }

  /** @return the chunk indexes cached, ascending */
  public List<Integer> chunks() {
    return chunks;
  }

  /** @return the chunks this option takes in the cache */
  public int weight() {
    return chunks.size();
  }

  /** @return popularity times latency saved (ms) */
  public double value() {
    return value;
  }

  /** @return the read latency saved against caching nothing of the object */
  public Duration improvement() {
    return improvement;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof CachingOption)) {
      return false;
    }
    CachingOption that = (CachingOption) other;
    return key.equals(that.key) && chunks.equals(that.chunks) && improvement.equals(that.improvement)
        && Double.compare(value, that.value) == 0;
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, chunks, improvement, value);
  }

  @Override
  public String toString() {
    return key + "[w=" + weight() + " v=" + value + " chunks=" + chunks + "]";
  }
}
