package io.eccache.coordinator;

import alluxio.Constants;
import alluxio.exception.AlluxioException;
import alluxio.exception.DirectoryNotEmptyException;
import alluxio.exception.FileDoesNotExistException;
import alluxio.util.logging.SamplingLogger;
import alluxio.wire.FileInfo;
import com.google.common.util.concurrent.Striped;
import io.eccache.common.ObjectPaths;
import io.eccache.common.proto.Layout;
import io.eccache.coordinator.form.NamespacePort;
import io.eccache.coordinator.form.StorageForm;
import io.eccache.coordinator.form.StorageForms;
import io.eccache.coordinator.form.SweepPass;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.Lock;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps eccache's namespace free of garbage within bounded time, and lets readers finish.
 *
 * <p>A replaced or deleted write is <em>retired</em>: its directory is renamed under
 * {@code <root>/retired/<expiry ms>-<write id>}, which keeps its block ids, so readers that looked
 * it up before go on reading it; it is removed once {@code alluxio.master.eccache.retired.grace} is over.
 * Its expiry is in its name, so a restarted master still removes it in time.
 *
 * <p>A write that was never committed (its client died, a PUT failed, the master restarted) is an
 * <em>orphan</em> once it is older than {@code alluxio.master.eccache.allocation.timeout} and not pending:
 * the sweep removes it, and the object directory too when it holds no layout and nothing else; the
 * same for staged under-store copies.
 */
