package io.eccache.common;

import io.eccache.common.proto.Layout;

/**
 * Where an object's bytes sit in its splits. The object is cut into stripes of k cells; cell i of
 * stripe s is stored at offset {@code s * cellSize} of data split i, and the r parity cells of a
 * stripe are coded from its k data cells alone. Striping lets a PUT encode and write as the bytes
 * arrive and a GET decode window by window, so neither needs the whole object in memory.
 *
 * <p>Every stripe but the last has cells of {@code cellSize} bytes; the last has cells of
 * ceil(remaining / k) bytes, its tail zero-padded, so an object is padded by less than k bytes. An
 * object no larger than k cells is one stripe, each data split a contiguous 1/k of it.
 */
public final class StripeGeometry {
  private final long objectSize;
  private final int k;
  private final long cellSize;
  private final int fullStripes;
  private final long lastCell;

  /**
   * @param objectSize bytes in the object
   * @param k data splits (1 for whole-object replicas)
   * @param cellSize bytes per cell of a full stripe; 0 only for an empty object
   */
  public StripeGeometry(long objectSize, int k, long cellSize) {
    if (objectSize < 0 || k < 1 || cellSize < 0 || (cellSize == 0 && objectSize > 0)) {
      throw new IllegalArgumentException("invalid geometry: object " + objectSize + " bytes, k = "
          + k + ", cell " + cellSize + " bytes");
    }
    this.objectSize = objectSize;
    this.k = k;
    this.cellSize = cellSize;
    long stripeBytes = k * cellSize;
    long full = stripeBytes == 0 ? 0 : objectSize / stripeBytes;
    this.fullStripes = Math.toIntExact(full);
    long remaining = objectSize - full * stripeBytes;
    this.lastCell = (remaining + k - 1) / k;
  }

  /** The geometry of a committed layout. */
  public static StripeGeometry of(Layout layout) {
    return new StripeGeometry(layout.getObjectSize(), SchemeProtos.of(layout).dataSplits(),
        layout.getCellSize());
  }

  /**
   * The cell size for a new object: one stripe (a plain 1/k split each) when the object fits in k
   * cells of {@code maxCell}, otherwise {@code maxCell}; {@code maxCell} too when the size is not
   * known yet ({@code objectSize < 0}).
   */
  public static long cellSizeFor(long objectSize, int k, long maxCell) {
    if (maxCell < 1 || k < 1) {
      throw new IllegalArgumentException("cell size and k must be positive");
    }
    if (objectSize < 0 || objectSize > k * maxCell) {
      return maxCell;
    }
    return (objectSize + k - 1) / k;
  }

  public long objectSize() {
    return objectSize;
  }

  public int k() {
    return k;
  }

  public long cellSize() {
    return cellSize;
  }

  /**
   * The Alluxio block size of a split file holding {@code splitSize} bytes (-1: not known yet):
   * one block per split, so a split lives on exactly one worker (1 TiB when not known yet, at
   * least 1 MiB).
   */
  public static long splitBlockSize(long splitSize) {
    return splitSize < 0 ? 1L << 40 : Math.max(splitSize, 1 << 20);
  }

  /** Number of stripes, the last possibly short. */
  public int stripes() {
    return fullStripes + (lastCell > 0 ? 1 : 0);
  }

  /** Bytes per cell in {@code stripe}. */
  public long cellLength(int stripe) {
    checkStripe(stripe);
    return stripe < fullStripes ? cellSize : lastCell;
  }

  /** Where {@code stripe}'s cells start within each split. */
  public long splitOffset(int stripe) {
    return (long) stripe * cellSize;
  }

  /** Where {@code stripe}'s first data byte is in the object. */
  public long objectOffset(int stripe) {
    return (long) stripe * k * cellSize;
  }

  /** Object bytes (not padding) in {@code stripe}. */
  public long dataBytes(int stripe) {
    return Math.min(k * cellLength(stripe), objectSize - objectOffset(stripe));
  }

  /** Bytes in every split file. */
  public long splitSize() {
    return fullStripes * cellSize + lastCell;
  }

  /** The stripe holding object byte {@code offset}. */
  public int stripeOf(long offset) {
    if (offset < 0 || offset >= objectSize) {
      throw new IndexOutOfBoundsException("offset " + offset + " outside an object of "
          + objectSize + " bytes");
    }
    return Math.toIntExact(offset / (k * cellSize));
  }

  /** How many checksums a layout of {@code splits} splits carries: one per cell. */
  public int checksums(int splits) {
    return Math.multiplyExact(splits, stripes());
  }

  /** Index into {@link Layout#getCrc32CList()} of the cell of {@code split} in {@code stripe}. */
  public int checksumIndex(int split, int stripe) {
    return split * stripes() + stripe;
  }

  private void checkStripe(int stripe) {
    if (stripe < 0 || stripe >= stripes()) {
      throw new IndexOutOfBoundsException("stripe " + stripe + " of " + stripes());
    }
  }

  @Override
  public String toString() {
    return "StripeGeometry{object=" + objectSize + ", k=" + k + ", cell=" + cellSize + ", stripes="
        + stripes() + ", split=" + splitSize() + "}";
  }
}
