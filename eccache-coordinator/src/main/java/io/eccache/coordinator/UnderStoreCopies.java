package io.eccache.coordinator;

import static io.eccache.coordinator.MasterCalls.everywhere;
import static io.eccache.coordinator.MasterCalls.loadAlways;
import static io.eccache.coordinator.MasterCalls.loadOnce;
import static io.eccache.coordinator.MasterCalls.noSync;
import static io.eccache.coordinator.MasterCalls.noSyncExists;

import alluxio.AlluxioURI;
import alluxio.exception.AlluxioException;
import alluxio.exception.FileDoesNotExistException;
import alluxio.exception.status.FailedPreconditionException;
import alluxio.grpc.RenamePOptions;
import alluxio.master.file.DefaultFileSystemMaster;
import alluxio.master.file.FileSystemMaster;
import alluxio.master.file.contexts.RenameContext;
import alluxio.master.file.meta.MountTable;
import alluxio.resource.CloseableResource;
import alluxio.underfs.UnderFileSystem;
import alluxio.wire.FileInfo;
import io.eccache.common.UnderStorePaths;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The objects' copies in the under store: publishing a staged write under its key's name, and
 * deleting a key's copies. The caller holds the key's lock and runs as the master
 * ({@link MasterCalls#asMaster}), so a publish and a delete of one key never interleave.
 */
final class UnderStoreCopies {
  private static final Logger LOG = LoggerFactory.getLogger(UnderStoreCopies.class);

  private final FileSystemMaster fs;
  /** Alluxio's mount table, to ask the under store directly; null on another master class. */
  private final MountTable mounts;
  private final UnderStorePaths paths;

  UnderStoreCopies(FileSystemMaster fs, UnderStorePaths paths) {
    this.fs = fs;
    this.mounts = fs instanceof DefaultFileSystemMaster
        ? ((DefaultFileSystemMaster) fs).getMountTable() : null;
    this.paths = paths;
  }

  UnderStorePaths paths() {
    return paths;
  }

  /**
   * Moves the staged copy of write {@code writeId} to {@code key}'s name, replacing what was there,
   * and returns the published file (its id is what readers check before falling back to it).
   *
   * @throws FailedPreconditionException if the staged copy is missing, incomplete or not
   *     {@code size} bytes
   */
  FileInfo publish(String key, String writeId, long size) throws IOException, AlluxioException {
    AlluxioURI staged = new AlluxioURI(paths.stagingPath(writeId));
    FileInfo info;
    try {
      info = fs.getFileInfo(staged, loadOnce());
    } catch (FileDoesNotExistException e) {
      throw new FailedPreconditionException("the under-store copy of write " + writeId + " of '"
          + key + "' is missing (" + staged + "): PUT the object again");
    }
    if (!info.isCompleted() || !info.isPersisted() || info.getLength() != size) {
      throw new FailedPreconditionException("the under-store copy of write " + writeId + " of '"
          + key + "' is incomplete (" + info.getLength() + " of " + size + " bytes"
          + (info.isPersisted() ? "" : ", not persisted") + "): PUT the object again");
    }
    AlluxioURI target = new AlluxioURI(paths.objectPath(key));
    // Alluxio's rename does not replace: the old copy steps aside, and comes back if the new one
    // cannot take its name, so a failed commit leaves S3 as it was.
    AlluxioURI aside = new AlluxioURI(paths.stagingPath(writeId + "-replaced"));
    boolean replacing = exists(target);
    if (replacing) {
      deleteIfPresent(aside);
      rename(target, aside);
    }
    try {
      rename(staged, target);
    } catch (IOException | AlluxioException | RuntimeException e) {
      if (replacing) {
        try {
          rename(aside, target);
        } catch (IOException | AlluxioException | RuntimeException restoring) {
          e.addSuppressed(restoring);
        }
      }
      throw e;
    }
    if (replacing) {
      deleteIfPresent(aside);
    }
    return fs.getFileInfo(target, loadOnce());
  }

  private void rename(AlluxioURI from, AlluxioURI to) throws IOException, AlluxioException {
    fs.rename(from, to, RenameContext.mergeFrom(RenamePOptions.newBuilder()));
  }

  private boolean exists(AlluxioURI path) throws IOException, AlluxioException {
    try {
      return !fs.getFileInfo(path, loadOnce()).isFolder();
    } catch (FileDoesNotExistException e) {
      return false;
    }
  }

  /**
   * Whether the under store holds a copy of {@code key} (its own path or a foreign plain path).
   * Needs no lock: a PUT asks it ahead of its commit (see {@code WriteSessions}). A path Alluxio
   * knows is answered from its namespace; for any other the under store is asked once, directly
   * (one HEAD in S3). Not through Alluxio's metadata load: that lists the parent directory too and
   * hands a missing path to Alluxio's absent-path cache, which asks S3 again (a HEAD and a listing)
   * on a thread of its own. That was a fixed cost of every PUT of a new key: without it a 1 MiB
   * PUT went from 0.73x to 0.86x of ten plain files' throughput (the data-path benchmark).
   */
  boolean anyCopy(String key) throws IOException, AlluxioException {
    String foreign = paths.foreignPath(key);
    return fileAnywhere(new AlluxioURI(paths.objectPath(key)))
        || (foreign != null && fileAnywhere(new AlluxioURI(foreign)));
  }

  /** Whether {@code path} is a file in Alluxio's namespace or in the under store it mounts. */
  private boolean fileAnywhere(AlluxioURI path) throws IOException, AlluxioException {
    if (mounts == null) {
      return exists(path);
    }
    if (fs.exists(path, noSyncExists())) {
      try {
        return !fs.getFileInfo(path, noSync()).isFolder();
      } catch (FileDoesNotExistException e) {
        return false; // removed since
      }
    }
    MountTable.Resolution resolution = mounts.resolve(path);
    try (CloseableResource<UnderFileSystem> ufs = resolution.acquireUfsResource()) {
      return ufs.get().isFile(resolution.getUri().toString());
    }
  }

  /**
   * Brings the file at {@code path} into Alluxio's namespace when only the under store holds it
   * (another tool put it there), so its permissions are Alluxio's to check. With S3 out of reach
   * nothing is loaded (and nothing there can be removed either). Call as the master.
   */
  Void loadIfOnlyInUnderStore(String path) throws AlluxioException {
    AlluxioURI uri = new AlluxioURI(path);
    try {
      if (mounts != null && !fs.exists(uri, noSyncExists()) && fileAnywhere(uri)) {
        fs.getFileInfo(uri, loadAlways());
      }
    } catch (FileDoesNotExistException removedSince) {
      // nothing to load
    } catch (IOException | RuntimeException unreachable) {
      // S3's client throws unchecked exceptions too (the AWS SDK's)
      LOG.debug("eccache: could not look for {} in the under store: {}", path,
          unreachable.toString());
    }
    return null;
  }

  /** Removes {@code key}'s copies from the under store (its own and a foreign plain path). */
  boolean delete(String key) throws IOException, AlluxioException {
    boolean existed = deleteIfPresent(new AlluxioURI(paths.objectPath(key)));
    String foreign = paths.foreignPath(key);
    if (foreign != null) {
      existed |= deleteIfPresent(new AlluxioURI(foreign));
    }
    return existed;
  }

  /**
   * Removes {@code key}'s stale copies (as {@link #delete(String)}); a failure is logged: a reader
   * never falls back to a copy that is not its version's, and the next write retries.
   */
  void deleteQuietly(String key) {
    try {
      delete(key);
    } catch (IOException | AlluxioException | RuntimeException e) {
      LOG.warn("eccache: could not remove the stale under-store copies of '{}': {}", key,
          e.toString());
    }
  }

  /** Removes an abandoned staged file, in Alluxio and in the under store. */
  void deleteStaged(String path) throws IOException, AlluxioException {
    deleteIfPresent(new AlluxioURI(path));
  }

  /**
   * Deletes the file at {@code path} in Alluxio and the under store, if either holds one. Looked
   * for as {@link #anyCopy} does, not through Alluxio's metadata load: that remembers a missing
   * path as absent (and logs a warning for it), and a later delete would then miss an object
   * another tool put there since (DataSafetyTest).
   */
  private boolean deleteIfPresent(AlluxioURI path) throws IOException, AlluxioException {
    if (!fileAnywhere(path)) {
      return false; // none, or a directory of another tool's objects: not a key's copy
    }
    FileInfo info;
    try {
      info = fs.getFileInfo(path, loadAlways());
    } catch (FileDoesNotExistException e) {
      return false; // removed since
    }
    if (info.isFolder()) {
      return false;
    }
    fs.delete(path, everywhere());
    return true;
  }
}