final class NamespaceSweeper {
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceSweeper.class);
  private static final Logger LIST_FAILURES = new SamplingLogger(LOG, 10 * Constants.MINUTE_MS);

  private final NamespacePort ns;
  private final ObjectPaths paths;
  private final UnderStoreCopies underStore;
  private final Striped<Lock> keyLocks;
  private final long graceMs;
  private final long orphanAgeMs;
  private final StorageForms forms;

  NamespaceSweeper(NamespacePort ns, ObjectPaths paths, UnderStoreCopies underStore,
      Striped<Lock> keyLocks, long graceMs, long orphanAgeMs, StorageForms forms) {
    this.forms = forms;
    this.ns = ns;
    this.paths = paths;
    this.underStore = underStore;
    this.keyLocks = keyLocks;
    this.graceMs = graceMs;
    this.orphanAgeMs = orphanAgeMs;
  }

  /** Retires a write's directory (call under the key's lock). */
  void retire(String writeDirectory, String writeId, long nowMs)
      throws IOException, AlluxioException {
    String retired = paths.retiredDirectory();
    ns.createDirectory(retired, NamespacePort.NewDirectory.ensured());
    try {
      ns.rename(writeDirectory, retired + "/" + (nowMs + graceMs) + "-" + writeId);
    } catch (FileDoesNotExistException gone) {
      // retired or removed already
    }
  }

  /**
   * One pass: removes retired writes whose grace is over, orphaned writes and object directories,
   * and abandoned staged copies. {@code pending} tells the write ids still awaiting a commit;
   * {@code layoutOf} reads an object directory's committed layout (null if none).
   */
  void sweep(long nowMs, Predicate<String> pending, Function<FileInfo, Layout> layoutOf)
      throws IOException, AlluxioException {
    Set<String> inGrace = new HashSet<>(); // retired writes still readable
    for (FileInfo retired : list(paths.retiredDirectory())) {
      String name = retired.getName();
      int dash = name.indexOf('-');
      long expiry = dash < 0 ? 0 : parseLong(name.substring(0, dash));
      if (expiry <= nowMs) {
        deleteQuietly(retired.getPath());
      } else {
        inGrace.add(name.substring(dash + 1));
      }
    }
    SweepPass pass = new Pass(nowMs, pending, inGrace, layoutOf);
    for (StorageForm form : forms.all()) {
      form.sweep(pass);
    }
    for (FileInfo object : list(paths.objectsDirectory())) {
      String key = ObjectPaths.keyOf(object.getName());
      if (key == null) {
        continue; // not an object directory of this layout: leave it alone
      }
      sweepObject(key, object.getPath(), nowMs, pending, layoutOf);
    }
    for (FileInfo file : listStaged()) {
      if (underStore.paths().isStagingPath(file.getPath()) && isOld(file, nowMs)
          && !pending.test(file.getName())) {
        try {
          underStore.deleteStaged(file.getPath());
        } catch (IOException | AlluxioException e) {
          LOG.warn("eccache: could not remove abandoned staged copy {}: {}", file.getPath(),
              e.toString());
        }
      }
    }
  }

  private void sweepObject(String key, String objectDir, long nowMs, Predicate<String> pending,
      Function<FileInfo, Layout> layoutOf) throws IOException, AlluxioException {
    Lock lock = keyLocks.get(key);
    lock.lock();
    try {
      FileInfo dir;
      try {
        dir = ns.status(objectDir);
      } catch (FileDoesNotExistException gone) {
        return;
      }
      Layout layout = layoutOf.apply(dir);
      int kept = 0;
      for (FileInfo write : list(objectDir)) {
        boolean current = layout != null && write.getName().equals(layout.getWriteId());
        if (current || pending.test(write.getName()) || !isOld(write, nowMs)) {
          kept++;
        } else {
          deleteQuietly(write.getPath());
        }
      }
      if (layout == null && kept == 0 && isOld(dir, nowMs)) {
        // Only if still empty: a PUT of the key (which takes no key lock) may have created its
        // write here since the listing.
        try {
          ns.delete(objectDir, NamespacePort.Removal.ALLUXIO_ONLY_IF_EMPTY);
        } catch (DirectoryNotEmptyException | FileDoesNotExistException raced) {
          // a new write, or removed already
        } catch (IOException | AlluxioException e) {
          LOG.warn("eccache: could not remove {}: {}", objectDir, e.toString());
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /** What one sweep knows, for the forms' shares of it. */
  private final class Pass implements SweepPass {
    private final long nowMs;
    private final Predicate<String> pending;
    private final Set<String> inGrace;
    private final Function<FileInfo, Layout> layoutOf;

    Pass(long nowMs, Predicate<String> pending, Set<String> inGrace,
        Function<FileInfo, Layout> layoutOf) {
      this.nowMs = nowMs;
      this.pending = pending;
      this.inGrace = inGrace;
      this.layoutOf = layoutOf;
    }

    @Override
    public long nowMs() {
      return nowMs;
    }

    @Override
    public boolean pending(String writeId) {
      return pending.test(writeId);
    }

    @Override
    public boolean inGrace(String writeId) {
      return inGrace.contains(writeId);
    }

    @Override
    public boolean isOld(FileInfo file) {
      return NamespaceSweeper.this.isOld(file, nowMs);
    }

    @Override
    public String committedWriteId(String key) throws IOException, AlluxioException {
      FileInfo dir;
      try {
        dir = ns.status(paths.objectDirectory(key));
      } catch (FileDoesNotExistException gone) {
        return "";
      }
      Layout layout = layoutOf.apply(dir);
      return layout == null ? "" : layout.getWriteId();
    }
  }

  private boolean isOld(FileInfo info, long nowMs) {
    return nowMs - Math.max(info.getCreationTimeMs(), info.getLastModificationTimeMs())
        >= orphanAgeMs;
  }

  private List<FileInfo> list(String dir) throws IOException, AlluxioException {
    try {
      return ns.list(dir, NamespacePort.Load.NEVER);
    } catch (FileDoesNotExistException nothing) {
      return List.of();
    }
  }

  /**
   * The staged copies' directory as S3 holds it (staged copies of a crashed master included): only
   * it, as listing the whole prefix would cost every sweep the whole bucket. Alluxio's under-store
   * errors are runtime exceptions too; a listing that fails is logged at most every 10 minutes and
   * the next sweep tries again.
   */
  private List<FileInfo> listStaged() {
    try {
      return ns.list(underStore.paths().stagingDirectory(), NamespacePort.Load.ONCE);
    } catch (FileDoesNotExistException nothingStaged) {
      return List.of();
    } catch (IOException | AlluxioException | RuntimeException e) {
      LIST_FAILURES.warn("eccache: cannot list the staged under-store copies in {}, so abandoned"
          + " ones stay until a later sweep can: {}", underStore.paths().stagingDirectory(),
          e.toString());
      return List.of();
    }
  }

  private void deleteQuietly(String path) {
    try {
      ns.delete(path, NamespacePort.Removal.ALLUXIO_ONLY);
    } catch (IOException | AlluxioException e) {
      LOG.warn("eccache: could not remove {}: {}", path, e.toString());
    }
  }

  private static long parseLong(String s) {
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
