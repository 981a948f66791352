package io.eccache.client;

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
    return layout.getKey() + ": " + layout.getObjectSize() + " bytes, RS(" + layout.getK() + ","
        + layout.getR() + "), " + liveSplits + "/" + (layout.getK() + layout.getR())
        + " splits live";
  }
}
