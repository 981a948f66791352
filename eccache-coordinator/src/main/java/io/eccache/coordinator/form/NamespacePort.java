package io.eccache.coordinator.form;

import alluxio.exception.AlluxioException;
import alluxio.exception.DirectoryNotEmptyException;
import alluxio.exception.FileDoesNotExistException;
import alluxio.wire.FileInfo;
import java.io.IOException;
import java.util.List;

/**
 * Everything the coordinator keeps or changes in Alluxio's namespace, as the master's own user:
 * object and write directories, split files, layout xattrs, retiring by rename, removal, and the
 * under store behind the namespace. A port, so the rules built on it (versions, commits, the sweep)
 * have unit tests over an in-memory namespace; the coordinator's {@code AlluxioNamespace} is the
 * FileSystemMaster.
 *
 * <p>Paths are Alluxio paths. Unless a method says otherwise nothing asks the under store:
 * eccache's own directories live only in Alluxio.
 */
public interface NamespacePort {
  /** How far a status call may look into the under store for a path Alluxio does not hold. */
  enum Load {
    /** Alluxio's namespace only. */
    NEVER,
    /** The under store once, when Alluxio has not looked before. */
    ONCE,
    /** The under store even where Alluxio remembers the path as absent. */
    ALWAYS
  }

  /** What a removal reaches. */
  enum Removal {
    /** The path and all below it, in Alluxio only (the under store keeps its copy). */
    ALLUXIO_ONLY,
    /**
     * The directory in Alluxio only, if it is empty, checked by Alluxio under the lock it deletes
     * with ({@link DirectoryNotEmptyException} otherwise).
     */
    ALLUXIO_ONLY_IF_EMPTY,
    /** The file in Alluxio and in the under store. */
    EVERYWHERE
  }

  /** Whether {@code path} is in Alluxio's namespace (never asking the under store). */
  boolean exists(String path) throws IOException, AlluxioException;

  /** The status of {@code path}, from Alluxio's namespace only. */
  default FileInfo status(String path) throws IOException, AlluxioException {
    return status(path, Load.NEVER);
  }

  /**
   * The status of {@code path}.
   *
   * @throws FileDoesNotExistException when there is none
   */
  FileInfo status(String path, Load load) throws IOException, AlluxioException;

  /**
   * The children of directory {@code dir}.
   *
   * @throws FileDoesNotExistException when there is no such directory
   */
  List<FileInfo> list(String dir, Load load) throws IOException, AlluxioException;

  /** Sets xattr {@code name} of {@code path} to {@code value}, keeping its other xattrs. */
  void putXattr(String path, String name, byte[] value) throws IOException, AlluxioException;

  /** Removes xattr {@code name} of {@code path}. */
  void removeXattr(String path, String name) throws IOException, AlluxioException;

  /**
   * Creates directory {@code path}, in Alluxio only unless
   * {@link NewDirectory#throughToUnderStore}.
   */
  void createDirectory(String path, NewDirectory options) throws IOException, AlluxioException;

  /**
   * Creates an empty split file at {@code path}, its parents as needed: cached only, one copy,
   * one block of {@link NewFile#blockSizeBytes}, to be written by its owner.
   */
  FileInfo createFile(String path, NewFile options) throws IOException, AlluxioException;

  /** Sets {@code path}'s mode, and its owner unless {@code owner} is null. */
  void setMode(String path, short mode, String owner) throws IOException, AlluxioException;

  /** Renames {@code from} to {@code to}; in the under store too where it is persisted. */
  void rename(String from, String to) throws IOException, AlluxioException;

  /** Removes {@code path} as {@code how} says. */
  void delete(String path, Removal how) throws IOException, AlluxioException;

  /** Frees {@code path}'s blocks from the workers; the under store keeps it. */
  void free(String path) throws IOException, AlluxioException;

  /**
   * Whether {@code path} is a file in Alluxio's namespace or in the under store mounted there. A
   * path Alluxio does not hold is looked up in the under store directly (one HEAD in S3), never
   * through Alluxio's metadata load, which lists its parent and remembers a miss.
   */
  boolean isFileAnywhere(String path) throws IOException, AlluxioException;

  /** The master's own user, to own eccache's directories; null when security is off. */
  String masterUser();

  /** A directory to create: its mode, owner and where it lives. */
  final class NewDirectory {
    public final boolean recursive;
    public final boolean allowExists;
    /** -1: Alluxio's default mode. */
    public final short mode;
    /** Null: the master's. */
    public final String owner;
    public final String group;
    public final boolean throughToUnderStore;

    private NewDirectory(boolean recursive, boolean allowExists, short mode, String owner,
        String group, boolean throughToUnderStore) {
      this.recursive = recursive;
      this.allowExists = allowExists;
      this.mode = mode;
      this.owner = owner;
      this.group = group;
      this.throughToUnderStore = throughToUnderStore;
    }

    /** With its parents, fine if it exists, Alluxio's default mode, the master's, cache only. */
    public static NewDirectory ensured() {
      return new NewDirectory(true, true, (short) -1, null, null, false);
    }

    public NewDirectory mode(short newMode) {
      return new NewDirectory(recursive, allowExists, newMode, owner, group,
          throughToUnderStore);
    }

    /** Owned by {@code user} of {@code userGroup} (the master when {@code user} is null). */
    public NewDirectory ownedBy(String user, String userGroup) {
      return new NewDirectory(recursive, allowExists, mode, user, userGroup, throughToUnderStore);
    }

    /** Fails if it exists. */
    public NewDirectory exclusive() {
      return new NewDirectory(recursive, false, mode, owner, group, throughToUnderStore);
    }

    public NewDirectory throughToUnderStore() {
      return new NewDirectory(recursive, allowExists, mode, owner, group, true);
    }
  }

  /** Who a new file or directory belongs to: a user and group, or the master's own user. */
  final class Owner {
    /** The master's own user (Alluxio's superuser). */
    public static final Owner MASTER = new Owner(null, null);

    /** Null: the master's. */
    public final String user;
    public final String group;

    public Owner(String user, String group) {
      this.user = user;
      this.group = group;
    }
  }

  /** A split file to create. */
  final class NewFile {
    public final long blockSizeBytes;
    public final short mode;
    /** Null: the master's. */
    public final String owner;
    public final String group;
    /** Whether a file already at the path is replaced (else the creation fails). */
    public final boolean replaces;

    public NewFile(long blockSizeBytes, short mode, String owner, String group) {
      this(blockSizeBytes, mode, owner, group, false);
    }

    public NewFile(long blockSizeBytes, short mode, Owner owner) {
      this(blockSizeBytes, mode, owner.user, owner.group, false);
    }

    private NewFile(long blockSizeBytes, short mode, String owner, String group,
        boolean replaces) {
      this.blockSizeBytes = blockSizeBytes;
      this.mode = mode;
      this.owner = owner;
      this.group = group;
      this.replaces = replaces;
    }

    /** The same, replacing a file left at the path (by a write that never completed it). */
    public NewFile replacing() {
      return new NewFile(blockSizeBytes, mode, owner, group, true);
    }
  }
}
