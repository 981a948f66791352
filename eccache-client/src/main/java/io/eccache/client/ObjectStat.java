package io.eccache.client;

import com.google.common.io.BaseEncoding;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.Layout;
import java.time.Instant;
import java.util.Optional;

/** What eccache knows about a stored object. */
public final class ObjectStat {
  private final Layout layout;
  private final RedundancyScheme scheme;
  private final int liveSplits;
  private final RedundancyScheme target;
  private final double popularity;

  ObjectStat(Layout layout, int liveSplits, RedundancyScheme target, double popularity) {
    this.layout = layout;
    this.scheme = SchemeProtos.of(layout);
    this.liveSplits = liveSplits;
    this.target = target;
    this.popularity = popularity;
  }

  public String key() {
    return layout.getKey();
  }

  public long size() {
    return layout.getObjectSize();
  }

  /** This version of the object: a new one with every PUT of the key. */
  public String version() {
    return layout.getWriteId();
  }

  /** How the object is stored now. */
  public RedundancyScheme scheme() {
    return scheme;
  }

  /** Whether the coordinator chose this object's scheme and tunes it with popularity. */
  public boolean tuned() {
    return layout.getTuned();
  }

  /** The scheme the coordinator wants for it now; {@link #scheme()} when nothing is to change. */
  public RedundancyScheme target() {
    return target;
  }

  /** Accesses per popularity period, as an EWMA (the popularity keys). */
  public double popularity() {
    return popularity;
  }

  /** Whether the under store (S3) holds this version too, so reads can fall back to it. */
  public boolean persisted() {
    return layout.getPersisted();
  }

  /**
   * The SHA-256 of the object's bytes, in lower-case hex as {@code sha256sum} prints it, computed by
   * the PUT that wrote this version; empty for objects written before eccache kept it.
   */
  public Optional<String> sha256() {
    return layout.getSha256().isEmpty() ? Optional.empty()
        : Optional.of(BaseEncoding.base16().lowerCase().encode(layout.getSha256().toByteArray()));
  }

  /** When this version was committed; empty for objects written before eccache kept it. */
  public Optional<Instant> committed() {
    return layout.getCommittedAtMs() <= 0 ? Optional.empty()
        : Optional.of(Instant.ofEpochMilli(layout.getCommittedAtMs()));
  }

  /** Stripes the object is cut into (1 unless it is larger than k cells). */
  public int stripes() {
    return StripeGeometry.of(layout).stripes();
  }

  /** Bytes the object takes in the cache now: every split or copy. */
  public long cachedBytes() {
    return (long) scheme.splits() * Math.max(0, layout.getSplitSize());
  }

  /** Splits whose worker is alive and holds them now. */
  public int liveSplits() {
    return liveSplits;
  }

  @Override
  public String toString() {
    return layout.getKey() + ": " + layout.getObjectSize() + " bytes, " + scheme.describe()
        + (!target.equals(scheme) ? " (target " + target.describe() + ")" : "") + ", "
        + liveSplits + "/" + scheme.splits() + " live" + (layout.getPersisted() ? ", in S3" : "")
        + String.format(", popularity %.2f", popularity);
  }
}
