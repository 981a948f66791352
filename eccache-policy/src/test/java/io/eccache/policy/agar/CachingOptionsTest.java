package io.eccache.policy.agar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Agar's Table I example by hand. RS(9,3) round-robin over the six regions puts chunk i in region i mod 6:
 * Frankfurt 0,6 (80 ms); Dublin 1,7 (200); N. Virginia 2,8 (600); Sao Paulo 3,9 (1400); Tokyo 4,10 (3400);
 * Sydney 5,11 (4600). The client reads the nearest 9: 0,6,1,7,2,8,3,9,4, so uncached reads take 3400 ms
 * (Tokyo) and chunks 10 (Tokyo), 5 and 11 (Sydney) are the m = 3 dropped ones.
 */
class CachingOptionsTest {
  private static final ChunkLayout TABLE_I = AgarRegions.layout(1.0);

  @Test
  void tableOneLayout() {
    assertEquals(List.of(0, 6, 1, 7, 2, 8, 3, 9, 4, 10, 5, 11), TABLE_I.nearestFirst());
    assertEquals(List.of(0, 6, 1, 7, 2, 8, 3, 9, 4), TABLE_I.readSet());
    assertEquals("Tokyo", TABLE_I.region(10).name());
    assertEquals("Sydney", TABLE_I.region(11).name());
    assertEquals(Duration.ofMillis(3400), TABLE_I.readLatency(List.of()));
    assertEquals(Duration.ofMillis(1400), TABLE_I.readLatency(List.of(4)));
    // Caching a dropped chunk (Sydney's 5) still leaves 8 to read from the nearest: up to Sao Paulo.
    assertEquals(Duration.ofMillis(1400), TABLE_I.readLatency(List.of(5)));
  }

  @Test
  void tableOneOptionsWithPopularity80() {
    // The paper's example: frequency 100 in the first period, so popularity 0.8 x 100 = 80.
    List<CachingOption> options = CachingOptions.forObject("key1", 80, TABLE_I);
    // Weights 2, 4, 6, 8 save nothing over the next lighter one (half a region's pair cached), so the
    // options are the paper's five: 1, 3, 5, 7, 9 chunks.
    assertEquals(5, options.size(), options.toString());
    check(options.get(0), List.of(4), 3400 - 1400, 160_000);             // Tokyo
    check(options.get(1), List.of(3, 4, 9), 3400 - 600, 224_000);        // + Sao Paulo x2
    check(options.get(2), List.of(2, 3, 4, 8, 9), 3400 - 200, 256_000);  // + N. Virginia x2
    check(options.get(3), List.of(1, 2, 3, 4, 7, 8, 9), 3400 - 80, 265_600);  // + Dublin x2
    check(options.get(4), List.of(0, 1, 2, 3, 4, 6, 7, 8, 9), 3400, 272_000);  // whole read set
    // The paper's second value, 80 x (1400 - 600) = 64,000, is the marginal gain of option 2 over option 1.
    assertEquals(64_000, options.get(1).value() - options.get(0).value(), 1e-9);
  }

  @Test
  void cacheLatencyBoundsAFullyCachedRead() {
    ChunkLayout layout = new ChunkLayout(9, 3, AgarRegions.fromFrankfurt(1.0), Duration.ofMillis(100));
    List<CachingOption> options = CachingOptions.forObject("k", 1, layout);
    // Caching Dublin's pair saves 3400 - 100 (cache) not 3400 - 80, and caching Frankfurt's pair saves
    // nothing more (a local region at 80 ms beats a 100 ms cache), so only four options remain.
    assertEquals(4, options.size(), options.toString());
    assertEquals(Duration.ofMillis(3300), options.get(3).improvement());
  }

  @Test
  void scaledTableAndZeroPopularity() {
    List<Region> quick = AgarRegions.fromFrankfurt(0.1);
    assertEquals(Duration.ofMillis(8), quick.get(0).readLatency());
    assertEquals(Duration.ofMillis(460), quick.get(5).readLatency());
    assertTrue(CachingOptions.forObject("cold", 0, TABLE_I).isEmpty());
    assertEquals(2000.0 * 7, CachingOptions.forObject("k", 7, TABLE_I).get(0).value(), 1e-9);
  }

  @Test
  void badInputIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> AgarRegions.fromFrankfurt(0));
    assertThrows(IllegalArgumentException.class, () -> CachingOptions.forObject("k", -1, TABLE_I));
    assertThrows(IllegalArgumentException.class, () -> CachingOptions.forObject("k", Double.NaN, TABLE_I));
    assertThrows(IllegalArgumentException.class,
        () -> new ChunkLayout(0, 3, AgarRegions.fromFrankfurt(1), Duration.ZERO));
    assertThrows(IllegalArgumentException.class, () -> new ChunkLayout(9, 3, List.of(), Duration.ZERO));
    assertThrows(IllegalArgumentException.class, () -> TABLE_I.readLatency(List.of(12)));
    assertThrows(IllegalArgumentException.class, () -> TABLE_I.mostDistantReadChunks(10));
    assertThrows(IllegalArgumentException.class, () -> new Region("x", Duration.ofMillis(-1)));
  }

  private static void check(CachingOption option, List<Integer> chunks, long improvementMs, double value) {
    assertEquals(chunks, option.chunks(), option.toString());
    assertEquals(chunks.size(), option.weight());
    assertEquals(Duration.ofMillis(improvementMs), option.improvement(), option.toString());
    assertEquals(value, option.value(), 1e-9, option.toString());
  }
}
