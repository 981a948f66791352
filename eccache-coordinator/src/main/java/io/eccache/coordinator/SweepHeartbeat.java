package io.eccache.coordinator;

import alluxio.exception.AlluxioException;
import alluxio.heartbeat.HeartbeatExecutor;
import java.io.IOException;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The namespace sweep as an Alluxio heartbeat: expires abandoned allocations, then lets the
 * {@link NamespaceSweeper} remove what they and retired versions left behind. The primary master
 * runs it on a timer; a test may advance the clock and call {@link #heartbeat} itself.
 */
final class SweepHeartbeat implements HeartbeatExecutor {
  private static final Logger LOG = LoggerFactory.getLogger(SweepHeartbeat.class);

  private final WriteSessions writes;
  private final NamespaceSweeper sweeper;
  private final Clock clock;

  SweepHeartbeat(WriteSessions writes, NamespaceSweeper sweeper, Clock clock) {
    this.writes = writes;
    this.sweeper = sweeper;
    this.clock = clock;
  }

  /** One sweep (one at a time); a failure is logged and the next heartbeat retries. */
  @Override
  public synchronized void heartbeat(long timeLimitMs) {
    try {
      writes.expireAbandoned();
      sweeper.sweep(clock.millis(), writes::isPending, LayoutStore::parse);
    } catch (IOException | AlluxioException | RuntimeException e) {
      LOG.warn("eccache: namespace sweep failed; the next one retries: {}", e.toString());
    }
  }

  @Override
  public void close() {}
}
