package io.eccache.policy.agar;

import io.eccache.policy.PopularityTracker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The paper's LFU-c baseline: every cached object takes c chunks (the c most distant of its read set, as
 * Agar fills; c = k caches whole objects), so the cache holds {@code floor(capacity / c)} objects; each
 * {@link #tick} caches the most popular ones. Popularity is the same EWMA per period Agar uses (alpha 1 gives
 * the raw count of the last period), so LFU and Agar differ only in how they spend the chunks. Ties go to the
 * smaller key. Thread-safe: the cached set is an immutable value swapped by the synchronized {@link #tick}.
 */
public final class LfuChunkPolicy implements ChunkCachePolicy {
  private final ChunkLayout layout;
  private final FixedChunkSlots slots;
  private final PopularityTracker popularity;
  private volatile Set<String> cached = Set.of();

  /**
   * @param layout the chunk layout of every object
   * @param capacityChunks the cache size in chunks, at least 0
   * @param c chunks cached per object, in [1, k]
   * @param alpha the EWMA weight of the newest period, in (0, 1]
   * @throws IllegalArgumentException if a parameter is out of range
   */
  public LfuChunkPolicy(ChunkLayout layout, int capacityChunks, int c, double alpha) {
    this.layout = Objects.requireNonNull(layout, "layout");
    this.slots = new FixedChunkSlots(layout, capacityChunks, c);
    this.popularity = new PopularityTracker(alpha);
  }

  @Override
  public void recordRead(String key) {
    popularity.record(key);
  }

  @Override
  public List<Integer> cachedChunks(String key) {
    return cached.contains(Objects.requireNonNull(key, "key")) ? slots.chunks : List.of();
  }

  @Override
  public synchronized void tick() {
    popularity.roll();
    List<Map.Entry<String, Double>> ranked = new ArrayList<>(popularity.snapshot().entrySet());
    ranked.removeIf(entry -> entry.getValue() <= 0);
    ranked.sort(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder())
        .thenComparing(Map.Entry.comparingByKey()));
    List<String> chosen = new ArrayList<>();
    for (int i = 0; i < Math.min(slots.objectSlots, ranked.size()); i++) {
      chosen.add(ranked.get(i).getKey());
    }
    cached = Set.copyOf(chosen);
  }

  @Override
  public int capacityChunks() {
    return slots.capacityChunks;
  }

  /** @return the keys cached since the last {@link #tick} */
  public Set<String> cachedKeys() {
    return cached;
  }

  @Override
  public String toString() {
    return "LfuChunkPolicy{c=" + slots.chunks.size() + ", slots=" + slots.objectSlots + ", " + layout + "}";
  }
}
