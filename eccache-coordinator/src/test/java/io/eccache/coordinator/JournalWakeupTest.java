package io.eccache.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.concurrent.jsr.ForkJoinPool;
import alluxio.master.journal.AsyncJournalWriter;
import alluxio.master.journal.JournalWriter;
import alluxio.proto.journal.Journal.JournalEntry;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A journal is woken only for a flush that has waited past the stall, at most once per stall; and
 * on Alluxio's own {@code AsyncJournalWriter} a flush whose wake-up was lost stays waiting until
 * the wake-up releases it. The test's clock drives the heartbeat.
 */
class JournalWakeupTest {
  private static final long STALL_NS = TimeUnit.SECONDS.toNanos(1);

  private final AtomicLong now = new AtomicLong(7_000_000_000L);

  private void advanceMs(long ms) {
    now.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
  }

  /** A journal whose waiting flushes the test sets. */
  private static final class FakeQueue implements JournalWakeup.FlushQueue {
    final String name;
    final List<Object> waiting = new ArrayList<>();
    int wakes;

    FakeQueue(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Collection<?> waiting() {
      return List.copyOf(waiting);
    }

    @Override
    public void wake() {
      wakes++;
    }
  }

  @Test
  void aFlushWaitingPastTheStallWakesItsJournal_oncePerStall() {
    FakeQueue files = new FakeQueue("FileSystemMaster");
    FakeQueue blocks = new FakeQueue("BlockMaster");
    JournalWakeup wakeup = new JournalWakeup(now::get, STALL_NS, () -> List.of(files, blocks));
    Object stuck = new Object();
    files.waiting.add(stuck);
    wakeup.heartbeat(0);
    advanceMs(900);
    wakeup.heartbeat(0);
    assertEquals(0, files.wakes, "a flush younger than the stall is left alone");
    advanceMs(100);
    wakeup.heartbeat(0);
    assertEquals(1, files.wakes);
    assertEquals(0, blocks.wakes, "only the journal with the waiting flush");
    advanceMs(500);
    wakeup.heartbeat(0);
    assertEquals(1, files.wakes, "one wake-up per stall");
    advanceMs(500);
    wakeup.heartbeat(0);
    assertEquals(2, files.wakes);
    assertEquals(2, wakeup.wakes());
  }

  @Test
  void flushesThatComeAndGoWithinTheStallWakeNothing() {
    FakeQueue files = new FakeQueue("FileSystemMaster");
    JournalWakeup wakeup = new JournalWakeup(now::get, STALL_NS, () -> List.of(files));
    for (int i = 0; i < 20; i++) {
      files.waiting.clear();
      files.waiting.add(new Object()); // a new flush each time, each gone by the next heartbeat
      wakeup.heartbeat(0);
      advanceMs(250);
    }
    files.waiting.clear();
    advanceMs(5_000);
    wakeup.heartbeat(0);
    assertEquals(0, files.wakes);
  }

  @Test
  void onAlluxiosWriterAForgottenFlushWaitsUntilWoken() throws Exception {
    AtomicInteger flushes = new AtomicInteger();
    JournalWriter journal = new JournalWriter() {
      @Override
      public void write(JournalEntry entry) {}

      @Override
      public void flush() {
        flushes.incrementAndGet();
      }

      @Override
      public void close() {}
    };
    AsyncJournalWriter writer = new AsyncJournalWriter(journal, HashSet::new);
    try {
      long counter = writer.appendEntry(JournalEntry.newBuilder().setSequenceNumber(1).build());
      writer.flush(counter);
      assertEquals(1, flushes.get());
      // What the lost wake-up leaves: a flush of entries already flushed, added after the flush
      // thread's last look at its tickets, and no permit for it (another caller took it back).
      ForkJoinPool.ManagedBlocker forgotten = forgottenFlush(writer, counter);
      Thread.sleep(500); // five of the flush thread's idle polls (100 ms each)
      assertFalse(forgotten.isReleasable(), "Alluxio's flush thread looks for entries, not tickets");

      JournalWakeup.FlushQueue queue = AlluxioFlushQueues.ofWriter("test", () -> writer);
      JournalWakeup wakeup = new JournalWakeup(now::get, STALL_NS, () -> List.of(queue));
      wakeup.heartbeat(0);
      advanceMs(1_000);
      wakeup.heartbeat(0);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!forgotten.isReleasable() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertTrue(forgotten.isReleasable(), "woken, the flush thread releases the flush");
      assertEquals(1, wakeup.wakes());
    } finally {
      writer.close();
    }
  }

  /** Adds a flush ticket for {@code target} to the writer's set, as its flush() would. */
  @SuppressWarnings("unchecked")
  private static ForkJoinPool.ManagedBlocker forgottenFlush(AsyncJournalWriter writer, long target)
      throws ReflectiveOperationException {
    Class<?> ticketClass =
        Class.forName("alluxio.master.journal.AsyncJournalWriter$FlushTicket");
    Constructor<?> create = ticketClass.getDeclaredConstructor(long.class);
    create.setAccessible(true);
    Object ticket = create.newInstance(target);
    Field tickets = AsyncJournalWriter.class.getDeclaredField("mTicketSet");
    tickets.setAccessible(true);
    ((Set<Object>) tickets.get(writer)).add(ticket);
    return (ForkJoinPool.ManagedBlocker) ticket;
  }
}
