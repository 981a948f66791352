package io.eccache.policy.agar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The paper's LRU-c and LFU-c baselines over Table I's layout. */
class BaselinePoliciesTest {
  private static final double EPS = 1e-9;
  private static final ChunkLayout TABLE_I = AgarRegions.layout(1.0);
  private static final List<Integer> WHOLE = List.of(0, 1, 2, 3, 4, 6, 7, 8, 9);

  private static void read(ChunkCachePolicy policy, String key, int times) {
    for (int i = 0; i < times; i++) {
      policy.recordRead(key);
    }
  }

  @Test
  void lruEvictsTheLeastRecentlyRead() {
    // 20 chunks hold two whole objects (c = k = 9).
    LruChunkPolicy lru = new LruChunkPolicy(TABLE_I, 20, 9);
    read(lru, "a", 1);
    read(lru, "b", 1);
    read(lru, "a", 1);
    read(lru, "c", 1);
    assertEquals(List.of("a", "c"), lru.cachedKeysByRecency());
    assertEquals(List.of(), lru.cachedChunks("b"));
    assertEquals(WHOLE, lru.cachedChunks("a"));
    // Asking what is cached is not a read: a stays the least recent and goes when d comes.
    lru.cachedChunks("a");
    lru.tick();
    read(lru, "d", 1);
    assertEquals(List.of("c", "d"), lru.cachedKeysByRecency());
  }

  @Test
  void lruWithPartialObjects() {
    // LRU-3 in 7 chunks: two objects of 3 chunks each, Tokyo's and Sao Paulo's pair.
    LruChunkPolicy lru = new LruChunkPolicy(TABLE_I, 7, 3);
    read(lru, "a", 1);
    assertEquals(List.of(3, 4, 9), lru.cachedChunks("a"));
    LruChunkPolicy tooSmall = new LruChunkPolicy(TABLE_I, 8, 9);
    read(tooSmall, "a", 1);
    assertEquals(List.of(), tooSmall.cachedChunks("a"));
  }

  @Test
  void lfuKeepsTheMostPopularPerPeriod() {
    LfuChunkPolicy lfu = new LfuChunkPolicy(TABLE_I, 18, 9, AgarPolicy.DEFAULT_ALPHA);
    // Period 1: a x3, b x2, c x1 -> 2.4, 1.6, 0.8: a and b.
    read(lfu, "a", 3);
    read(lfu, "b", 2);
    read(lfu, "c", 1);
    assertEquals(List.of(), lfu.cachedChunks("a"), "LFU reconfigures only at a tick");
    lfu.tick();
    assertEquals(Set.of("a", "b"), lfu.cachedKeys());
    assertEquals(WHOLE, lfu.cachedChunks("b"));
    // Period 2: c x10 -> c = 8 + 0.16 = 8.16, a = 0.48, b = 0.32: c and a.
    read(lfu, "c", 10);
    lfu.tick();
    assertEquals(Set.of("a", "c"), lfu.cachedKeys());
    assertEquals(List.of(), lfu.cachedChunks("b"));
  }

  @Test
  void lfuTiesGoToTheSmallerKeyAndPartialObjectsTakeTheFarthestChunks() {
    LfuChunkPolicy lfu = new LfuChunkPolicy(TABLE_I, 5, 5, 1.0);
    read(lfu, "b", 2);
    read(lfu, "a", 2);
    lfu.tick();
    assertEquals(Set.of("a"), lfu.cachedKeys());
    assertEquals(List.of(2, 3, 4, 8, 9), lfu.cachedChunks("a"));
  }

  @Test
  void badInputIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> new LruChunkPolicy(TABLE_I, 10, 0));
    assertThrows(IllegalArgumentException.class, () -> new LruChunkPolicy(TABLE_I, 10, 10));
    assertThrows(IllegalArgumentException.class, () -> new LruChunkPolicy(TABLE_I, -1, 9));
    assertThrows(IllegalArgumentException.class, () -> new LfuChunkPolicy(TABLE_I, 10, 10, 0.8));
    assertThrows(IllegalArgumentException.class, () -> new LfuChunkPolicy(TABLE_I, 10, 9, 0));
    assertEquals(0, new LfuChunkPolicy(TABLE_I, 0, 9, 0.8).cachedKeys().size());
  }
}
