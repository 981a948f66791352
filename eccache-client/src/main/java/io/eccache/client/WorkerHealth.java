package io.eccache.client;

import alluxio.grpc.WorkerNetAddress;
import com.google.common.base.Ticker;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A circuit breaker per worker, shared by a client's GETs: a worker whose split read just failed
 * (refused, reset, unavailable, past the I/O timeout, or silent while its peers delivered) is
 * avoided by the next GETs' plans for {@code avoidTime}: its splits are read only when too few
 * others are left. A read from it that succeeds clears it at once; so does the time running out,
 * after which the next read tries it again (and trips it again if it still fails).
 *
 * <p>Why: the master notices a dead worker only after its worker timeout, and a GET's layout may be
 * cached past that, so GETs kept picking a dead worker's splits for seconds after a SIGKILL. Each
 * such pick costs little since split reads fail fast, but one that waits (a hung or partitioned
 * worker) costs the stall bound, once per GET; the breaker makes it once per client.
 * Thread-safe.
 */
final class WorkerHealth {
  private final Ticker ticker;
  private final long avoidNanos;
  /** When each worker (by {@link #key}) last failed; absent: healthy. */
  private final ConcurrentHashMap<String, Long> failedAt = new ConcurrentHashMap<>();

  WorkerHealth(Ticker ticker, long avoidMs) {
    this.ticker = ticker;
    this.avoidNanos = TimeUnit.MILLISECONDS.toNanos(avoidMs);
  }

  /** A worker's identity: its host and RPC port (a restarted worker on a new port is another). */
  static String key(WorkerNetAddress worker) {
    return worker.getHost() + ":" + worker.getRpcPort();
  }

  /** A read from {@code worker} failed as only an unreachable or hung worker's does. */
  void failed(WorkerNetAddress worker) {
    if (avoidNanos > 0) {
      failedAt.put(key(worker), ticker.read());
    }
  }

  /** A read from {@code worker} arrived whole: it is healthy again. */
  void answered(WorkerNetAddress worker) {
    if (!failedAt.isEmpty()) {
      failedAt.remove(key(worker));
    }
  }

  /** Whether GETs should read {@code worker}'s splits only when no others are left. */
  boolean avoided(WorkerNetAddress worker) {
    if (failedAt.isEmpty()) {
      return false; // the usual case: no map lookup, no key built
    }
    Long at = failedAt.get(key(worker));
    if (at == null) {
      return false;
    }
    if (ticker.read() - at < avoidNanos) {
      return true;
    }
    failedAt.remove(key(worker), at); // its time ran out: the next read tries it again
    return false;
  }
}
