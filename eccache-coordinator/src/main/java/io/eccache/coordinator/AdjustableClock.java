package io.eccache.coordinator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The coordinator's clock: another clock (the system's, in a master) plus an offset that only tests
 * move. Everything in the coordinator that depends on elapsed time (the popularity period, the
 * request rate, allocation expiry, the sweep's ages, maintenance leases) reads it, so a test
 * {@link #advance advances} time and runs a heartbeat instead of sleeping; a master never moves it.
 */
public final class AdjustableClock extends Clock {
  private final Clock base;
  private volatile long offsetMs;

  /** The system clock, not moved. */
  public AdjustableClock() {
    this(Clock.systemUTC());
  }

  /**
   * @param base the clock to add the offset to; {@code Clock.fixed(...)} gives a clock that moves
   *     only when advanced
   */
  public AdjustableClock(Clock base) {
    this.base = base;
  }

  /** Moves this clock by {@code by} (backwards when negative), e.g. to undo an earlier advance. */
  public synchronized void advance(Duration by) {
    offsetMs += by.toMillis();
  }

  @Override
  public long millis() {
    return base.millis() + offsetMs;
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("the coordinator's clock has no zone");
  }
}
