package io.eccache.benchmarks.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * The failure scenario's crash inside the measured phase (the paper's Fig. 11): workers chosen from
 * the seed are SIGKILLed when the request at {@link BenchSettings#killAt} of a scheme's sequence is
 * issued, and before the next scheme's phase they are started again on their tiers, the
 * redundancy is allocated again from the learning pass, and the run waits, with a maintainer
 * repairing, until every object is whole and at its target again. Each
 * scheme alone thus meets the same crash at the same point of the same request sequence, with its
 * redundancy complete when its phase begins.
 */
final class MidPhaseKills {
  /** Checks whether every object of the run is whole and at its target redundancy again. */
  interface WholeCheck {
    boolean whole() throws Exception;
  }

  /** Starts what repairs objects while the run waits (a maintainer); closed after the wait. */
  interface Repair {
    AutoCloseable start() throws Exception;
  }

  /** Allocates the redundancy again as it was pinned before the first phase. */
  interface Repin {
    void run() throws Exception;
  }

  private static final long RESTORE_TIMEOUT_MS = 120_000;

  private final BenchCluster cluster;
  private final List<Integer> victims = new ArrayList<>();
  private final int at;
  private final WholeCheck check;
  private final Repair repair;
  private final Repin repin;
  private final Consumer<String> progress;
  private final List<Integer> dead = new ArrayList<>();

  /**
   * @param exclude workers not to kill (stopped or slowed ones)
   * @param check whether every object is whole again after a restart
   * @param repair starts the repairs to wait for
   * @param repin allocates again, once the killed workers are back, as before the first phase
   */
  MidPhaseKills(BenchCluster cluster, BenchSettings s, List<Integer> exclude, WholeCheck check,
      Repair repair, Repin repin, Consumer<String> progress) {
    this.cluster = cluster;
    this.check = check;
    this.repair = repair;
    this.repin = repin;
    this.progress = progress;
    victims.addAll(cluster.choose(s.killedWorkers, exclude, new Random(s.seed * 17 + 11)));
    this.at = (int) Math.min(s.requests - 1L, Math.round(s.killAt * s.requests));
  }

  /** The hosts killed in every phase. */
  List<String> hosts() {
    List<String> hosts = new ArrayList<>();
    for (int i : victims) {
      hosts.add(cluster.workerHost(i));
    }
    return hosts;
  }

  /** Index in the request sequence at which the kill comes. */
  int at() {
    return at;
  }

  /** Workers killed and not yet started again (for a run's clean-up). */
  synchronized List<Integer> dead() {
    return new ArrayList<>(dead);
  }

  /**
   * For one phase: called with each request's index before it is issued, kills the victims (once)
   * when the index is {@link #at()}, on the issuing thread, so no later request of the phase is
   * issued before they are dead.
   */
  IntConsumer phase() {
    AtomicBoolean done = new AtomicBoolean();
    return n -> {
      if (n == at && done.compareAndSet(false, true)) {
        for (int i : victims) {
          try {
            cluster.killWorker(i);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          synchronized (this) {
            dead.add(i);
          }
        }
      }
    };
  }

  /**
   * After a phase, before the next: starts the killed workers again (each returns once the master
   * lists it and has dropped its killed entry), allocates again as before the first phase (the
   * coordinator dropped a dead extra parity while its worker was lost, and planned SP-Cache's
   * partitions from the phase's request rate), and waits, with repairs running, until every
   * object is whole and at its target; at most two minutes, as long as pinning waits.
   *
   * @return false when some object was not whole within that time (the next phase measures it
   *     as it is, and the caller flags the run)
   */
  boolean restore() throws Exception {
    for (int i : dead()) {
      progress.accept("restarting killed worker " + cluster.workerHost(i));
      cluster.startWorker(i);
      synchronized (this) {
        dead.remove(Integer.valueOf(i));
      }
    }
    repin.run();
    long deadline = System.currentTimeMillis() + RESTORE_TIMEOUT_MS;
    try (AutoCloseable repairing = repair.start()) {
      while (!check.whole()) {
        if (System.currentTimeMillis() > deadline) {
          progress.accept("objects not whole " + RESTORE_TIMEOUT_MS / 1000 + " s after the"
              + " restart; measuring as they are");
          return false;
        }
        Thread.sleep(200);
      }
    }
    return true;
  }
}
