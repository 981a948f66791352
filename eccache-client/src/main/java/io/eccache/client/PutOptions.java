package io.eccache.client;

import io.eccache.common.ObjectPaths;

/**
 * How to store one object. With {@link #defaults()} the coordinator chooses and keeps tuning the
 * redundancy (the scheme of the key's namespace, {@code alluxio.eccache.namespace.schemes}, with
 * parities or copies following popularity); an explicit {@link #code}, {@link #replicas} or
 * {@link #partitions} is kept as given.
 */
public final class PutOptions {
  private final String scheme;
  private final int k;
  private final int r;
  private final WriteMode writeMode;

  private PutOptions(String scheme, int k, int r, WriteMode writeMode) {
    this.scheme = scheme;
    this.k = k;
    this.r = r;
    this.writeMode = writeMode;
  }

  /** The coordinator's choice for the key's namespace (k = 10, r = 1 for "ec"), cache only. */
  public static PutOptions defaults() {
    return new PutOptions("", 0, -1, WriteMode.CACHE_ONLY);
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
    return new PutOptions(ObjectPaths.SCHEME_REPLICA, 1, copies - 1, WriteMode.CACHE_ONLY);
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
    return new PutOptions(ObjectPaths.SCHEME_EC, k, r, WriteMode.CACHE_ONLY);
  }

  /**
   * SP-Cache's selective partition: {@code k} partitions on distinct workers, no redundancy, every
   * partition read.
   *
   * @throws IllegalArgumentException unless 1 <= k <= 255
   */
  public static PutOptions partitions(int k) {
    if (k < 1 || k > 255) {
      throw new IllegalArgumentException("partitions must be in 1..255, not " + k);
    }
    return new PutOptions(ObjectPaths.SCHEME_PARTITION, k, 0, WriteMode.CACHE_ONLY);
  }

  /**
   * Options from their text form, as {@link #toString()} writes it: {@code default} (the
   * coordinator's tuned choice), {@code rs-K-R} (also {@code K+R}), {@code replica-N} (N copies) or
   * {@code partition-K}; cache only. For command lines and configuration.
   *
   * @throws IllegalArgumentException for any other text, saying what is accepted
   */
  public static PutOptions parse(String text) {
    String t = text == null ? "" : text.trim().toLowerCase(java.util.Locale.ROOT);
    try {
      if (t.equals("default")) {
        return defaults();
      }
      if (t.matches("\\d+\\+\\d+")) {
        String[] kr = t.split("\\+");
        return code(Integer.parseInt(kr[0]), Integer.parseInt(kr[1]));
      }
      if (t.matches("rs-\\d+-\\d+")) {
        String[] kr = t.split("-");
        return code(Integer.parseInt(kr[1]), Integer.parseInt(kr[2]));
      }
      if (t.matches("replica-\\d+")) {
        return replicas(Integer.parseInt(t.substring("replica-".length())));
      }
      if (t.matches("partition-\\d+")) {
        return partitions(Integer.parseInt(t.substring("partition-".length())));
      }
    } catch (NumberFormatException tooLarge) {
      // falls through to the message below
    }
    throw new IllegalArgumentException("unknown scheme '" + text + "': use default, rs-K-R (or K+R,"
        + " e.g. rs-10-2), replica-N or partition-K");
  }

  /** The text form {@link #parse} reads: default, rs-K-R, replica-N or partition-K. */
  @Override
  public String toString() {
    switch (scheme) {
      case "":
        return "default";
      case ObjectPaths.SCHEME_REPLICA:
        return "replica-" + (r + 1);
      case ObjectPaths.SCHEME_PARTITION:
        return "partition-" + k;
      default:
        return "rs-" + k + "-" + r;
    }
  }

  /** The coordinator's choice of scheme with {@code k} set: how re-tuning repartitions. */
  static PutOptions tunedWithK(int k) {
    return new PutOptions("", k, -1, WriteMode.CACHE_ONLY);
  }

  /** These options with another write mode. */
  public PutOptions writeMode(WriteMode mode) {
    if (mode == null) {
      throw new IllegalArgumentException("write mode must not be null");
    }
    return new PutOptions(scheme, k, r, mode);
  }

  /** Whether these options store whole copies rather than splits. */
  public boolean isReplicas() {
    return ObjectPaths.SCHEME_REPLICA.equals(scheme);
  }

  /** Whether the coordinator chooses (and tunes) the redundancy. */
  boolean isDefaultCode() {
    return scheme.isEmpty();
  }

  /** The scheme asked for, or "" for the coordinator's choice. */
  public String scheme() {
    return scheme;
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
