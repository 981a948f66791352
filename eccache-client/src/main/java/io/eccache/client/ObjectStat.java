package io.eccache.client;

import io.eccache.common.ObjectPaths;
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

  /** Splits whose worker is alive and holds them now. */
  public int liveSplits() {
    return liveSplits;
  }

  @Override
  public String toString() {
    String shape = ObjectPaths.SCHEME_REPLICA.equals(layout.getScheme())
        ? (layout.getR() + 1) + " copies" : "RS(" + layout.getK() + "," + layout.getR() + ")";
    return layout.getKey() + ": " + layout.getObjectSize() + " bytes, " + shape + ", " + liveSplits
        + "/" + (layout.getK() + layout.getR()) + " live";
  }
}
