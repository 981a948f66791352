package io.eccache.lognode;

import java.util.Arrays;
import java.util.Objects;

/**
 * Disk I/O a log node did, by purpose and by kind of access: an immutable snapshot, from
 * {@link LogNode#diskStats()}. One I/O is one read or write call on one contiguous byte range (the
 * unit the LogECMem paper counts in Fig. 14); "sequential" means it continues the log where the
 * previous write ended or reads a whole log segment front to back, "random" means it goes to a place
 * of its own (a stripe file, or one record inside the log).
 *
 * <p>What counts: record and file writes, and reads of them. What does not: creating, renaming,
 * deleting and preallocating files ({@code setLength}), fsync, and the node's small identity file.
 */
public final class DiskStats {
  /** Why the node touched the disk. */
  public enum Purpose {
    /** Writing the buffer out (and, under PLR or PLR-m, compacting a full reserved area). */
    FLUSH,
    /** PLM's merge of the log into reserved spaces (and compactions it causes). */
    MERGE,
    /** Building the parity for {@link LogNode#readParity}: the repair path. */
    READ,
    /** Reading the directory back when the node opens. */
    RECOVERY
  }

  /** The kind of one I/O. */
  public enum Access {
    /** A whole log segment read front to back (a PLM merge, recovery). */
    SEQUENTIAL_READ(false, true),
    /** One record in the log, or the front of a stripe file. */
    RANDOM_READ(false, false),
    /** A flush appended to the log. */
    SEQUENTIAL_WRITE(true, true),
    /** A new stripe file, or one record appended to a reserved area. */
    RANDOM_WRITE(true, false);

    private final boolean write;
    private final boolean sequential;

    Access(boolean write, boolean sequential) {
      this.write = write;
      this.sequential = sequential;
    }

    /** Whether this is a write. */
    public boolean isWrite() {
      return write;
    }

    /** Whether this is sequential in the paper's sense. */
    public boolean isSequential() {
      return sequential;
    }
  }

  private static final int PURPOSES = Purpose.values().length;
  private static final int ACCESSES = Access.values().length;

  private final long[] ios;
  private final long[] bytes;

  DiskStats(long[] ios, long[] bytes) {
    if (ios.length != PURPOSES * ACCESSES || bytes.length != ios.length) {
      throw new IllegalArgumentException("need " + PURPOSES * ACCESSES + " counters");
    }
    this.ios = ios.clone();
    this.bytes = bytes.clone();
  }

  static int index(Purpose purpose, Access access) {
    return purpose.ordinal() * ACCESSES + access.ordinal();
  }

  /** I/Os of one kind for one purpose. */
  public long ios(Purpose purpose, Access access) {
    return ios[index(Objects.requireNonNull(purpose), Objects.requireNonNull(access))];
  }

  /** Bytes moved by I/Os of one kind for one purpose. */
  public long bytes(Purpose purpose, Access access) {
    return bytes[index(Objects.requireNonNull(purpose), Objects.requireNonNull(access))];
  }

  /** I/Os of every kind for one purpose. */
  public long ios(Purpose purpose) {
    long sum = 0;
    for (Access access : Access.values()) {
      sum += ios(purpose, access);
    }
    return sum;
  }

  /** I/Os of one kind for every purpose. */
  public long ios(Access access) {
    long sum = 0;
    for (Purpose purpose : Purpose.values()) {
      sum += ios(purpose, access);
    }
    return sum;
  }

  /** Bytes moved for one purpose. */
  public long bytes(Purpose purpose) {
    long sum = 0;
    for (Access access : Access.values()) {
      sum += bytes(purpose, access);
    }
    return sum;
  }

  /** Every I/O. */
  public long ios() {
    return Arrays.stream(ios).sum();
  }

  /**
   * The I/Os updates cost: flushes plus merges, what the paper's Fig. 14(a, b) counts as "disk IOs
   * during updates".
   */
  public long updateIos() {
    return ios(Purpose.FLUSH) + ios(Purpose.MERGE);
  }

  /** Writes of every purpose. */
  public long writes() {
    return ios(Access.SEQUENTIAL_WRITE) + ios(Access.RANDOM_WRITE);
  }

  /** Reads of every purpose. */
  public long reads() {
    return ios(Access.SEQUENTIAL_READ) + ios(Access.RANDOM_READ);
  }

  /** Bytes written for every purpose. */
  public long bytesWritten() {
    long sum = 0;
    for (Purpose purpose : Purpose.values()) {
      sum += bytes(purpose, Access.SEQUENTIAL_WRITE) + bytes(purpose, Access.RANDOM_WRITE);
    }
    return sum;
  }

  /** Bytes read for every purpose. */
  public long bytesRead() {
    long sum = 0;
    for (Purpose purpose : Purpose.values()) {
      sum += bytes(purpose, Access.SEQUENTIAL_READ) + bytes(purpose, Access.RANDOM_READ);
    }
    return sum;
  }

  /** The sum of this and {@code other} (of another node, or of an earlier run on the same directory). */
  public DiskStats plus(DiskStats other) {
    long[] sIos = new long[ios.length];
    long[] sBytes = new long[bytes.length];
    for (int i = 0; i < ios.length; i++) {
      sIos[i] = ios[i] + other.ios[i];
      sBytes[i] = bytes[i] + other.bytes[i];
    }
    return new DiskStats(sIos, sBytes);
  }

  /** What happened since {@code earlier}, a snapshot of the same node taken before this one. */
  public DiskStats minus(DiskStats earlier) {
    long[] dIos = new long[ios.length];
    long[] dBytes = new long[bytes.length];
    for (int i = 0; i < ios.length; i++) {
      dIos[i] = ios[i] - earlier.ios[i];
      dBytes[i] = bytes[i] - earlier.bytes[i];
    }
    return new DiskStats(dIos, dBytes);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof DiskStats && Arrays.equals(ios, ((DiskStats) other).ios)
        && Arrays.equals(bytes, ((DiskStats) other).bytes);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(ios) + Arrays.hashCode(bytes);
  }

  /** Non-zero counters only, e.g. {@code DiskStats{FLUSH SEQUENTIAL_WRITE 3 (1200 B)}}. */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("DiskStats{");
    String separator = "";
    for (Purpose purpose : Purpose.values()) {
      for (Access access : Access.values()) {
        int i = index(purpose, access);
        if (ios[i] != 0) {
          text.append(separator).append(purpose).append(' ').append(access).append(' ').append(ios[i])
              .append(" (").append(bytes[i]).append(" B)");
          separator = ", ";
        }
      }
    }
    return text.append('}').toString();
  }
}
