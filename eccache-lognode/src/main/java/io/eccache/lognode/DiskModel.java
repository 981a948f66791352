package io.eccache.lognode;

import java.math.BigInteger;
import java.time.Duration;
import java.util.Objects;

/**
 * A modelled disk: turns {@link DiskStats} into the time an HDD would have spent, so results measured
 * on tmpfs or an SSD can be reported beside what the paper's hardware would have done. Each I/O costs
 * one seek plus its bytes over the bandwidth; a sequential I/O pays its seek too, because between two
 * flushes the head has been elsewhere (repair reads, other files) - what makes PL cheap is that one
 * flush is one I/O, not that the I/O is free of positioning. The defaults, 4 ms and 150 MB/s, are a
 * commodity 7200 rpm disk.
 */
public final class DiskModel {
  /** Default time to position the head for one I/O. */
  public static final Duration DEFAULT_SEEK = Duration.ofMillis(4);
  /** Default transfer rate, bytes per second (150 MB/s). */
  public static final long DEFAULT_BYTES_PER_SECOND = 150_000_000L;

  private final Duration seek;
  private final long bytesPerSecond;

  /**
   * @param seek the positioning time of one I/O, not negative
   * @param bytesPerSecond the transfer rate, positive
   */
  public DiskModel(Duration seek, long bytesPerSecond) {
    Objects.requireNonNull(seek, "seek");
    if (seek.isNegative()) {
      throw new IllegalArgumentException("seek must not be negative, not " + seek);
    }
    if (bytesPerSecond <= 0) {
      throw new IllegalArgumentException("bytesPerSecond must be positive, not " + bytesPerSecond);
    }
    this.seek = seek;
    this.bytesPerSecond = bytesPerSecond;
  }

  /** The default HDD: {@link #DEFAULT_SEEK} per I/O and {@link #DEFAULT_BYTES_PER_SECOND}. */
  public static DiskModel hdd() {
    return new DiskModel(DEFAULT_SEEK, DEFAULT_BYTES_PER_SECOND);
  }

  /** The modelled time of every I/O in {@code stats}. */
  public Duration time(DiskStats stats) {
    return time(stats, DiskStats.Purpose.values());
  }

  /** The modelled time of the I/Os in {@code stats} done for the given purposes. */
  public Duration time(DiskStats stats, DiskStats.Purpose... purposes) {
    Objects.requireNonNull(stats, "stats");
    long ios = 0;
    long bytes = 0;
    for (DiskStats.Purpose purpose : purposes) {
      ios += stats.ios(purpose);
      bytes += stats.bytes(purpose);
    }
    // Whole seconds, then the remainder in nanoseconds rounded up: bytes * 1e9 would overflow a long
    // past 9 GB, which a long benchmark reaches.
    long seconds = bytes / bytesPerSecond;
    BigInteger remainder = BigInteger.valueOf(bytes % bytesPerSecond).multiply(BigInteger.valueOf(1_000_000_000L));
    BigInteger[] nanos = remainder.divideAndRemainder(BigInteger.valueOf(bytesPerSecond));
    long transferNanos = nanos[0].longValueExact() + (nanos[1].signum() > 0 ? 1 : 0);
    return seek.multipliedBy(ios).plusSeconds(seconds).plusNanos(transferNanos);
  }

  /** Time to position the head for one I/O. */
  public Duration seek() {
    return seek;
  }

  /** Transfer rate in bytes per second. */
  public long bytesPerSecond() {
    return bytesPerSecond;
  }

  @Override
  public String toString() {
    return "DiskModel{seek=" + seek.toNanos() / 1e6 + " ms, " + bytesPerSecond / 1e6 + " MB/s}";
  }
}
