package io.eccache.coordinator;

import alluxio.exception.AlluxioException;
import alluxio.exception.FileDoesNotExistException;
import alluxio.exception.status.FailedPreconditionException;
import alluxio.wire.FileInfo;
import io.eccache.common.UnderStorePaths;
import io.eccache.coordinator.form.NamespacePort;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The objects' copies in the under store: publishing a staged write under its key's name, and
 * deleting a key's copies. The caller holds the key's lock, so a publish and a delete of one key
 * never interleave.
 */
final class UnderStoreCopies {
  private static final Logger LOG = LoggerFactory.getLogger(UnderStoreCopies.class);

  private final NamespacePort ns;
  private final UnderStorePaths paths;

  UnderStoreCopies(NamespacePort ns, UnderStorePaths paths) {
    this.ns = ns;
    this.paths = paths;
  }

  UnderStorePaths paths() {
    return paths;
  }

  /**
   * Moves the staged copy of write {@code writeId} to {@code key}'s name, replacing what was there
   * (and the key's copy under its name from before names were hashed, when Alluxio holds it), and
   * returns the published file (its id is what readers check before falling back to it).
   *
   * @throws FailedPreconditionException if the staged copy is missing, incomplete or not
   *     {@code size} bytes
   */
  FileInfo publish(String key, String writeId, long size) throws IOException, AlluxioException {
    String staged = paths.stagingPath(writeId);
    FileInfo info;
    try {
      info = ns.status(staged, NamespacePort.Load.ONCE);
    } catch (FileDoesNotExistException e) {
      throw new FailedPreconditionException("the under-store copy of write " + writeId + " of '"
          + key + "' is missing (" + staged + "): PUT the object again");
    }
    if (!info.isCompleted() || !info.isPersisted() || info.getLength() != size) {
      throw new FailedPreconditionException("the under-store copy of write " + writeId + " of '"
          + key + "' is incomplete (" + info.getLength() + " of " + size + " bytes"
          + (info.isPersisted() ? "" : ", not persisted") + "): PUT the object again");
    }
    String target = paths.objectPath(key);
    // Alluxio's rename does not replace: the old copy steps aside, and comes back if the new one
    // cannot take its name, so a failed commit leaves S3 as it was.
    String aside = paths.stagingPath(writeId + "-replaced");
    boolean replacing = exists(target);
    if (replacing) {
      deleteIfPresent(aside);
      ns.rename(target, aside);
    }
    try {
      ns.rename(staged, target);
    } catch (IOException | AlluxioException | RuntimeException e) {
      if (replacing) {
        try {
          ns.rename(aside, target);
        } catch (IOException | AlluxioException | RuntimeException restoring) {
          e.addSuppressed(restoring);
        }
      }
      throw e;
    }
    if (replacing) {
      deleteIfPresent(aside);
    }
    String legacy = paths.legacyPath(key);
    if (legacy != null && !legacy.equals(paths.foreignPath(key))) {
      // The key's copy from before names were hashed is this version's predecessor: S3 keeps
      // one copy per key. Looked for in Alluxio's namespace only, which holds every copy this
      // cluster published (asking S3 costs a failed request, retried, on servers that cannot
      // hold the name); one it never saw is never read (this name is looked for first) and a
      // delete removes it. (A long plain key's old name is its plain path too, which another
      // tool may have written: left alone, as any plain path is.)
      try {
        if (ns.exists(legacy)) {
          deleteIfPresent(legacy);
        }
      } catch (IOException | AlluxioException | RuntimeException e) {
        LOG.warn("eccache: could not remove the replaced under-store copy {} of '{}': {}", legacy,
            key, e.toString());
      }
    }
    return ns.status(target, NamespacePort.Load.ONCE);
  }

  /**
   * Whether a file is at {@code path}, in Alluxio or the under store. A name longer than any file
   * name ({@link UnderStorePaths#beyondFileNames}) that the under store fails to answer for, and
   * that Alluxio's namespace does not hold, is no file: an S3 server keeping objects as files
   * fails every request for such a name (s3proxy answers 500), and cannot hold it.
   */
  private boolean isFile(String path) throws IOException, AlluxioException {
    try {
      return ns.isFileAnywhere(path);
    } catch (IOException | RuntimeException e) {
      if (!UnderStorePaths.beyondFileNames(path) || ns.exists(path)) {
        throw e;
      }
      LOG.debug("eccache: the under store cannot answer for {}, a name no file system holds;"
          + " taken as absent: {}", path, e.toString());
      return false;
    }
  }

  private boolean exists(String path) throws IOException, AlluxioException {
    try {
      return !ns.status(path, NamespacePort.Load.ONCE).isFolder();
    } catch (FileDoesNotExistException e) {
      return false;
    }
  }

  /**
   * Whether the under store holds a copy of {@code key} (under any of its names, see
   * {@link #delete(String)}).
   * Needs no lock: a PUT asks it ahead of its commit (see {@code WriteSessions}). A path Alluxio
   * knows is answered from its namespace; for any other the under store is asked once, directly
   * (one HEAD in S3). Not through Alluxio's metadata load: that lists the parent directory too and
   * hands a missing path to Alluxio's absent-path cache, which asks S3 again (a HEAD and a listing)
   * on a thread of its own. That was a fixed cost of every PUT of a new key: without it a 1 MiB
   * PUT went from 0.73x to 0.86x of ten plain files' throughput (the data-path benchmark).
   */
  boolean anyCopy(String key) throws IOException, AlluxioException {
    for (String path : paths.copyPaths(key)) {
      if (isFile(path)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Brings the file at {@code path} into Alluxio's namespace when only the under store holds it
   * (another tool put it there), so its permissions are Alluxio's to check. With S3 out of reach
   * nothing is loaded (and nothing there can be removed either).
   */
  Void loadIfOnlyInUnderStore(String path) throws AlluxioException {
    try {
      if (!ns.exists(path) && ns.isFileAnywhere(path)) {
        ns.status(path, NamespacePort.Load.ALWAYS);
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

  /**
   * Removes {@code key}'s copies from the under store (its own name, its name from before names
   * were hashed, a foreign plain path).
   */
  boolean delete(String key) throws IOException, AlluxioException {
    boolean existed = false;
    for (String path : paths.copyPaths(key)) {
      existed |= deleteIfPresent(path);
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
    deleteIfPresent(path);
  }

  /**
   * Deletes the file at {@code path} in Alluxio and the under store, if either holds one. Looked
   * for as {@link #anyCopy} does, not through Alluxio's metadata load: that remembers a missing
   * path as absent (and logs a warning for it), and a later delete would then miss an object
   * another tool put there since (DataSafetyTest).
   */
  private boolean deleteIfPresent(String path) throws IOException, AlluxioException {
    if (!isFile(path)) {
      return false; // none, or a directory of another tool's objects: not a key's copy
    }
    FileInfo info;
    try {
      info = ns.status(path, NamespacePort.Load.ALWAYS);
    } catch (FileDoesNotExistException e) {
      return false; // removed since
    }
    if (info.isFolder()) {
      return false;
    }
    ns.delete(path, NamespacePort.Removal.EVERYWHERE);
    return true;
  }
}
