package io.eccache.benchmarks.cluster;

import alluxio.heartbeat.HeartbeatExecutor;
import io.eccache.coordinator.AdjustableClock;
import io.eccache.coordinator.CoordinatorMaster;
import java.time.Duration;

/**
 * Re-tuning driven by the benchmark instead of the coordinator's heartbeat, so redundancy is
 * allocated from exactly the learning pass's counts and stays as allocated while it is measured.
 *
 * <p>The in-process cluster runs with {@code alluxio.master.eccache.retune.interval=0} (no
 * heartbeat) and a popularity period of {@link #PERIOD}; passes happen only when this class runs
 * them through the coordinator's {@link CoordinatorMaster#retuner()} hook (and once when a worker
 * is lost: with fewer live workers and the request rate of the moment, that pass may change
 * targets, which is why the failure scenario pins again after each phase's kill). A pass folds
 * the period's counts into popularity only once a period has passed on the coordinator's clock,
 * so:
 *
 * <ol>
 *   <li>{@link #beforeLearning} folds whatever came before (moving the clock a period on), then
 *       sets the clock just short of the next fold and runs a pass that does not fold: the
 *       request-rate window (SP-Cache's allocation needs an absolute rate) now starts here;
 *   <li>the learning pass reads; its lookups are the period's only counts;
 *   <li>{@link #fold} runs the pass that folds them (moving the clock on by at most a moment if the
 *       learning pass was shorter than that): popularity and the request rate are the learning
 *       pass's, and the targets follow;
 *   <li>a maintainer moves the bytes; no pass runs (one would measure no request rate and take
 *       SP-Cache's planned repartitions back);
 *   <li>nothing runs during the measured phase: no target changes, no drop, no addition.
 * </ol>
 */
public final class PinnedRetuning {
  /** The popularity period the cluster must be configured with. */
  public static final Duration PERIOD = Duration.ofHours(1);
  /** How far short of the next fold the clock is set before learning. */
  private static final long MARGIN_MS = 200;

  private final HeartbeatExecutor retuner;
  private final AdjustableClock clock;
  private final long periodMs = PERIOD.toMillis();
  /** Coordinator time just before and after the last folding pass; MIN_VALUE before the first. */
  private long foldStart = Long.MIN_VALUE;
  private long foldEnd = Long.MIN_VALUE;

  /**
   * @param coordinator the in-process coordinator, started with a popularity period of
   *     {@link #PERIOD} and re-tuning off ({@code retune.interval=0})
   */
  public PinnedRetuning(CoordinatorMaster coordinator) {
    this.retuner = coordinator.retuner();
    this.clock = coordinator.clock();
  }

  /** Folds what came before and opens a period (and rate window) for the learning pass. */
  public synchronized void beforeLearning() throws InterruptedException {
    fold();
    clock.advance(Duration.ofMillis(foldStart + periodMs - MARGIN_MS - clock.millis()));
    retuner.heartbeat(Long.MAX_VALUE);
  }

  /** The pass that folds the period's counts into popularity and allocates from them. */
  public synchronized void fold() throws InterruptedException {
    long due = foldEnd == Long.MIN_VALUE ? clock.millis() + periodMs : foldEnd + periodMs;
    long now = clock.millis();
    if (now < due) {
      clock.advance(Duration.ofMillis(due - now));
    }
    foldStart = clock.millis();
    retuner.heartbeat(Long.MAX_VALUE);
    foldEnd = clock.millis();
  }

}
