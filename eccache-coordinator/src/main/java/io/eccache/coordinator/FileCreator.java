package io.eccache.coordinator;

import alluxio.exception.AlluxioException;
import alluxio.exception.status.CancelledException;
import alluxio.exception.status.DeadlineExceededException;
import alluxio.exception.status.UnavailableException;
import alluxio.util.ThreadUtils;
import com.google.common.base.Throwables;
import io.eccache.coordinator.form.NamespacePort;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates a write's files in the master all at once, each on a thread of the master's executor:
 * their journal entries then go out in one flush (one after another, each would wait for a flush
 * of its own, an fsync and with the embedded journal a Raft commit each). A writer then opens the
 * files it was given without a CreateFile call of its own, and a writer who may not create files
 * where they go (eccache's directories are the master's) can still write them.
 */
final class FileCreator {
  private static final Logger LOG = LoggerFactory.getLogger(FileCreator.class);
  /** The longest a creation waits for its files to be created (journaled). */
  static final long TIMEOUT_MS = 30_000;

  private final NamespacePort ns;
  private final Supplier<ExecutorService> executor;

  FileCreator(NamespacePort ns, Supplier<ExecutorService> executor) {
    this.ns = ns;
    this.executor = executor;
  }

  /**
   * Creates the files at {@code paths} with {@code options}; {@code alongside}, when not null, is
   * one more namespace change made in the same round.
   *
   * @param what the write the files are for, as errors name it ("write 5f0c…")
   * @throws DeadlineExceededException when the master's journal did not keep up
   */
  void create(String what, List<String> paths, NamespacePort.NewFile options,
      MasterCalls.MasterCall<?> alongside) throws IOException, AlluxioException {
    ExecutorService pool = executor.get();
    if (pool == null) {
      throw new UnavailableException("the coordinator is not running on this master (a standby"
          + " or one stopping): PUT again, to the primary master");
    }
    List<CompletableFuture<Void>> creating = new ArrayList<>();
    if (alongside != null) {
      creating.add(CompletableFuture.runAsync(() -> {
        try {
          alongside.call();
        } catch (IOException | AlluxioException e) {
          throw new CompletionException(e);
        }
      }, pool));
    }
    for (String path : paths) {
      creating.add(CompletableFuture.runAsync(() -> {
        try {
          ns.createFile(path, options);
        } catch (IOException | AlluxioException e) {
          throw new CompletionException(e);
        }
      }, pool));
    }
    try {
      CompletableFuture.allOf(creating.toArray(new CompletableFuture<?>[0]))
          .get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() instanceof CompletionException && e.getCause().getCause()
          != null ? e.getCause().getCause() : e.getCause();
      Throwables.propagateIfPossible(cause, IOException.class, AlluxioException.class);
      throw new IOException("creating the files of " + what + " failed: " + cause, cause);
    } catch (TimeoutException e) {
      // Which lock or flush held it is in the master's threads now, not later: log them (at most
      // once a minute), so a stall seen once, in CI or in production, carries its own jstack.
      ThreadUtils.logThreadInfo(LOG, "eccache: the master's threads while creating the files of "
          + what + " took more than " + TIMEOUT_MS + " ms", 60);
      throw new DeadlineExceededException("creating the files of " + what + " took more than "
          + TIMEOUT_MS + " ms: the master's journal does not keep up; check the master, then"
          + " PUT again");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CancelledException("interrupted while creating the files of " + what);
    }
  }
}
