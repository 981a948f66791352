package io.eccache.benchmarks.sim.agar;

import io.eccache.policy.agar.AgarPolicy;
import io.eccache.policy.agar.ChunkCachePolicy;
import io.eccache.policy.agar.ChunkLayout;
import io.eccache.policy.agar.LfuChunkPolicy;
import io.eccache.policy.agar.LruChunkPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A cache policy the Agar simulation compares, by the paper's name: Agar (POPULATE, alpha 0.8), LFU-c and
 * LRU-c (c chunks per cached object), and "backend" (no cache). Immutable; {@link #create} builds a fresh
 * policy for each run.
 */
public final class CachePolicySpec {
  /** The paper's chunk counts for LFU-c and LRU-c. */
  public static final List<Integer> PAPER_CHUNK_COUNTS = List.of(1, 3, 5, 7, 9);

  /** What kind of policy. */
  public enum Kind {
    /** Agar: EWMA popularity and POPULATE each period. */
    AGAR,
    /** LFU-c, reconfigured each period from the same EWMA. */
    LFU,
    /** LRU-c, updated on every read. */
    LRU,
    /** No cache: every read from the regions. */
    BACKEND
  }

  private final Kind kind;
  private final int chunks;

  private CachePolicySpec(Kind kind, int chunks) {
    this.kind = kind;
    this.chunks = chunks;
  }

  /** @return Agar as the paper runs it */
  public static CachePolicySpec agar() {
    return new CachePolicySpec(Kind.AGAR, 0);
  }

  /** @return no cache */
  public static CachePolicySpec backend() {
    return new CachePolicySpec(Kind.BACKEND, 0);
  }

  /**
   * @param c chunks per cached object, at least 1 (checked against k when created)
   * @return LFU-c
   */
  public static CachePolicySpec lfu(int c) {
    return new CachePolicySpec(Kind.LFU, checkChunks(c));
  }

  /**
   * @param c chunks per cached object, at least 1 (checked against k when created)
   * @return LRU-c
   */
  public static CachePolicySpec lru(int c) {
    return new CachePolicySpec(Kind.LRU, checkChunks(c));
  }

  /** @return the paper's twelve: Agar, LFU-1..9, LRU-1..9 (odd c) and backend, in that order */
  public static List<CachePolicySpec> paperSet() {
    List<CachePolicySpec> all = new ArrayList<>();
    all.add(agar());
    PAPER_CHUNK_COUNTS.forEach(c -> all.add(lfu(c)));
    PAPER_CHUNK_COUNTS.forEach(c -> all.add(lru(c)));
    all.add(backend());
    return List.copyOf(all);
  }

  private static int checkChunks(int c) {
    if (c < 1) {
      throw new IllegalArgumentException("chunks per object must be >= 1 but was " + c);
    }
    return c;
  }

  /** @return the kind */
  public Kind kind() {
    return kind;
  }

  /** @return c for LFU-c and LRU-c, else 0 */
  public int chunks() {
    return chunks;
  }

  /** @return the paper's name: "Agar", "LFU-7", "LRU-1", "backend" */
  public String name() {
    switch (kind) {
      case AGAR:
        return "Agar";
      case LFU:
        return "LFU-" + chunks;
      case LRU:
        return "LRU-" + chunks;
      case BACKEND:
      default:
        return "backend";
    }
  }

  /**
   * A new policy of this kind.
   *
   * @param layout the chunk layout
   * @param capacityChunks the cache's size in chunks
   * @return the policy, with an empty cache
   * @throws IllegalArgumentException if c exceeds k or the capacity is negative
   */
  public ChunkCachePolicy create(ChunkLayout layout, int capacityChunks) {
    switch (kind) {
      case AGAR:
        return new AgarPolicy(layout, capacityChunks);
      case LFU:
        return new LfuChunkPolicy(layout, capacityChunks, chunks, AgarPolicy.DEFAULT_ALPHA);
      case LRU:
        return new LruChunkPolicy(layout, capacityChunks, chunks);
      case BACKEND:
      default:
        return new NoCache();
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof CachePolicySpec && ((CachePolicySpec) other).kind == kind
        && ((CachePolicySpec) other).chunks == chunks;
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, chunks);
  }

  @Override
  public String toString() {
    return name();
  }

  /** The backend baseline: nothing is ever cached. */
  private static final class NoCache implements ChunkCachePolicy {
    @Override
    public void recordRead(String key) {}

    @Override
    public List<Integer> cachedChunks(String key) {
      return List.of();
    }

    @Override
    public void tick() {}

    @Override
    public int capacityChunks() {
      return 0;
    }
  }
}
