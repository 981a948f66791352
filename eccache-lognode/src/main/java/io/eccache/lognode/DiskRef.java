package io.eccache.lognode;

/**
 * Where one {@link Part} lies on disk: a record in a log segment, or a range of the stripe's file (its
 * header and base, or one record of its reserved area). Immutable.
 */
final class DiskRef {
  /** Which kind of file. */
  enum Store {
    LOG,
    FILE
  }

  final Store store;
  /** The log segment's sequence number (LOG only). */
  final long segment;
  /** The first byte. */
  final long position;
  /** Bytes from {@link #position}: a whole record, or the file's header plus base. */
  final int length;

  private DiskRef(Store store, long segment, long position, int length) {
    this.store = store;
    this.segment = segment;
    this.position = position;
    this.length = length;
  }

  static DiskRef log(long segment, long position, int length) {
    return new DiskRef(Store.LOG, segment, position, length);
  }

  static DiskRef file(long position, int length) {
    return new DiskRef(Store.FILE, -1, position, length);
  }

  long end() {
    return position + length;
  }

  @Override
  public String toString() {
    return store == Store.LOG ? "log " + segment + "@" + position + "+" + length : "file@" + position + "+" + length;
  }
}
