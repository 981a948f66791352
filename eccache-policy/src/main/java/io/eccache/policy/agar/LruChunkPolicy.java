package io.eccache.policy.agar;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;

/**
 * The paper's LRU-c baseline (memcached's LRU there): every cached object takes c chunks (the c most
 * distant of its read set; c = k caches whole objects), so the cache holds {@code floor(capacity / c)}
 * objects. Every read makes its object the most recent, inserting it (the reader writes its chunks to the
 * cache after the read) and evicting the least recent if full. {@link #tick} does nothing. Thread-safe
 * (synchronized; the map is small and the work per read constant).
 */
public final class LruChunkPolicy implements ChunkCachePolicy {
  private final FixedChunkSlots slots;
  /** Access order: the eldest entry is the least recently read. */
  private final LinkedHashMap<String, Boolean> recent = new LinkedHashMap<>(16, 0.75f, true);

  /**
   * @param layout the chunk layout of every object
   * @param capacityChunks the cache size in chunks, at least 0
   * @param c chunks cached per object, in [1, k]
   * @throws IllegalArgumentException if a parameter is out of range
   */
  public LruChunkPolicy(ChunkLayout layout, int capacityChunks, int c) {
    this.slots = new FixedChunkSlots(layout, capacityChunks, c);
  }

  @Override
  public synchronized void recordRead(String key) {
    Objects.requireNonNull(key, "key");
    if (slots.objectSlots == 0) {
      return;
    }
    recent.put(key, Boolean.TRUE);
    if (recent.size() > slots.objectSlots) {
      String eldest = recent.keySet().iterator().next();
      recent.remove(eldest);
    }
  }

  @Override
  public synchronized List<Integer> cachedChunks(String key) {
    // get() would count as an access and reorder the map; a lookup must not.
    return recent.containsKey(Objects.requireNonNull(key, "key")) ? slots.chunks : List.of();
  }

  @Override
  public void tick() {
    // LRU reacts to every read; there is nothing to do per period.
  }

  @Override
  public int capacityChunks() {
    return slots.capacityChunks;
  }

  /** @return the cached keys, least recently read first */
  public synchronized List<String> cachedKeysByRecency() {
    return new ArrayList<>(recent.keySet());
  }

  @Override
  public String toString() {
    return "LruChunkPolicy{c=" + slots.chunks.size() + ", slots=" + slots.objectSlots + "}";
  }
}
