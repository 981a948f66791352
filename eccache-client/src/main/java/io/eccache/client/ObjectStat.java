package io.eccache.client;

import com.google.common.io.BaseEncoding;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import java.time.Instant;
import java.util.Optional;

/** What eccache knows about a stored object. */
public final class ObjectStat {
  private final Layout layout;
  private final RedundancyScheme scheme;
  private final int liveSplits;
  private final RedundancyScheme target;
  private final double popularity;
  private final Packed packed;

  /** Where a packed namespace's value is (docs/packed.md). */
  public static final class Packed {
    private final long stripe;
    private final int unit;
    private final int slot;
    private final long stripeVersion;
    private final int stripeUnits;

    Packed(long stripe, int unit, int slot, long stripeVersion, int stripeUnits) {
      this.stripe = stripe;
      this.unit = unit;
      this.slot = slot;
      this.stripeVersion = stripeVersion;
      this.stripeUnits = stripeUnits;
    }

    /** Whether it still waits for its stripe, kept meanwhile as whole replicas. */
    public boolean waiting() {
      return stripe == 0;
    }

    /** Its stripe's id (0 while waiting). */
    public long stripe() {
      return stripe;
    }

    /** The data unit of the stripe holding it. */
    public int unit() {
      return unit;
    }

    /** Its slot in that unit. */
    public int slot() {
      return slot;
    }

    /** The stripe's version: 1 at the seal, one more per update of any of its values. */
    public long stripeVersion() {
      return stripeVersion;
    }

    @Override
    public String toString() {
      return waiting() ? "waiting for its stripe" : "stripe " + stripe + " v" + stripeVersion
          + ", unit " + unit + ", slot " + slot;
    }
  }

  ObjectStat(LookupResponse lookup, int liveSplits) {
    this.layout = lookup.getLayout();
    this.scheme = SchemeProtos.of(layout);
    this.liveSplits = liveSplits;
    this.target = SchemeProtos.fromProto(lookup.getTarget());
    this.popularity = lookup.getPopularity();
    this.packed = !layout.hasPacked() ? null : new Packed(layout.getPacked().getStripe(),
        layout.getPacked().getUnit(), layout.getPacked().getSlot(),
        lookup.getStripe().getVersion(), lookup.getStripe().getUnitsCount());
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

  /**
   * Bytes the object takes in the cache now: every split or copy; a packed value its share of its
   * stripe's cached units (its length times cached units over k).
   */
  public long cachedBytes() {
    if (packed != null && !packed.waiting()) {
      return layout.getObjectSize() * packed.stripeUnits / scheme.dataSplits();
    }
    return (long) scheme.splits() * Math.max(0, layout.getSplitSize());
  }

  /** Where a packed namespace's value is; empty for other objects. */
  public Optional<Packed> packed() {
    return Optional.ofNullable(packed);
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
        + (packed != null ? ", packed: " + packed : "")
        + String.format(", popularity %.2f", popularity);
  }
}
