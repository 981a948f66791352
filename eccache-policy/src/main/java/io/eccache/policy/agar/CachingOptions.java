package io.eccache.policy.agar;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Generates Agar's caching options (section IV-A). For weight w = 1..k the option caches the w most distant
 * chunks of the read set (the m farthest chunks are dropped first: a client never reads them without a
 * failure). Its value is {@code popularity x (L(nothing cached) - L(option cached))}, where L is the
 * {@link ChunkLayout#readLatency read latency}: the improvement is measured against no cache, not against the
 * next lighter option, because options of one key are alternatives (the paper's second example value is a
 * marginal gain; see docs/agar.md).
 *
 * <p>An option that saves no more than a lighter one of the same key is left out: it would only take room.
 * With Table I's layout this leaves weights 1, 3, 5, 7 and 9, the five options of the paper's example.
 * Objects with popularity 0 get no option. Stateless.
 */
public final class CachingOptions {
  private CachingOptions() {}

  /**
   * @param key the object's key
   * @param popularity the object's popularity, finite and not negative
   * @param layout where its chunks are
   * @return its options by increasing weight (and strictly increasing value); empty if it saves nothing
   * @throws IllegalArgumentException if the popularity is out of range
   */
  public static List<CachingOption> forObject(String key, double popularity, ChunkLayout layout) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(layout, "layout");
    if (!(popularity >= 0) || Double.isInfinite(popularity)) {
      throw new IllegalArgumentException(
          "popularity must be finite and >= 0 but was " + popularity + " for '" + key + "'");
    }
    List<CachingOption> options = new ArrayList<>();
    if (popularity == 0) {
      return options;
    }
    Duration uncached = layout.readLatency(List.of());
    Duration best = Duration.ZERO;
    for (int w = 1; w <= layout.k(); w++) {
      List<Integer> chunks = layout.mostDistantReadChunks(w);
      Duration improvement = uncached.minus(layout.readLatency(chunks));
      if (improvement.compareTo(best) > 0) {
        best = improvement;
        options.add(new CachingOption(key, chunks, improvement, popularity * millis(improvement)));
      }
    }
    return options;
  }

  /**
   * Options of every object, in key order.
   *
   * @param popularity per key its popularity
   * @param layout the chunk layout shared by all objects
   * @return all options
   */
  public static List<CachingOption> forAll(Map<String, Double> popularity, ChunkLayout layout) {
    List<CachingOption> all = new ArrayList<>();
    for (Map.Entry<String, Double> entry : new TreeMap<>(popularity).entrySet()) {
      all.addAll(forObject(entry.getKey(), entry.getValue(), layout));
    }
    return all;
  }

  static double millis(Duration duration) {
    return duration.toNanos() / 1e6;
  }
}
