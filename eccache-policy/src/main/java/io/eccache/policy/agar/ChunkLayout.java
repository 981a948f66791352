package io.eccache.policy.agar;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Where an object's k + m Reed-Solomon chunks live: chunk {@code i} (0-based, data chunks first) is in
 * region {@code i mod regions}, the round-robin placement Agar assumes (RS(9,3) over 6 regions puts 2 chunks
 * in each). Every object uses the same layout, so every object has the same caching options up to its
 * popularity.
 *
 * <p>The read model is Agar's: a client asks for the chunks it needs in parallel and the read takes as long
 * as the slowest of them; it reads every cached chunk from the cache and the remaining ones from the
 * nearest regions, k in all. Immutable.
 */
public final class ChunkLayout {
  private final int dataChunks;
  private final int parityChunks;
  private final List<Region> regions;
  private final Duration cacheLatency;
  /** Chunk indexes sorted nearest first (by region latency, then by index). */
  private final List<Integer> nearestFirst;

  /**
   * @param k data chunks per object, at least 1
   * @param m parity chunks per object, at least 0
   * @param regions the regions, in placement order, at least one
   * @param cacheLatency the time to read one chunk from the cache, not negative ({@link Duration#ZERO} as in
   *     the paper's example, where a fully cached object costs nothing)
   * @throws IllegalArgumentException if a count is out of range, no region is given or the latency is
   *     negative
   */
  public ChunkLayout(int k, int m, List<Region> regions, Duration cacheLatency) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1 but was " + k);
    }
    if (m < 0) {
      throw new IllegalArgumentException("m must be >= 0 but was " + m);
    }
    Objects.requireNonNull(regions, "regions");
    if (regions.isEmpty()) {
      throw new IllegalArgumentException("a layout needs at least one region");
    }
    Objects.requireNonNull(cacheLatency, "cacheLatency");
    if (cacheLatency.isNegative()) {
      throw new IllegalArgumentException("cacheLatency must not be negative but was " + cacheLatency);
    }
    this.dataChunks = k;
    this.parityChunks = m;
    this.regions = List.copyOf(regions);
    this.cacheLatency = cacheLatency;
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < k + m; i++) {
      order.add(i);
    }
    // Nearest first, ties by chunk index, so every choice built on this order is deterministic.
    order.sort(Comparator.comparing((Integer i) -> region(i).readLatency()).thenComparing(i -> i));
    this.nearestFirst = Collections.unmodifiableList(order);
  }

  /** @return k, the chunks a client needs to decode an object */
  public int k() {
    return dataChunks;
  }

  /** @return m, the parity chunks per object */
  public int m() {
    return parityChunks;
  }

  /** @return k + m, the chunks stored per object */
  public int chunks() {
    return dataChunks + parityChunks;
  }

  /** @return the regions in placement order */
  public List<Region> regions() {
    return regions;
  }

  /** @return the time to read one chunk from the cache */
  public Duration cacheLatency() {
    return cacheLatency;
  }

  /**
   * @param chunk a chunk index in [0, k + m)
   * @return the region holding it
   * @throws IllegalArgumentException if the index is out of range
   */
  public Region region(int chunk) {
    checkChunk(chunk);
    return regions.get(chunk % regions.size());
  }

  /** @return every chunk index, nearest region first, ties by index */
  public List<Integer> nearestFirst() {
    return nearestFirst;
  }

  /**
   * The k chunks a client reads when nothing is cached and no region is down: the nearest k. The m others
   * are the farthest, which Agar never caches.
   *
   * @return chunk indexes, nearest first
   */
  public List<Integer> readSet() {
    return nearestFirst.subList(0, dataChunks);
  }

  /**
   * The {@code c} chunks Agar (and the paper's LRU-c/LFU-c) caches for an object: the most distant of the
   * {@link #readSet() read set}, so each one cached spares the slowest remaining region read.
   *
   * @param c how many chunks, in [0, k]
   * @return chunk indexes sorted ascending
   * @throws IllegalArgumentException if {@code c} is out of range
   */
  public List<Integer> mostDistantReadChunks(int c) {
    if (c < 0 || c > dataChunks) {
      throw new IllegalArgumentException("c must be in [0, " + dataChunks + "] but was " + c);
    }
    List<Integer> chosen = new ArrayList<>(readSet().subList(dataChunks - c, dataChunks));
    Collections.sort(chosen);
    return Collections.unmodifiableList(chosen);
  }

  /**
   * The latency of one read when the given chunks are cached: the slowest of the cached chunks (at the
   * cache's latency) and the k - c nearest uncached ones.
   *
   * @param cached indexes of cached chunks, each in [0, k + m); duplicates count once
   * @return the read latency
   * @throws IllegalArgumentException if an index is out of range
   */
  public Duration readLatency(Collection<Integer> cached) {
    boolean[] isCached = new boolean[chunks()];
    int cachedCount = 0;
    for (int chunk : cached) {
      checkChunk(chunk);
      if (!isCached[chunk]) {
        isCached[chunk] = true;
        cachedCount++;
      }
    }
    Duration slowest = cachedCount > 0 ? cacheLatency : Duration.ZERO;
    int missing = dataChunks - cachedCount;
    for (int i = 0; i < nearestFirst.size() && missing > 0; i++) {
      int chunk = nearestFirst.get(i);
      if (!isCached[chunk]) {
        Duration latency = region(chunk).readLatency();
        if (latency.compareTo(slowest) > 0) {
          slowest = latency;
        }
        missing--;
      }
    }
    return slowest;
  }

  private void checkChunk(int chunk) {
    if (chunk < 0 || chunk >= chunks()) {
      throw new IllegalArgumentException(
          "chunk index must be in [0, " + chunks() + ") but was " + chunk);
    }
  }

  @Override
  public String toString() {
    return "ChunkLayout{RS(" + dataChunks + "," + parityChunks + ") over " + regions
        + ", cache " + cacheLatency.toMillis() + " ms}";
  }
}
