package io.eccache.coordinator;

import alluxio.heartbeat.HeartbeatExecutor;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wakes a master journal's flush thread when a flush has waited on it too long.
 *
 * <p>Why: Alluxio 2.9.6's {@code AsyncJournalWriter} can lose a flush's wake-up. A caller of
 * {@code flush} adds its ticket, releases a permit for the flush thread, waits, and afterwards
 * takes a permit back. With flushes running at once (a PUT's split files are created in parallel,
 * eleven workers commit their blocks at once) one caller can take back the permit another released
 * after the flush thread last looked at the tickets; the flush thread, idle, looks for new entries
 * and not for tickets, so the other caller waits, holding its inode locks, until some entry comes.
 * On a busy master that is milliseconds; on a quiet one it may be never. Seen in a release run: a
 * 64 KiB PUT from one client whose Allocate never answered (its {@code createFile} parked in
 * {@code AsyncJournalWriter$FlushTicket.waitCompleted}, every journal writer thread idle), and in
 * the run that reproduced it a worker's {@code CommitBlock} that took 60 s.
 *
 * <p>So a heartbeat ({@link #heartbeat}) looks at each journal's waiting flushes ({@link
 * FlushQueue}); when one has waited {@code stallNanos}, it gives that journal's flush thread the
 * permit it lost, at most once per {@code stallNanos}. A spare permit costs the thread one empty
 * pass; a healthy flush waits one batch ({@code alluxio.master.journal.flush.batch.time}), far less.
 */
final class JournalWakeup implements HeartbeatExecutor {
  private static final Logger LOG = LoggerFactory.getLogger(JournalWakeup.class);
  private static final long NOTE_EVERY_NANOS = 60_000_000_000L;

  /** The flushes waiting on one journal's flush thread, and that thread's wake-up. */
  interface FlushQueue {
    /** Which journal, as logs name it. */
    String name();

    /** The flushes waiting now (each one object for as long as it waits). */
    Collection<?> waiting();

    /** Gives the flush thread a permit: it passes over its queue and releases what it flushed. */
    void wake();
  }

  private final LongSupplier nanoTime;
  private final long stallNanos;
  private final Supplier<List<FlushQueue>> queues;
  /** Per journal: when each waiting flush was first seen. */
  private final Map<String, Map<Object, Long>> firstSeen = new HashMap<>();
  private final Map<String, Long> lastWake = new HashMap<>();
  private long wakes;
  private long wakesNoted;
  private long lastNoteNanos;

  /**
   * @param nanoTime the time source
   * @param stallNanos how long a flush waits before its journal is woken
   * @param queues the journals to watch, asked at every heartbeat (a new primary has new ones)
   */
  JournalWakeup(LongSupplier nanoTime, long stallNanos, Supplier<List<FlushQueue>> queues) {
    this.nanoTime = nanoTime;
    this.stallNanos = stallNanos;
    this.queues = queues;
    this.lastNoteNanos = nanoTime.getAsLong() - NOTE_EVERY_NANOS;
  }

  /** Wakes each journal one of whose flushes has waited {@code stallNanos}. */
  @Override
  public synchronized void heartbeat(long timeLimitMs) {
    long now = nanoTime.getAsLong();
    for (FlushQueue queue : queues.get()) {
      Map<Object, Long> seen = firstSeen.getOrDefault(queue.name(), Map.of());
      Map<Object, Long> current = new IdentityHashMap<>();
      long oldest = now;
      for (Object flush : queue.waiting()) {
        long since = seen.getOrDefault(flush, now);
        current.put(flush, since);
        oldest = Math.min(oldest, since);
      }
      firstSeen.put(queue.name(), current);
      if (now - oldest >= stallNanos
          && now - lastWake.getOrDefault(queue.name(), now - stallNanos) >= stallNanos) {
        queue.wake();
        lastWake.put(queue.name(), now);
        wakes++;
        note(queue.name(), now);
      }
    }
  }

  private void note(String journal, long now) {
    if (now - lastNoteNanos >= NOTE_EVERY_NANOS) {
      LOG.info("eccache: woke the master's journal flush thread {} time(s) since the last note"
          + " (last: {}), each for a flush waiting over {} ms (Alluxio 2.9.6 can lose a flush's"
          + " wake-up)", wakes - wakesNoted, journal, stallNanos / 1_000_000);
      lastNoteNanos = now;
      wakesNoted = wakes;
    }
  }

  /** The wake-ups given so far. */
  synchronized long wakes() {
    return wakes;
  }

  @Override
  public void close() {}
}
