package io.eccache.coordinator;

import alluxio.Constants;
import alluxio.exception.AlluxioException;
import alluxio.exception.DirectoryNotEmptyException;
import alluxio.exception.FileDoesNotExistException;
import alluxio.util.logging.SamplingLogger;
import alluxio.wire.FileInfo;
import com.google.common.util.concurrent.Striped;
import io.eccache.common.ObjectPaths;
import io.eccache.common.RegionMounts;
import io.eccache.common.proto.Layout;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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
  private final RegionMounts regions;

  NamespaceSweeper(NamespacePort ns, ObjectPaths paths, UnderStoreCopies underStore,
      Striped<Lock> keyLocks, long graceMs, long orphanAgeMs, RegionMounts regions) {
    this.regions = regions;
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
    sweepRegions(nowMs, pending, inGrace);
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

  /**
   * Removes regional split files, from Alluxio and their region, of writes that are neither the
   * key's committed version, nor pending, nor retired and still in their grace, once they are
   * older than the allocation timeout: replaced and deleted versions, and abandoned PUTs. A write
   * that is neither pending nor committed can never be committed, so no lock is needed; the check
   * for pending comes first, as a commit writes the layout before it stops being pending.
   */
  private void sweepRegions(long nowMs, Predicate<String> pending, Set<String> inGrace)
      throws IOException, AlluxioException {
    Map<String, String> committed = new HashMap<>(); // key -> its committed write id ("" none)
    for (RegionMounts.Region region : regions.regions()) {
      for (FileInfo file : list(region.path())) {
        RegionMounts.ChunkName chunk = RegionMounts.parseChunkName(file.getName());
        if (chunk == null || file.isFolder() || pending.test(chunk.writeId)
            || inGrace.contains(chunk.writeId) || !isOld(file, nowMs)) {
          continue;
        }
        String current = committed.get(chunk.key);
        if (current == null) {
          FileInfo dir;
          try {
            dir = ns.status(paths.objectDirectory(chunk.key));
          } catch (FileDoesNotExistException gone) {
            dir = null;
          }
          Layout layout = dir == null ? null : LayoutStore.parse(dir);
          current = layout == null ? "" : layout.getWriteId();
          committed.put(chunk.key, current);
        }
        if (!current.equals(chunk.writeId)) {
          try {
            ns.delete(file.getPath(), NamespacePort.Removal.EVERYWHERE);
          } catch (IOException | AlluxioException e) {
            LOG.warn("eccache: could not remove regional split {}: {}", file.getPath(),
                e.toString());
          }
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
