package io.eccache.client;

import alluxio.exception.status.AlluxioStatusException;
import alluxio.exception.status.DeadlineExceededException;
import alluxio.exception.status.NotFoundException;
import alluxio.exception.status.UnavailableException;
import com.google.common.base.Ticker;
import io.eccache.common.ClientKeys;
import io.eccache.common.proto.Split;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One GET's plan: which of an object's splits are read, when more are asked for, when a read is
 * given up on, and when the GET has what it needs. The policy half of late binding: the
 * {@link LateBindingReader} moves the bytes and tells the plan what happened; the plan answers with
 * the reads to start. The order and pace are its {@link ReadStrategy}'s; the rules every strategy
 * shares are here:
 * <ul>
 *   <li><b>Second chance</b>: a read that fails is replaced by a split not yet asked for.
 *   <li><b>No answer</b>: when nothing arrives within the I/O timeout, the reads in flight are given
 *       up on and as many untried splits take their place; with none left the GET fails, typed.
 *   <li><b>Silent while its peers deliver</b>: once a read arrived whole, a read that has sent
 *       nothing for {@value #STALL_FACTOR}x the time that first one took (at least
 *       {@link #STALL_FLOOR_NANOS}) is given up on and replaced, if an untried split is left. This
 *       is what bounds a read of a hung or partitioned worker well below the I/O timeout.
 *   <li><b>Avoided workers last</b>: splits on workers the {@link WorkerHealth} avoids are asked
 *       for only after every other; a failure that only an unreachable worker gives trips it, an
 *       arrival clears it.
 * </ul>
 * A read given up on is no longer counted on, but its bytes are used if they arrive. Time is the
 * injected {@link Ticker}'s, so the rules are tested without sleeping. Driven by one thread.
 */
final class ReadPlan {
  /** The least silence that counts as a stall, whatever the peers took. */
  static final long STALL_FLOOR_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
  /** A silent read is given up on after this many times the first arrival's time. */
  static final int STALL_FACTOR = 4;

  /** One read the plan asked for; its I/O thread reports the bytes as they arrive. */
  static final class PlannedRead {
    final Split split;
    final long launchedAt;
    private final Ticker ticker;
    /** When bytes last arrived (its I/O thread writes it). */
    private volatile long progressAt;

    PlannedRead(Split split, Ticker ticker) {
      this.split = split;
      this.ticker = ticker;
      this.launchedAt = ticker.read();
      this.progressAt = launchedAt;
    }

    /** Bytes arrived. */
    void advanced() {
      progressAt = ticker.read();
    }

    long silentSince() {
      return progressAt;
    }
  }

  private final String key;
  private final ReadStrategy strategy;
  private final List<Split> candidates;
  private final int k;
  private final int delta;
  private final Ticker ticker;
  private final WorkerHealth health;
  private final ReadStatistics statistics;
  private final long timeoutNanos;
  private final long minGraceNanos;
  private final long began;
  /** The reads counted on (asked for, not arrived, failed or given up on). */
  private final Set<PlannedRead> waiting = Collections.newSetFromMap(new IdentityHashMap<>());
  /**
   * Reads given up on by the stall rule, still on their way: counted on again when every split
   * read in their place has failed and nothing else is left (with r workers dead, the slow one
   * may be the last live split).
   */
  private final Set<PlannedRead> givenUp = Collections.newSetFromMap(new IdentityHashMap<>());
  private final List<String> failures = new ArrayList<>();
  private int next; // candidates[next] is the next split to ask for
  private int arrived;
  private int hedgesLeft;
  private long hedgeAt; // when the Δ extra reads start if the last data split has not arrived
  private long graceEnds; // data-first: when the k-th arrival stops waiting for a data split
  private long timeoutAt; // when the reads in flight count as given no answer
  private long firstArrivalNanos = -1;
  private boolean timedOut; // a read given no answer is among the failures

  /**
   * @param candidates the splits that can be read, in the strategy's order
   */
  ReadPlan(String key, ReadStrategy strategy, List<Split> candidates, int k, int delta,
      Ticker ticker, WorkerHealth health, ReadStatistics statistics, long timeoutMs,
      long minGraceNanos) {
    this.key = key;
    this.strategy = strategy;
    this.candidates = avoidedLast(candidates, health);
    this.k = k;
    this.delta = delta;
    this.ticker = ticker;
    this.health = health;
    this.statistics = statistics;
    this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    this.minGraceNanos = minGraceNanos;
    this.began = ticker.read();
    this.timeoutAt = began + timeoutNanos;
    this.hedgesLeft = strategy.hedges() && !strategy.copies() ? delta : 0;
  }

  /**
   * {@code candidates} with the splits on avoided workers moved to the end, in order; the list
   * itself when none is (the usual case: no copy per GET).
   */
  private static List<Split> avoidedLast(List<Split> candidates, WorkerHealth health) {
    List<Split> ordered = null; // the kept ones, from the first avoided one on
    List<Split> avoided = null;
    for (int i = 0; i < candidates.size(); i++) {
      Split s = candidates.get(i);
      if (health.avoided(s.getWorker())) {
        if (avoided == null) {
          avoided = new ArrayList<>();
          ordered = new ArrayList<>(candidates.subList(0, i));
        }
        avoided.add(s);
      } else if (ordered != null) {
        ordered.add(s);
      }
    }
    if (avoided == null) {
      return candidates;
    }
    ordered.addAll(avoided);
    return ordered;
  }

  /** The data position {@code split}'s bytes belong at: its index, or 0 for a copy. */
  int position(Split split) {
    return strategy.copies() ? 0 : split.getIndex();
  }

  /**
   * The reads to start first.
   *
   * @throws UnavailableException when fewer than k splits can be read at all
   */
  List<PlannedRead> start() throws UnavailableException {
    if (candidates.size() < k) {
      throw new UnavailableException("only " + candidates.size() + " splits of '" + key
          + "' are on live workers and k = " + k + " are needed");
    }
    return ask(Math.min(strategy.upFront(k, delta), candidates.size()));
  }

  private List<PlannedRead> ask(int reads) {
    int n = Math.min(reads, candidates.size() - next);
    if (n <= 0) {
      return List.of();
    }
    List<PlannedRead> asked = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      PlannedRead r = new PlannedRead(candidates.get(next++), ticker);
      waiting.add(r);
      asked.add(r);
    }
    return asked;
  }

  /** {@code read} arrived whole and intact; returns the reads to start now (none so far). */
  List<PlannedRead> arrived(PlannedRead read) {
    long now = ticker.read();
    waiting.remove(read);
    givenUp.remove(read);
    arrived++;
    health.answered(read.split.getWorker());
    if (firstArrivalNanos < 0) {
      firstArrivalNanos = now - began;
    }
    timeoutAt = now + timeoutNanos;
    if (hedgesLeft > 0 && arrived == k - 1 && next < candidates.size()) {
      // A quarter of the time the k - 1 took, as data-first's grace, for the last one.
      hedgeAt = now + Math.max(minGraceNanos, (now - began) / 4);
    }
    if (arrived == k && strategy.waitsForData() && !strategy.copies()) {
      // A parity came before a data split still on its way: give that one a quarter of the time
      // the read took so far before decoding instead.
      graceEnds = now + Math.max(minGraceNanos, (now - began) / 4);
    }
    return List.of();
  }

  /** {@code read} failed with {@code cause}; returns the reads to start in its place. */
  List<PlannedRead> failed(PlannedRead read, Throwable cause) {
    boolean counted = waiting.remove(read);
    givenUp.remove(read);
    failures.add(String.valueOf(cause));
    timedOut |= cause instanceof DeadlineExceededException;
    if (unreachable(cause)) {
      health.failed(read.split.getWorker());
    }
    timeoutAt = ticker.read() + timeoutNanos;
    // Late binding's second chance: a split not yet asked for replaces the failed one.
    List<PlannedRead> instead = counted && arrived < k ? ask(1) : List.of();
    if (waiting.isEmpty() && arrived < k && !givenUp.isEmpty()) {
      // Nothing else left: the reads given up on are waited for again, up to the timeout.
      waiting.addAll(givenUp);
      givenUp.clear();
    }
    return instead;
  }

  /**
   * Whether a read's failure says its worker is unreachable or hung (refused, reset, unavailable,
   * past the timeout), rather than something about the split (corrupt, gone).
   */
  static boolean unreachable(Throwable cause) {
    for (Throwable c = cause; c != null; c = c.getCause()) {
      if (c instanceof SplitRanges.CorruptSplitException || c instanceof NotFoundException) {
        return false;
      }
      if (c instanceof UnavailableException || c instanceof DeadlineExceededException
          || c instanceof java.net.SocketException
          || c instanceof java.nio.channels.ClosedChannelException) {
        return true;
      }
      if (c instanceof AlluxioStatusException) {
        return false; // typed by Alluxio as something else
      }
    }
    return false;
  }

  /** Whether the GET has what it needs: k arrived, and no data split it still waits for. */
  boolean complete() {
    if (arrived < k) {
      return false;
    }
    if (graceEnds == 0 || ticker.read() - graceEnds >= 0) {
      return true;
    }
    for (PlannedRead r : waiting) {
      if (r.split.getIndex() < k) {
        return false;
      }
    }
    return true;
  }

  /**
   * How long to wait for the next arrival before asking {@link #due}.
   *
   * @throws UnavailableException (or {@link DeadlineExceededException}) when no read is in flight
   *     and fewer than k arrived: nothing is left to wait for
   */
  long waitNanos() throws AlluxioStatusException {
    if (waiting.isEmpty() && arrived < k) {
      if (timedOut) {
        throw noSplitLeft(failures);
      }
      throw new UnavailableException("could read only " + arrived + " of the k = " + k
          + " splits needed for '" + key + "': " + failures);
    }
    long now = ticker.read();
    long until = arrived < k ? timeoutAt : graceEnds;
    if (hedgeAt != 0) {
      until = Math.min(until, hedgeAt);
    }
    long stall = stallAt();
    if (stall != Long.MAX_VALUE) {
      until = Math.min(until, stall);
    }
    return Math.max(0, until - now);
  }

  /**
   * The wait from {@link #waitNanos} ended with nothing arrived: the reads to start now (the Δ
   * hedges, replacements of reads given up on), or none (a data split's grace ran out, or
   * nothing is due yet).
   *
   * @throws DeadlineExceededException when the reads in flight gave no answer within the timeout
   *     and no split is left to take their place
   */
  List<PlannedRead> due() throws DeadlineExceededException {
    long now = ticker.read();
    if (arrived >= k) {
      graceEnds = 0; // the data split is late: decode it
      return List.of();
    }
    if (hedgeAt != 0 && now - hedgeAt >= 0) {
      // The last data split is late: the Δ extra reads start now, once.
      int extra = hedgesLeft;
      hedgesLeft = 0;
      hedgeAt = 0;
      statistics.addHedge();
      timeoutAt = now + timeoutNanos;
      return ask(extra);
    }
    List<PlannedRead> stalled = stalled(now);
    if (!stalled.isEmpty()) {
      // Not a trip of the breaker yet: a busy worker can be silent that long. If it stays silent
      // the watchdog ends the read and the reader trips it then.
      for (PlannedRead r : stalled) {
        waiting.remove(r);
        givenUp.add(r);
        failures.add("split " + r.split.getIndex() + " on " + r.split.getWorker().getHost()
            + " sent nothing for " + TimeUnit.NANOSECONDS.toMillis(now - r.silentSince())
            + " ms while its peers delivered");
      }
      statistics.addStalled(stalled.size());
      timeoutAt = now + timeoutNanos;
      return ask(stalled.size());
    }
    if (now - timeoutAt < 0) {
      return List.of();
    }
    // Nothing arrived in time: the reads in flight count as failed (they stop at their next
    // slice, or the watchdog ends them); untried splits take their place.
    int silent = waiting.size();
    String what = silent + " split read(s) gave no answer in "
        + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms";
    failures.add(what);
    timedOut = true;
    if (next >= candidates.size()) {
      throw noSplitLeft(what);
    }
    for (PlannedRead r : waiting) {
      health.failed(r.split.getWorker());
    }
    waiting.clear();
    timeoutAt = now + timeoutNanos;
    return ask(silent);
  }

  /** When the first counted read will have been silent too long, if the stall rule applies. */
  private long stallAt() {
    if (firstArrivalNanos < 0 || arrived >= k || next >= candidates.size()) {
      return Long.MAX_VALUE;
    }
    long bound = stallBound();
    long at = Long.MAX_VALUE;
    for (PlannedRead r : waiting) {
      at = Math.min(at, r.silentSince() + bound);
    }
    return at;
  }

  private long stallBound() {
    return Math.max(STALL_FLOOR_NANOS, STALL_FACTOR * firstArrivalNanos);
  }

  /** The counted reads silent past the stall bound, as many as untried splits can replace. */
  private List<PlannedRead> stalled(long now) {
    if (stallAt() == Long.MAX_VALUE) {
      return List.of();
    }
    long bound = stallBound();
    List<PlannedRead> stalled = new ArrayList<>();
    for (PlannedRead r : waiting) {
      if (now - r.silentSince() >= bound && stalled.size() < candidates.size() - next) {
        stalled.add(r);
      }
    }
    return stalled;
  }

  /** A GET that timed out on {@code what} with no split left to try in its place. */
  private DeadlineExceededException noSplitLeft(Object what) {
    return new DeadlineExceededException("reading '" + key + "': " + what + " ("
        + ClientKeys.IO_TIMEOUT.getName() + ") and no other split is left to try; " + arrived
        + " of k = " + k + " arrived. Check the workers holding its splits, then GET it again");
  }
}
