package io.eccache.client;

import io.eccache.common.RedundancyScheme;
import java.util.Locale;
import java.util.Optional;

/**
 * How to store one object. With {@link #defaults()} the coordinator decides (the scheme of the
 * key's namespace, {@code alluxio.master.eccache.namespace.schemes}; whole copies below the
 * small-object threshold; parities or copies following popularity from then on); an explicit
 * {@link #scheme(RedundancyScheme) scheme} is kept as given and never re-tuned.
 */
public final class PutOptions {
  private static final PutOptions DEFAULTS =
      new PutOptions(null, false, WriteMode.CACHE_ONLY, null);

  /** The scheme asked for; null: the coordinator's choice. */
  private final RedundancyScheme scheme;
  /** With a scheme: one the coordinator chose and keeps tuning (a maintainer's rewrite). */
  private final boolean tuned;
  private final WriteMode writeMode;
  /** Whether to compute the SHA-256; null: as the client's alluxio.user.eccache.put.sha256. */
  private final Boolean sha256;

  private PutOptions(RedundancyScheme scheme, boolean tuned, WriteMode writeMode,
      Boolean sha256) {
    this.scheme = scheme;
    this.tuned = tuned;
    this.writeMode = writeMode;
    this.sha256 = sha256;
  }

  /** The coordinator's choice, tuned with popularity; cache only. */
  public static PutOptions defaults() {
    return DEFAULTS;
  }

  /** Exactly {@code scheme}, kept as given; cache only. */
  public static PutOptions scheme(RedundancyScheme scheme) {
    if (scheme == null) {
      throw new IllegalArgumentException("scheme must not be null: use PutOptions.defaults()");
    }
    return new PutOptions(scheme, false, WriteMode.CACHE_ONLY, null);
  }

  /** {@code scheme}, which the coordinator chose and keeps tuning: how a maintainer rewrites. */
  static PutOptions tuned(RedundancyScheme scheme) {
    return new PutOptions(scheme, true, WriteMode.CACHE_ONLY, null);
  }

  /**
   * k data splits and r parity splits ({@link RedundancyScheme#erasureCoded}).
   *
   * @throws IllegalArgumentException unless 1 <= k, 0 <= r and k + r <= 255
   */
  public static PutOptions code(int k, int r) {
    return scheme(RedundancyScheme.erasureCoded(k, r));
  }

  /**
   * Whole copies, each on its own worker ({@link RedundancyScheme#replicated}).
   *
   * @throws IllegalArgumentException unless 1 <= copies <= 255
   */
  public static PutOptions replicas(int copies) {
    return scheme(RedundancyScheme.replicated(copies));
  }

  /**
   * SP-Cache's k partitions, no redundancy ({@link RedundancyScheme#partitioned}).
   *
   * @throws IllegalArgumentException unless 1 <= k <= 255
   */
  public static PutOptions partitions(int k) {
    return scheme(RedundancyScheme.partitioned(k));
  }

  /**
   * Options from their text form, as {@link #toString()} writes it: {@code default} (the
   * coordinator's choice) or a scheme ({@link RedundancyScheme#parse}: rs-K-R, K+R, replica-N,
   * partition-K); cache only. For command lines.
   *
   * @throws IllegalArgumentException for any other text, saying what is accepted
   */
  public static PutOptions parse(String text) {
    if (text != null && text.trim().toLowerCase(Locale.ROOT).equals("default")) {
      return defaults();
    }
    try {
      return scheme(RedundancyScheme.parse(text));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage() + " (or default: the coordinator's choice)",
          e);
    }
  }

  /** The text form {@link #parse} reads: default, or the scheme's. */
  @Override
  public String toString() {
    return scheme == null ? "default" : scheme.toString();
  }

  /** These options with another write mode. */
  public PutOptions writeMode(WriteMode mode) {
    if (mode == null) {
      throw new IllegalArgumentException("write mode must not be null");
    }
    return new PutOptions(scheme, tuned, mode, sha256);
  }

  /**
   * These options computing (or not) the object's SHA-256 as it is written, for
   * {@link ObjectStat#sha256()}, whatever {@code alluxio.user.eccache.put.sha256} says. It is one
   * more pass over every byte the PUT writes.
   */
  public PutOptions sha256(boolean compute) {
    return new PutOptions(scheme, tuned, writeMode, compute);
  }

  /** Whether to compute the SHA-256; empty: as the client's configuration says. */
  public Optional<Boolean> sha256() {
    return Optional.ofNullable(sha256);
  }

  /** The scheme asked for; empty when the coordinator chooses (and tunes). */
  public Optional<RedundancyScheme> scheme() {
    return Optional.ofNullable(scheme);
  }

  /** Whether the coordinator keeps tuning {@link #scheme()} (a maintainer's rewrite). */
  boolean tuned() {
    return tuned;
  }

  /** Where the PUT persists the object besides the cache. */
  public WriteMode writeMode() {
    return writeMode;
  }
}
