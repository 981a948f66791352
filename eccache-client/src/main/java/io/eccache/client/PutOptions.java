package io.eccache.client;

/**
 * How to store one object. Unset values come from the coordinator's configuration
 * ({@code alluxio.eccache.default.k}, {@code alluxio.eccache.default.r}).
 */
public final class PutOptions {
  private final int k;
  private final int r;
  private final WriteMode writeMode;

  private PutOptions(int k, int r, WriteMode writeMode) {
    this.k = k;
    this.r = r;
    this.writeMode = writeMode;
  }

  /** The coordinator's defaults (k = 10, r = 1 unless configured otherwise), cache only. */
  public static PutOptions defaults() {
    return new PutOptions(0, -1, WriteMode.CACHE_ONLY);
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
    return new PutOptions(k, r, WriteMode.CACHE_ONLY);
  }

  /** These options with another write mode. */
  public PutOptions writeMode(WriteMode mode) {
    if (mode == null) {
      throw new IllegalArgumentException("write mode must not be null");
    }
    return new PutOptions(k, r, mode);
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
