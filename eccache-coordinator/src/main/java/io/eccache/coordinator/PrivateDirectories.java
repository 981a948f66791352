package io.eccache.coordinator;

import alluxio.exception.AlluxioException;
import alluxio.wire.FileInfo;
import io.eccache.common.ObjectPaths;
import io.eccache.common.UnderStorePaths;
import io.eccache.coordinator.form.NamespacePort;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * eccache's own directories, private to it (docs/security.md): owned by the master, and closed to
 * listing, so no user finds other users' splits or staged copies through the plain Alluxio API.
 *
 * <ul>
 *   <li>{@code <root>} and {@code <root>/objects}: mode 711, so a writer may reach the split files
 *       it owns, and no one may list the keys.</li>
 *   <li>An object's directory: the master's, 711, so no one lists the ids of its writes. A new
 *       one is made as a missing parent of its first write's directory and closed in the same
 *       round as the split files are made ({@link #closeObjectDirectory}).</li>
 *   <li>A write's directory ({@link #createWriteDirectory}): its writer's, 700, holding the split
 *       files, also its writer's (600, made by {@code WriteSessions}). Alluxio 2.9 checks no
 *       read permission when a client opens a file, only execute on the directories on its way,
 *       so this directory is what keeps the splits from other users of the plain API. Readers of
 *       the key never need it: Lookup gives them the blocks, after the key's own check.</li>
 *   <li>{@code <root>/retired}: 700, the master's alone.</li>
 *   <li>The staging directory under the under-store prefix: 733, so any writer may create its
 *       staged copy there (a file named by its write's id, owner-only unless it is the key's own
 *       plain file) and no one may list the others'.</li>
 * </ul>
 *
 * <p>Ensured when the coordinator starts as primary and, should that fail, again before each
 * write until it succeeds once (the staging directory, in S3, at most once a minute).
 */
final class PrivateDirectories {
  private static final Logger LOG = LoggerFactory.getLogger(PrivateDirectories.class);
  private static final short TRAVERSE_ONLY = 0711;
  private static final short MASTER_ONLY = 0700;
  private static final short DROP_BOX = 0733;
  private static final long STAGING_RETRY_NS = 60_000_000_000L;

  private final NamespacePort ns;
  private final ObjectPaths paths;
  private final UnderStorePaths ufs;
  private volatile boolean ensured;
  private volatile boolean stagingEnsured;
  /** When the staging directory was last tried (System.nanoTime). */
  private final AtomicLong stagingTriedNs = new AtomicLong(System.nanoTime() - STAGING_RETRY_NS);

  PrivateDirectories(NamespacePort ns, ObjectPaths paths, UnderStorePaths ufs) {
    this.ns = ns;
    this.paths = paths;
    this.ufs = ufs;
  }

  /** As {@link #ensure()}; a failure is logged and left for the next write. */
  void ensureQuietly() {
    try {
      ensure();
    } catch (IOException | AlluxioException | RuntimeException e) {
      LOG.warn("eccache: could not set up its private directories yet ({}); the next PUT tries"
          + " again", e.toString());
    }
  }

  /**
   * Creates the directories as the master, with their modes, unless done already. The staging
   * directory is in S3: with S3 out of reach it is left for later (tried again at most once a
   * minute, so cache-only PUTs do not wait on S3), and only THROUGH and ASYNC PUTs need it.
   */
  void ensure() throws IOException, AlluxioException {
    if (!ensured) {
      synchronized (this) {
        if (!ensured) {
          directory(paths.rootDirectory(), TRAVERSE_ONLY, false);
          directory(paths.objectsDirectory(), TRAVERSE_ONLY, false);
          directory(paths.retiredDirectory(), MASTER_ONLY, false);
          ensured = true;
        }
      }
    }
    long now = System.nanoTime();
    long tried = stagingTriedNs.get();
    // One PUT at a time tries (bounded by the S3 client's own timeouts); the others go on.
    if (!stagingEnsured && now - tried >= STAGING_RETRY_NS
        && stagingTriedNs.compareAndSet(tried, now)) {
      try {
        directory(ufs.stagingDirectory(), DROP_BOX, true);
        stagingEnsured = true;
      } catch (IOException | AlluxioException | RuntimeException e) {
        LOG.warn("eccache: could not set up the staging directory {} in the under store"
            + " ({}); THROUGH and ASYNC PUTs of users other than the superuser fail until it"
            + " is, tried again in a minute", ufs.stagingDirectory(), e.toString());
      }
    }
  }

  /**
   * Creates the directory of a new write by {@code owner} (the master's when null), 700: only its
   * writer reaches the split files in it (Alluxio 2.9 checks no read permission when a client
   * opens a file, only the directories on its way). A missing object's directory is made with it.
   */
  void createWriteDirectory(String path, String owner, String group)
      throws IOException, AlluxioException {
    ns.createDirectory(path, NamespacePort.NewDirectory.ensured().exclusive().mode(MASTER_ONLY)
        .ownedBy(owner, group));
  }

  /**
   * Makes a new object's directory, made as a missing parent of its first write's (its writer's,
   * with Alluxio's default mode), the master's and closed to listing.
   */
  Void closeObjectDirectory(String path) throws IOException, AlluxioException {
    ns.setMode(path, TRAVERSE_ONLY, ns.masterUser());
    return null;
  }

  private void directory(String path, short mode, boolean throughToUnderStore)
      throws IOException, AlluxioException {
    NamespacePort.NewDirectory options = NamespacePort.NewDirectory.ensured().mode(mode);
    ns.createDirectory(path, throughToUnderStore ? options.throughToUnderStore() : options);
    FileInfo info = ns.status(path);
    if ((short) info.getMode() != mode) {
      ns.setMode(path, mode, null);
    }
  }
}
