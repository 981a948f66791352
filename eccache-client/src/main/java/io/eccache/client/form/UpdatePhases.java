package io.eccache.client.form;

import alluxio.metrics.MetricsSystem;
import com.codahale.metrics.Timer;
import io.eccache.common.EcCacheMetrics;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where a client's updates in place spend their time, phase by phase: the per-client sums a
 * benchmark takes differences of, and Alluxio timers ({@code EcCacheUpdatePhase.<phase>}) for
 * operators. Only updates that committed are counted, so a phase's mean is over real updates.
 */
public final class UpdatePhases {
  /** A phase of one update, in the order an update goes through them. */
  public enum Phase {
    /** The coordinator's answer to the PUT: the stripe's lease, its layout, the new unit files. */
    LEASE,
    /** Reading the units the update rewrites (hybrid: the data unit and P1; in-place: r + 1). */
    READ_UNITS,
    /** Checking the old units, the delta and the new units' bytes (CPU, no I/O). */
    COMPUTE,
    /** Writing the new units' files on their workers. */
    WRITE_UNITS,
    /** Sending the delta to the r - 1 log nodes, each acking once buffered (hybrid only). */
    LOG_ACKS,
    /** The coordinator's commit: the stripe's next version, journaled. */
    COMMIT,
    /** Telling the log nodes the outcome (hybrid only). */
    DECIDE
  }

  private static final Map<Phase, Timer> TIMERS = new EnumMap<>(Phase.class);

  static {
    for (Phase p : Phase.values()) {
      TIMERS.put(p, MetricsSystem.timer(EcCacheMetrics.UPDATE_PHASE + "." + p.name()));
    }
  }

  private final Map<Phase, LongAdder> nanos = new EnumMap<>(Phase.class);
  private final LongAdder updates = new LongAdder();
  private final LongAdder leaseWaits = new LongAdder();

  /** Empty sums. */
  public UpdatePhases() {
    for (Phase p : Phase.values()) {
      nanos.put(p, new LongAdder());
    }
  }

  private void record(Map<Phase, Long> phases) {
    updates.increment();
    phases.forEach((p, n) -> {
      nanos.get(p).add(n);
      TIMERS.get(p).update(n, TimeUnit.NANOSECONDS);
    });
  }

  /**
   * An update found its value's stripe leased by another update, or lost its own lease, and
   * waits to try again.
   */
  public void countLeaseWait() {
    leaseWaits.increment();
  }

  /** A clock for one update, started now; its laps are recorded when it {@link Clock#commit}s. */
  public Clock start() {
    return new Clock(this);
  }

  /** The sums now. */
  public Snapshot snapshot() {
    Map<Phase, Long> sums = new EnumMap<>(Phase.class);
    nanos.forEach((p, n) -> sums.put(p, n.sum()));
    return new Snapshot(updates.sum(), leaseWaits.sum(), sums);
  }

  /**
   * Times one update: each {@link #lap} charges the time since the previous lap to a phase, and
   * {@link #commit} adds the update to the sums. Used by one thread.
   */
  public static final class Clock {
    private final UpdatePhases sums;
    private final Map<Phase, Long> laps = new EnumMap<>(Phase.class);
    private long last = System.nanoTime();

    private Clock(UpdatePhases sums) {
      this.sums = sums;
    }

    /** Charges the time since the last lap (or the start) to {@code phase}. */
    public void lap(Phase phase) {
      long now = System.nanoTime();
      laps.merge(phase, now - last, Long::sum);
      last = now;
    }

    /** The update committed: its laps count. */
    public void commit() {
      sums.record(laps);
    }
  }

  /** Sums at one moment; the difference of two is what happened between them. */
  public static final class Snapshot {
    private final long updates;
    private final long leaseWaits;
    private final Map<Phase, Long> nanos;

    private Snapshot(long updates, long leaseWaits, Map<Phase, Long> nanos) {
      this.updates = updates;
      this.leaseWaits = leaseWaits;
      this.nanos = nanos;
    }

    /** Waits for a stripe's lease (another update held it, or this one lost it). */
    public long leaseWaits() {
      return leaseWaits;
    }

    /** Updates committed. */
    public long updates() {
      return updates;
    }

    /** What happened since {@code earlier}. */
    public Snapshot since(Snapshot earlier) {
      Map<Phase, Long> diff = new EnumMap<>(Phase.class);
      nanos.forEach((p, n) -> diff.put(p, n - earlier.nanos.get(p)));
      return new Snapshot(updates - earlier.updates, leaseWaits - earlier.leaseWaits, diff);
    }

    /** Mean time of {@code phase} per update, in microseconds; 0 without updates. */
    public double meanMicros(Phase phase) {
      return updates == 0 ? 0 : nanos.get(phase) / 1e3 / updates;
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder(updates + " updates, mean µs:");
      for (Phase p : Phase.values()) {
        sb.append(' ').append(p.name().toLowerCase(java.util.Locale.ROOT)).append(' ')
            .append(Math.round(meanMicros(p)));
      }
      return sb.append(", ").append(leaseWaits).append(" lease waits").toString();
    }

    /** Mean time of all phases per update, in microseconds. */
    public double meanTotalMicros() {
      double total = 0;
      for (Phase p : Phase.values()) {
        total += meanMicros(p);
      }
      return total;
    }
  }
}
