package io.eccache.client;

/**
 * How to store one object. Unset values come from the coordinator's configuration
 * ({@code alluxio.eccache.default.k}, {@code alluxio.eccache.default.r}).
 */
public final class PutOptions {
  private final int k;
  private final int r;
  private final WriteMode writeMode;
  private final boolean replicas;

  private PutOptions(int k, int r, WriteMode writeMode, boolean replicas) {
    this.k = k;
    this.r = r;
    this.writeMode = writeMode;
    this.replicas = replicas;
  }

  /** The coordinator's defaults (k = 10, r = 1 unless configured otherwise), cache only. */
  public static PutOptions defaults() {
    return new PutOptions(0, -1, WriteMode.CACHE_ONLY, false);
  }

  /**
   * Whole copies instead of splits, each on its own worker (what the paper does for small objects,
   * and what the defaults do below {@code alluxio.eccache.small.object.threshold}).
   *
   * @throws IllegalArgumentException unless 1 <= copies <= 255
   */
  public static PutOptions replicas(int copies) {
    if (copies < 1 || copies > 255) {
      throw new IllegalArgumentException("copies must be in 1..255, not " + copies);
    }
    return new PutOptions(1, copies - 1, WriteMode.CACHE_ONLY, true);
  }

  /**
   * k data splits and r parity splits.
   *
   * @throws IllegalArgumentException unless 1 <= k, 0 <= r and k + r <= 255
   */
  public static PutOptions code(int k, int r) {
    if (k < 1 || r < 0 || k + r > 255) {
      throw new IllegalArgumentException("invalid code k=" + k + ", r=" + r
          + ": need k >= 1, r >= 0 and k + r <= 255 (and k + r live workers)");
    }
    return new PutOptions(k, r, WriteMode.CACHE_ONLY, false);
  }

  /** These options with another write mode. */
  public PutOptions writeMode(WriteMode mode) {
    if (mode == null) {
      throw new IllegalArgumentException("write mode must not be null");
    }
    return new PutOptions(k, r, mode, replicas);
  }

  /** Whether these options store whole copies rather than splits. */
  public boolean isReplicas() {
    return replicas;
  }

  /** Whether neither a code nor replicas was chosen. */
  boolean isDefaultCode() {
    return k == 0 && !replicas;
  }

  /** Where the PUT persists the object besides the cache. */
  public WriteMode writeMode() {
    return writeMode;
  }

  /** k, or 0 for the coordinator's default. */
  public int k() {
    return k;
  }

  /** r, or -1 for the coordinator's default. */
  public int r() {
    return r;
  }
}
