package io.eccache.client;

import io.eccache.common.ObjectPaths;
import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.Layout;

/** What eccache knows about a stored object. */
public final class ObjectStat {
  private final Layout layout;
  private final int liveSplits;

  ObjectStat(Layout layout, int liveSplits) {
    this.layout = layout;
    this.liveSplits = liveSplits;
  }

  public String key() {
    return layout.getKey();
  }

  public long size() {
    return layout.getObjectSize();
  }

  /** "ec" (k data + r parity splits) or "replica" (r + 1 whole copies). */
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

  /** Whether the under store (S3) holds this version too, so reads can fall back to it. */
  public boolean persisted() {
    return layout.getPersisted();
  }

  /** Stripes the object is cut into (1 unless it is larger than k cells). */
  public int stripes() {
    return StripeGeometry.of(layout).stripes();
  }

  /** Splits whose worker is alive and holds them now. */
  public int liveSplits() {
    return liveSplits;
  }

  @Override
  public String toString() {
    String shape = ObjectPaths.SCHEME_REPLICA.equals(layout.getScheme())
        ? (layout.getR() + 1) + " copies" : "RS(" + layout.getK() + "," + layout.getR() + ")";
    return layout.getKey() + ": " + layout.getObjectSize() + " bytes, " + shape + ", " + liveSplits
        + "/" + (layout.getK() + layout.getR()) + " live" + (layout.getPersisted() ? ", in S3" : "");
  }
}
