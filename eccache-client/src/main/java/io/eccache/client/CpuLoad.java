package io.eccache.client;

import com.google.common.base.Ticker;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleSupplier;

/**
 * Whether this machine's CPU is busy, for the adaptive read choice ({@code ADAPTIVE}): the
 * operating system's recent CPU load, sampled by whichever GET finds the last sample older than
 * {@link #SAMPLE_MS}, with hysteresis so a load near the line does not flip every GET: busy from
 * {@link #BUSY} up, and again not busy only below {@link #IDLE}.
 *
 * <p>Why the CPU: a GET's Δ extra reads and its decode are what late binding pays for its tail.
 * Where the links are the limit (the paper's setting), that is bytes a link had room for; where
 * the CPU is (the data-path benchmark, a client machine running its tasks), every extra byte is
 * CPU taken from the reads that matter, and a hedge asked only for a late data split costs less.
 */
final class CpuLoad {
  /** Load (0-1, all cores) from which the CPU counts as busy. */
  static final double BUSY = 0.9;
  /** Load below which a busy CPU counts as having room again. */
  static final double IDLE = 0.75;
  /** How old a sample may be before the next GET takes another. */
  static final long SAMPLE_MS = 100;

  private final DoubleSupplier load;
  private final Ticker ticker;
  private final AtomicLong nextSample;
  private volatile boolean busy;

  /**
   * @param load the recent load of all cores, 0-1 (negative: unknown, which counts as not busy)
   */
  CpuLoad(DoubleSupplier load, Ticker ticker) {
    this.load = load;
    this.ticker = ticker;
    this.nextSample = new AtomicLong(ticker.read());
  }

  /** The machine's own load, as the JVM's {@code OperatingSystemMXBean} reports it. */
  static CpuLoad ofSystem(Ticker ticker) {
    java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean) {
      com.sun.management.OperatingSystemMXBean sun = (com.sun.management.OperatingSystemMXBean) os;
      return new CpuLoad(sun::getSystemCpuLoad, ticker); // getCpuLoad from Java 14
    }
    return new CpuLoad(() -> -1, ticker);
  }

  /** Whether the CPU is busy, from a sample at most {@link #SAMPLE_MS} old. */
  boolean busy() {
    long now = ticker.read();
    long due = nextSample.get();
    if (now - due >= 0
        && nextSample.compareAndSet(due, now + TimeUnit.MILLISECONDS.toNanos(SAMPLE_MS))) {
      double l = load.getAsDouble();
      if (l >= 0) {
        busy = busy ? l >= IDLE : l >= BUSY;
      }
    }
    return busy;
  }
}
