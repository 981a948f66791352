package io.eccache.client;

import io.eccache.common.ObjectPaths;
import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.Layout;

/** What eccache knows about a stored object. */
public final class ObjectStat {
  private final Layout layout;
  private final int liveSplits;
  private final int target;
  private final double popularity;

  ObjectStat(Layout layout, int liveSplits, int target, double popularity) {
    this.layout = layout;
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

  /**
   * "ec" (k data + r parity splits), "replica" (r + 1 whole copies) or "partition" (SP-Cache: k
   * partitions).
   */
  public String scheme() {
    return layout.getScheme();
  }

  /** Data splits. */
  public int k() {
    return layout.getK();
  }

  /** Parity splits. */
  public int r() {
    return layout.getR();
  }

  /** Whether the coordinator tunes this object's redundancy (it was PUT with default options). */
  public boolean tuned() {
    return layout.getTuned();
  }

  /**
   * The redundancy the coordinator wants now, in this scheme's unit: r for "ec" and "replica"
   * (extra copies), k for "partition". Equal to the current one when nothing is to change.
   */
  public int target() {
    return target;
  }

  /** The redundancy now, in the same unit as {@link #target()}. */
  public int current() {
    return ObjectPaths.SCHEME_PARTITION.equals(layout.getScheme()) ? layout.getK() : layout.getR();
  }

  /** Accesses per popularity period, as an EWMA ({@code alluxio.eccache.popularity.*}). */
  public double popularity() {
    return popularity;
  }

  /** Whether the under store (S3) holds this version too, so reads can fall back to it. */
  public boolean persisted() {
    return layout.getPersisted();
  }

  /** Stripes the object is cut into (1 unless it is larger than k cells). */
  public int stripes() {
    return StripeGeometry.of(layout).stripes();
  }

  /** Bytes the object takes in the cache now: every split or copy. */
  public long cachedBytes() {
    return (long) (layout.getK() + layout.getR()) * Math.max(0, layout.getSplitSize());
  }

  /** Splits whose worker is alive and holds them now. */
  public int liveSplits() {
    return liveSplits;
  }

  /** How the object is stored, for people: "RS(10,2)", "3 copies" or "4 partitions". */
  public String shape() {
    switch (layout.getScheme()) {
      case ObjectPaths.SCHEME_REPLICA:
        return (layout.getR() + 1) + " copies";
      case ObjectPaths.SCHEME_PARTITION:
        return layout.getK() + " partitions";
      default:
        return "RS(" + layout.getK() + "," + layout.getR() + ")";
    }
  }

  @Override
  public String toString() {
    return layout.getKey() + ": " + layout.getObjectSize() + " bytes, " + shape()
        + (target != current() ? " (target " + target + ")" : "") + ", " + liveSplits + "/"
        + (layout.getK() + layout.getR()) + " live" + (layout.getPersisted() ? ", in S3" : "")
        + String.format(", popularity %.2f", popularity);
  }
}
