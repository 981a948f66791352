package io.eccache.client;

import io.eccache.common.RedundancyScheme;

/** Memory that the objects of one kind of scheme take in the cache, against its budget. */
public final class SchemeUsage {
  private final RedundancyScheme.Kind kind;
  private final long objects;
  private final long objectBytes;
  private final long cachedBytes;
  private final long budgetBytes;

  SchemeUsage(RedundancyScheme.Kind kind, long objects, long objectBytes, long cachedBytes,
      long budgetBytes) {
    this.kind = kind;
    this.objects = objects;
    this.objectBytes = objectBytes;
    this.cachedBytes = cachedBytes;
    this.budgetBytes = budgetBytes;
  }

  public RedundancyScheme.Kind kind() {
    return kind;
  }

  /** Objects stored with a scheme of this kind. */
  public long objects() {
    return objects;
  }

  /** One copy of every such object. */
  public long objectBytes() {
    return objectBytes;
  }

  /** What they take in the cache: every split or copy. */
  public long cachedBytes() {
    return cachedBytes;
  }

  /** What the redundancy budget allows beyond {@link #objectBytes()}. */
  public long budgetBytes() {
    return budgetBytes;
  }

  /** Cached bytes per object byte (1.0 = no redundancy; 0 when there are no objects). */
  public double memoryOverhead() {
    return objectBytes == 0 ? 0 : (double) cachedBytes / objectBytes;
  }

  @Override
  public String toString() {
    return kind.label() + ": " + objects + " objects, " + objectBytes + " object bytes, "
        + cachedBytes + " cached bytes, budget " + budgetBytes;
  }
}
