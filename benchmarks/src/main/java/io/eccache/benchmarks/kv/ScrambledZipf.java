package io.eccache.benchmarks.kv;

import java.util.SplittableRandom;

/**
 * YCSB's request distribution ({@code requestdistribution=zipfian}, its default), seeded: Zipf with
 * θ = 0.99 over 10^10 ranks (Gray et al., "Quickly generating billion-record synthetic databases",
 * SIGMOD'94, with YCSB's precomputed ζ(10^10, 0.99)), each rank scrambled onto the item space by
 * 64-bit FNV-1a, so the hot items are spread over the key space rather than the first ones.
 *
 * <p>YCSB's own {@code ScrambledZipfianGenerator} draws from {@code ThreadLocalRandom}, which
 * cannot be seeded, so a trace made with it could not be made again; this one takes its
 * randomness from a seeded {@link SplittableRandom}. {@code KvWorkloadTest} checks it draws the
 * same distribution as YCSB's class (same hottest items, same frequencies within sampling error).
 */
public final class ScrambledZipf {
  /** YCSB's Zipf constant. */
  public static final double THETA = 0.99;
  /** The ranks YCSB draws from before scrambling them onto the items. */
  static final long RANKS = 10_000_000_000L;
  /** ζ(10^10, 0.99), as YCSB precomputes it. */
  static final double ZETA_RANKS = 26.46902820178302;

  private static final double ALPHA = 1 / (1 - THETA);
  private static final double HALF_POW_THETA = Math.pow(0.5, THETA);
  private static final double ETA =
      (1 - Math.pow(2.0 / RANKS, 1 - THETA)) / (1 - (1 + HALF_POW_THETA) / ZETA_RANKS);

  private final long items;
  private final SplittableRandom random;

  /**
   * @param items how many items (keys) there are, at least 1
   * @param random where the draws come from
   */
  public ScrambledZipf(long items, SplittableRandom random) {
    if (items < 1) {
      throw new IllegalArgumentException("a Zipf distribution needs at least one item, got "
          + items);
    }
    this.items = items;
    this.random = random;
  }

  /** The next item, in [0, items). */
  public long next() {
    return fnv64(rank(random.nextDouble())) % items;
  }

  /** The Zipf rank of a uniform draw {@code u} in [0, 1): Gray et al.'s closed form. */
  static long rank(double u) {
    double uz = u * ZETA_RANKS;
    if (uz < 1) {
      return 0;
    }
    if (uz < 1 + HALF_POW_THETA) {
      return 1;
    }
    return (long) (RANKS * Math.pow(ETA * u - ETA + 1, ALPHA));
  }

  /**
   * 64-bit FNV-1a over the 8 bytes of {@code value}, lowest first, made non-negative: the hash YCSB
   * scrambles ranks and names keys with.
   */
  public static long fnv64(long value) {
    long hash = 0xCBF29CE484222325L;
    long rest = value;
    for (int i = 0; i < 8; i++) {
      hash ^= rest & 0xff;
      rest >>= 8;
      hash *= 0x100000001B3L;
    }
    return Math.abs(hash);
  }
}
