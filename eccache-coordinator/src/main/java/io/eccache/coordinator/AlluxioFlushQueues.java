package io.eccache.coordinator;

import alluxio.master.AbstractMaster;
import alluxio.master.Master;
import alluxio.master.journal.AsyncJournalWriter;
import alluxio.master.journal.Journal;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link JournalWakeup.FlushQueue}s over Alluxio 2.9.6's masters' journals.
 *
 * <p>Alluxio exposes neither a journal's waiting flushes nor its flush thread's permits, so this
 * reads them through reflection: a master's {@code mJournal} ({@code AbstractMaster}), the
 * journal's {@code AsyncJournalWriter} ({@code mAsyncWriter} of a UFS journal, {@code
 * mJournalWriter} of the embedded one, looked up at each call since a new primary makes a new
 * one), and the writer's {@code mTicketSet} and {@code mFlushSemaphore}. On another Alluxio, where
 * a field is missing, it watches nothing and says so once.
 */
final class AlluxioFlushQueues {
  private static final Logger LOG = LoggerFactory.getLogger(AlluxioFlushQueues.class);

  private AlluxioFlushQueues() {}

  /** One queue per master that journals through an {@code AsyncJournalWriter}. */
  static List<JournalWakeup.FlushQueue> of(List<Master> masters) {
    List<JournalWakeup.FlushQueue> queues = new ArrayList<>();
    try {
      Field journalField = AbstractMaster.class.getDeclaredField("mJournal");
      journalField.setAccessible(true);
      for (Master master : masters) {
        if (master instanceof AbstractMaster) {
          Journal journal = (Journal) journalField.get(master);
          Supplier<AsyncJournalWriter> writer = writerOf(journal);
          if (writer != null) {
            queues.add(ofWriter(master.getName(), writer));
          }
        }
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.warn("eccache: cannot watch the master's journal flushes (not Alluxio 2.9.6?): {}; a"
          + " flush whose wake-up Alluxio lost waits for the next journal entry", e.toString());
      return List.of();
    }
    return queues;
  }

  /** The queue of the writer {@code writer} gives at each call (none while it gives null). */
  static JournalWakeup.FlushQueue ofWriter(String name, Supplier<AsyncJournalWriter> writer)
      throws ReflectiveOperationException {
    Field tickets = AsyncJournalWriter.class.getDeclaredField("mTicketSet");
    Field permits = AsyncJournalWriter.class.getDeclaredField("mFlushSemaphore");
    tickets.setAccessible(true);
    permits.setAccessible(true);
    return new JournalWakeup.FlushQueue() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Collection<?> waiting() {
        AsyncJournalWriter current = writer.get();
        return current == null ? List.of() : List.copyOf((Set<?>) read(tickets, current));
      }

      @Override
      public void wake() {
        AsyncJournalWriter current = writer.get();
        if (current != null) {
          ((Semaphore) read(permits, current)).release();
        }
      }
    };
  }

  private static Supplier<AsyncJournalWriter> writerOf(Journal journal)
      throws ReflectiveOperationException {
    for (String name : List.of("mAsyncWriter", "mJournalWriter")) {
      Field field;
      try {
        field = journal.getClass().getDeclaredField(name);
      } catch (NoSuchFieldException notThisJournal) {
        continue;
      }
      if (field.getType() != AsyncJournalWriter.class && field.getType() != AtomicReference.class) {
        continue;
      }
      field.setAccessible(true);
      return () -> {
        Object value = read(field, journal);
        return (AsyncJournalWriter) (value instanceof AtomicReference
            ? ((AtomicReference<?>) value).get() : value);
      };
    }
    return null; // a journal without an AsyncJournalWriter (no-op): nothing waits
  }

  private static Object read(Field field, Object target) {
    try {
      return field.get(target);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot read " + field, e);
    }
  }
}
