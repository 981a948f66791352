package io.eccache.lognode;

import java.util.Objects;

/**
 * One link of a stripe's chain (see {@link StripeState}): a base parity at a version, or a parity
 * delta that takes the parity from {@code fromVersion - 1} to {@code toVersion} over the byte range
 * {@code [offset, offset + length)}. A delta of one update has {@code fromVersion == toVersion}; a
 * merged one spans several versions. It lies in memory ({@link #bytes}) or on disk ({@link #disk}),
 * never both. Immutable, and its byte array is never written after construction: a flush reads it
 * without a lock.
 */
final class Part {
  enum Kind {
    BASE,
    DELTA
  }

  final Kind kind;
  final long fromVersion;
  final long toVersion;
  final int offset;
  final int length;
  /** The update's id if the part is exactly one update's delta, else {@code null}. */
  final Long updateId;
  final byte[] bytes;
  final DiskRef disk;

  private Part(Kind kind, long fromVersion, long toVersion, int offset, int length, Long updateId, byte[] bytes,
      DiskRef disk) {
    if ((bytes == null) == (disk == null)) {
      throw new IllegalArgumentException("a part is in memory or on disk");
    }
    if (bytes != null && bytes.length != length) {
      throw new IllegalArgumentException("length " + length + " but " + bytes.length + " bytes");
    }
    this.kind = kind;
    this.fromVersion = fromVersion;
    this.toVersion = toVersion;
    this.offset = offset;
    this.length = length;
    this.updateId = updateId;
    this.bytes = bytes;
    this.disk = disk;
  }

  static Part base(long version, byte[] parity) {
    return new Part(Kind.BASE, version, version, 0, parity.length, null, parity, null);
  }

  static Part update(long updateId, long version, int offset, byte[] parityDelta) {
    return new Part(Kind.DELTA, version, version, offset, parityDelta.length, updateId, parityDelta, null);
  }

  static Part delta(long fromVersion, long toVersion, int offset, byte[] parityDelta) {
    return new Part(Kind.DELTA, fromVersion, toVersion, offset, parityDelta.length, null, parityDelta, null);
  }

  static Part onDisk(Kind kind, long fromVersion, long toVersion, int offset, int length, DiskRef where) {
    return new Part(kind, fromVersion, toVersion, offset, length, null, null, Objects.requireNonNull(where));
  }

  /** The same part, now at {@code where}; its memory copy is let go. */
  Part movedTo(DiskRef where) {
    return new Part(kind, fromVersion, toVersion, offset, length, updateId, null, Objects.requireNonNull(where));
  }

  /** The same part with its bytes, read back from disk. */
  Part withBytes(byte[] read) {
    return new Part(kind, fromVersion, toVersion, offset, length, updateId, read, null);
  }

  boolean inMemory() {
    return bytes != null;
  }

  boolean isBase() {
    return kind == Kind.BASE;
  }

  /** What the part costs the buffer while in memory, 0 on disk. */
  long charge() {
    return bytes == null ? 0 : MemoryBudget.charge(length);
  }

  @Override
  public String toString() {
    return kind + (fromVersion == toVersion ? " v" + toVersion : " v" + fromVersion + ".." + toVersion) + " ["
        + offset + "+" + length + ") " + (bytes != null ? "memory" : disk.toString());
  }
}
