package io.eccache.lognode;

import io.eccache.isal.CodeMatrix;
import io.eccache.isal.ErasureCoder;
import io.eccache.isal.ReedSolomon;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * How one log node is set up: where it keeps its files, which parity row of which code it holds, the
 * unit size, the disk layout and the limits. Immutable; build with {@link #builder()}.
 *
 * <p>The code, row, unit size, scheme and reserved-area size are the directory's identity: a node
 * reopened on the same directory must be given the same ones ({@link LogNode#open} refuses
 * otherwise). The rest (buffer, segment and merge sizes, flush interval, fsync, clock, coder) may
 * change between runs.
 */
public final class LogNodeConfig {
  /** Largest unit accepted: parity units are small (LogECMem's are 4 KiB), and a base is buffered whole. */
  public static final int MAX_UNIT_SIZE = 64 << 20;

  /** Largest buffer accepted: a PL or PLM flush writes all of it from one array. */
  public static final long MAX_BUFFER_BYTES = 1L << 30;

  private final Path directory;
  private final int dataUnits;
  private final int parityUnits;
  private final int row;
  private final int unitSize;
  private final LogScheme scheme;
  private final long bufferBytes;
  private final int reservedBytes;
  private final long segmentBytes;
  private final long mergeLogBytes;
  private final Duration flushInterval;
  private final boolean fsync;
  private final Clock clock;
  private final ErasureCoder coder;

  private LogNodeConfig(Builder b) {
    if (b.directory == null) {
      throw new IllegalArgumentException("directory is required");
    }
    if (b.dataUnits < 1 || b.parityUnits < 2 || b.dataUnits > ReedSolomon.MAX_UNITS
        || b.parityUnits > ReedSolomon.MAX_UNITS || b.dataUnits + b.parityUnits > ReedSolomon.MAX_UNITS) {
      throw new IllegalArgumentException("code (k=" + b.dataUnits + ", r=" + b.parityUnits + ") has no log"
          + " row: need k >= 1, r >= 2 (row 0, the XOR parity, is kept in memory elsewhere) and k + r <= "
          + ReedSolomon.MAX_UNITS);
    }
    if (b.row < 1 || b.row >= b.parityUnits) {
      throw new IllegalArgumentException("row " + b.row + " is not a log row of (k=" + b.dataUnits + ", r="
          + b.parityUnits + "): log nodes hold parity rows 1.." + (b.parityUnits - 1)
          + " (row 0 is the XOR parity P1)");
    }
    if (b.unitSize < 1 || b.unitSize > MAX_UNIT_SIZE) {
      throw new IllegalArgumentException("unitSize must be in [1, " + MAX_UNIT_SIZE + "], not " + b.unitSize);
    }
    long smallestBuffer = (long) b.unitSize + MemoryBudget.ENTRY_OVERHEAD;
    if (b.bufferBytes > MAX_BUFFER_BYTES) {
      throw new IllegalArgumentException("bufferBytes " + b.bufferBytes + " is above " + MAX_BUFFER_BYTES
          + ": one flush writes the buffer with one write from one array");
    }
    if (b.bufferBytes < smallestBuffer) {
      throw new IllegalArgumentException("bufferBytes " + b.bufferBytes + " cannot hold one base of "
          + b.unitSize + " bytes: need at least " + smallestBuffer);
    }
    if (b.reservedBytes != null && b.reservedBytes < 0) {
      throw new IllegalArgumentException("reservedBytes must not be negative, not " + b.reservedBytes);
    }
    if (b.segmentBytes < 1 || b.mergeLogBytes < 1) {
      throw new IllegalArgumentException("segmentBytes and mergeLogBytes must be positive, not "
          + b.segmentBytes + " and " + b.mergeLogBytes);
    }
    if (b.flushInterval.isNegative()) {
      throw new IllegalArgumentException("flushInterval must not be negative, not " + b.flushInterval);
    }
    this.directory = b.directory;
    this.dataUnits = b.dataUnits;
    this.parityUnits = b.parityUnits;
    this.row = b.row;
    this.unitSize = b.unitSize;
    this.scheme = b.scheme;
    this.bufferBytes = b.bufferBytes;
    // Default: room for four full-unit delta records.
    this.reservedBytes = b.reservedBytes != null ? b.reservedBytes
        : (int) Math.min(Integer.MAX_VALUE, 4L * (b.unitSize + Records.HEADER));
    this.segmentBytes = b.segmentBytes;
    this.mergeLogBytes = b.mergeLogBytes;
    this.flushInterval = b.flushInterval;
    this.fsync = b.fsync;
    this.clock = b.clock;
    this.coder = b.implementation == null
        ? ReedSolomon.coder(b.dataUnits, b.parityUnits, CodeMatrix.XOR_FIRST_CAUCHY)
        : ReedSolomon.coder(b.dataUnits, b.parityUnits, CodeMatrix.XOR_FIRST_CAUCHY, b.implementation);
  }

  /** A builder; {@code directory}, {@code code}, {@code row} and {@code unitSize} are required. */
  public static Builder builder() {
    return new Builder();
  }

  /** The directory the node's files live in (created if missing). */
  public Path directory() {
    return directory;
  }

  /** k. */
  public int dataUnits() {
    return dataUnits;
  }

  /** r. */
  public int parityUnits() {
    return parityUnits;
  }

  /** The parity row this node holds, 1..r-1 (the coder's row index; row 0 is the XOR parity). */
  public int row() {
    return row;
  }

  /** Bytes in one unit (data or parity). */
  public int unitSize() {
    return unitSize;
  }

  /** The disk layout. */
  public LogScheme scheme() {
    return scheme;
  }

  /** The memory buffer's bound, in bytes (payload plus a fixed overhead per entry). */
  public long bufferBytes() {
    return bufferBytes;
  }

  /** Bytes of each stripe file's reserved delta area (PLR, PLR-m, PLM). */
  public int reservedBytes() {
    return reservedBytes;
  }

  /** Size past which the log rolls over to a new segment file (PL, PLM). */
  public long segmentBytes() {
    return segmentBytes;
  }

  /** PLM: the log size at which a flush goes on to merge the log into the reserved spaces. */
  public long mergeLogBytes() {
    return mergeLogBytes;
  }

  /** How long {@link LogNode#maintain()} lets buffered deltas wait before it flushes them. */
  public Duration flushInterval() {
    return flushInterval;
  }

  /** Whether writes are forced to the device (fsync) before a flush or merge counts as done. */
  public boolean fsync() {
    return fsync;
  }

  /** The clock for ages and intervals. */
  public Clock clock() {
    return clock;
  }

  /** The coder: (k, r) with {@link CodeMatrix#XOR_FIRST_CAUCHY}. */
  public ErasureCoder coder() {
    return coder;
  }

  @Override
  public String toString() {
    return "LogNodeConfig{" + directory + ", (" + dataUnits + "," + parityUnits + ") row " + row + ", unit "
        + unitSize + " B, " + scheme + ", buffer " + bufferBytes + " B, reserved " + reservedBytes + " B}";
  }

  /** Builds a {@link LogNodeConfig}; every setter validates in {@link #build()}. */
  public static final class Builder {
    private Path directory;
    private int dataUnits;
    private int parityUnits;
    private int row = -1;
    private int unitSize;
    private LogScheme scheme = LogScheme.PLM;
    private long bufferBytes = 64L << 20;
    private Integer reservedBytes;
    private long segmentBytes = 64L << 20;
    private long mergeLogBytes = 64L << 20;
    private Duration flushInterval = Duration.ofSeconds(1);
    private boolean fsync = true;
    private Clock clock = Clock.systemUTC();
    private ReedSolomon.Implementation implementation;

    private Builder() {}

    /** Where the node keeps its files. Required. */
    public Builder directory(Path directory) {
      this.directory = Objects.requireNonNull(directory, "directory");
      return this;
    }

    /** The code: k data units, r parity units (r >= 2). Required. */
    public Builder code(int k, int r) {
      this.dataUnits = k;
      this.parityUnits = r;
      return this;
    }

    /** The parity row held, 1..r-1. Required. */
    public Builder row(int row) {
      this.row = row;
      return this;
    }

    /** Bytes per unit. Required. */
    public Builder unitSize(int unitSize) {
      this.unitSize = unitSize;
      return this;
    }

    /** The disk layout; default {@link LogScheme#PLM}, LogECMem's own. */
    public Builder scheme(LogScheme scheme) {
      this.scheme = Objects.requireNonNull(scheme, "scheme");
      return this;
    }

    /** The buffer bound; default 64 MiB, at most {@link #MAX_BUFFER_BYTES}. */
    public Builder bufferBytes(long bufferBytes) {
      this.bufferBytes = bufferBytes;
      return this;
    }

    /**
     * The reserved delta area per stripe file; default room for four full-unit delta records. Zero
     * is allowed: every delta then folds into a new base (a read and a write).
     */
    public Builder reservedBytes(int reservedBytes) {
      this.reservedBytes = reservedBytes;
      return this;
    }

    /** The log segment size; default 64 MiB. */
    public Builder segmentBytes(long segmentBytes) {
      this.segmentBytes = segmentBytes;
      return this;
    }

    /** PLM's merge trigger; default 64 MiB of log. */
    public Builder mergeLogBytes(long mergeLogBytes) {
      this.mergeLogBytes = mergeLogBytes;
      return this;
    }

    /** The longest a decided delta waits in the buffer under {@link LogNode#maintain()}; default 1 s. */
    public Builder flushInterval(Duration flushInterval) {
      this.flushInterval = Objects.requireNonNull(flushInterval, "flushInterval");
      return this;
    }

    /** Whether to fsync; default true. Tests on a temporary directory may turn it off. */
    public Builder fsync(boolean fsync) {
      this.fsync = fsync;
      return this;
    }

    /** The clock; default the system clock (UTC). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Forces the coder's implementation; default {@link ReedSolomon}'s configured one. */
    public Builder implementation(ReedSolomon.Implementation implementation) {
      this.implementation = Objects.requireNonNull(implementation, "implementation");
      return this;
    }

    /**
     * The configuration.
     *
     * @throws IllegalArgumentException if something required is missing or out of range
     */
    public LogNodeConfig build() {
      return new LogNodeConfig(this);
    }
  }
}
