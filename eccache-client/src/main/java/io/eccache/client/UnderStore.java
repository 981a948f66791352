package io.eccache.client;

import alluxio.AlluxioURI;
import alluxio.client.file.FileInStream;
import alluxio.client.file.FileOutStream;
import alluxio.client.file.FileSystem;
import alluxio.client.file.URIStatus;
import alluxio.exception.AccessControlException;
import alluxio.exception.AlluxioException;
import alluxio.exception.FileDoesNotExistException;
import alluxio.exception.status.AbortedException;
import alluxio.exception.status.AlluxioStatusException;
import alluxio.exception.status.NotFoundException;
import alluxio.exception.status.PermissionDeniedException;
import alluxio.exception.status.UnavailableException;
import alluxio.grpc.CreateFilePOptions;
import alluxio.grpc.ExistsPOptions;
import alluxio.grpc.FileSystemMasterCommonPOptions;
import alluxio.grpc.GetStatusPOptions;
import alluxio.grpc.LoadMetadataPType;
import alluxio.grpc.OpenFilePOptions;
import alluxio.grpc.ReadPType;
import alluxio.grpc.WritePType;
import alluxio.security.authorization.Mode;
import io.eccache.common.UnderStorePaths;
import io.eccache.common.proto.Layout;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;

/**
 * The client's side of the under store (S3, through Alluxio's namespace): staging a THROUGH or
 * ASYNC write, finding a key's copy for read-through (eccache's own name, then another tool's plain
 * path), and opening exactly one version's copy for a fallback. Where names are:
 * {@link UnderStorePaths}.
 */
final class UnderStore {
  private static final short OWNER_ONLY = 0600;
  private final ClientContext context;
  private final FileSystem fs;
  private final UnderStorePaths paths;

  UnderStore(ClientContext context) {
    this.context = context;
    this.fs = context.fs();
    this.paths = context.underStorePaths();
  }

  UnderStorePaths paths() {
    return paths;
  }

  /** Opens the staging file a THROUGH or ASYNC write fills; the commit publishes it. */
  FileOutStream openForWrite(String key, String stagingPath)
      throws IOException {
    AlluxioURI path = new AlluxioURI(stagingPath);
    try {
      CreateFilePOptions.Builder options = CreateFilePOptions.newBuilder()
          .setWriteType(WritePType.THROUGH).setRecursive(true).setOverwrite(true);
      if (!paths.governingPath(key).equals(paths.objectPath(key))) {
        // Published under a name that does not govern the key (an escaped one, not its plain
        // path): its permissions are not the key's, so it is its writer's alone
        // (docs/security.md). A copy at the governing path keeps the writer's umask.
        options.setMode(new Mode(OWNER_ONLY).toProto());
      }
      return fs.createFile(path, options.build());
    } catch (AccessControlException e) {
      throw new PermissionDeniedException("cannot stage '" + key + "' in the under store ("
          + path + "): " + e.getMessage(), e);
    } catch (AlluxioException e) {
      throw new IOException("cannot write '" + key + "' to the under store (" + path + "): "
          + e.getMessage() + "; check that S3 is reachable, or PUT with CACHE_ONLY", e);
    }
  }

  /** Drops a staged under-store copy that will not be committed (the coordinator sweeps leftovers). */
  void cancelQuietly(FileOutStream persist, String stagingPath) {
    try {
      persist.cancel();
    } catch (IOException | RuntimeException ignored) {
      // already failing
    }
    try {
      fs.delete(new AlluxioURI(stagingPath));
    } catch (IOException | AlluxioException | RuntimeException ignored) {
      // not there, or S3 is down: the coordinator's sweep removes it later
    }
  }

  /** An object's file in the under store, open, and which file it is. */
  static final class UnderStoreFile {
    final String path;
    final long fileId;
    final long length;
    final InputStream in;

    UnderStoreFile(String path, long fileId, long length, InputStream in) {
      this.path = path;
      this.fileId = fileId;
      this.length = length;
      this.in = in;
    }
  }

  /**
   * Opens {@code key}'s copy in the under store: eccache's own name first, then the name a long
   * key's copy had before names were hashed, then the plain path another tool would have used
   * (see {@link UnderStorePaths}). When there is none, throws {@code cacheError} (why the cache
   * could not serve it) or a NotFoundException.
   */
  UnderStoreFile find(String key, AlluxioStatusException cacheError)
      throws IOException {
    for (String path : paths.copyPaths(key)) {
      // S3 is the source of truth here: look at what it holds now, not at what Alluxio last saw.
      UnderStoreFile file = open(key, path, FRESH);
      if (file != null) {
        return file;
      }
    }
    if (cacheError != null) {
      throw cacheError;
    }
    throw new NotFoundException("no object '" + key + "' in eccache or the under store ("
        + String.join(", ", paths.copyPaths(key)) + ")");
  }

  /**
   * A status that looks in the under store when Alluxio has none (not trusting a cached absence),
   * so an object another tool just wrote is found.
   */
  private static final GetStatusPOptions FRESH = GetStatusPOptions.newBuilder()
      .setLoadMetadataType(LoadMetadataPType.ALWAYS).build();

  /**
   * The file at {@code path} if it is a complete object file; null if there is none. A path with
   * a name longer than any file name ({@link UnderStorePaths#beyondFileNames}) that the under
   * store fails to answer for, and that Alluxio's namespace does not hold, is none: an S3 server
   * keeping objects as files fails every request for such a name (s3proxy answers 500), and
   * cannot hold it.
   */
  private UnderStoreFile open(String key, String path, GetStatusPOptions options)
      throws IOException {
    AlluxioURI uri = new AlluxioURI(path);
    try {
      URIStatus status;
      try {
        status = fs.getStatus(uri, options);
      } catch (AlluxioException | AlluxioStatusException e) {
        if (!(e instanceof FileDoesNotExistException || e instanceof NotFoundException
            || e instanceof AccessControlException || e instanceof PermissionDeniedException)
            && UnderStorePaths.beyondFileNames(path) && !inAlluxio(uri)) {
          return null;
        }
        throw e;
      }
      if (status.isFolder() || !status.isCompleted()) {
        return null; // a directory of other objects, or a write still going on
      }
      FileInStream in = context.underStoreReads().openFile(status,
          OpenFilePOptions.newBuilder().setReadType(ReadPType.NO_CACHE).build());
      return new UnderStoreFile(path, status.getFileId(), status.getLength(),
          new CopyStream(in, key, uri, status.getFileId()));
    } catch (FileDoesNotExistException | NotFoundException missing) {
      return null;
    } catch (AccessControlException | PermissionDeniedException e) {
      throw new PermissionDeniedException("reading '" + key + "' from the under store (" + path
          + ") is not allowed: " + e.getMessage(), e);
    } catch (AlluxioException | AlluxioStatusException e) {
      throw new UnavailableException("reading '" + key + "' from the under store (" + path
          + ") failed: " + e.getMessage() + "; check that S3 is reachable", e);
    }
  }

  /** Whether Alluxio's namespace holds {@code uri} (not asking the under store); true if unsure. */
  private boolean inAlluxio(AlluxioURI uri) {
    try {
      return fs.exists(uri, ExistsPOptions.newBuilder()
          .setLoadMetadataType(LoadMetadataPType.NEVER)
          .setCommonOptions(FileSystemMasterCommonPOptions.newBuilder().setSyncIntervalMs(-1))
          .build());
    } catch (AlluxioException | IOException | RuntimeException e) {
      return true;
    }
  }

  /**
   * Opens the under store's copy of exactly the version {@code layout} describes, at
   * {@code position}.
   *
   * @throws AbortedException if the under store no longer holds that version (it was replaced or
   *     deleted meanwhile): GET the object again
   */
  InputStream openSameVersion(Layout layout, long position) throws IOException {
    UnderStoreFile file = layout.getUfsPath().isEmpty() ? null
        : open(layout.getKey(), layout.getUfsPath(),
            GetStatusPOptions.getDefaultInstance());
    if (file == null || file.fileId != layout.getUfsFileId()
        || file.length != layout.getObjectSize()) {
      if (file != null) {
        file.in.close();
      }
      throw new AbortedException("version " + layout.getWriteId() + " of '" + layout.getKey()
          + "' can no longer be read: its splits are gone and the under store holds "
          + (file == null ? "no copy" : "another version") + " now (it was replaced or deleted"
          + " meanwhile); GET it again");
    }
    if (position > 0) {
      ((CopyStream) file.in).seek(position);
    }
    return file.in;
  }

  /**
   * An under-store copy being read, checked to still be the version opened. Alluxio reads a copy
   * through the file's status taken at open, but the worker reads whatever S3 holds under that
   * name when it gets there: once a newer version is published under the key's name, a read of the
   * older status returns the newer version's bytes, cut to the older one's length (the
   * consistency checker read "v12 as 271,492 bytes", an exact prefix of v12's 307,884). So bytes
   * are handed out only after a read that brought them in is followed by the master still naming
   * this file under the key's name: small reads from a checked piece of at most {@value #PIECE}
   * bytes, a read of a piece or more straight into the caller's array, checked once after it. A
   * read that finds the file replaced or deleted fails with
   * {@link AbortedException}, retryable (the bytes read since the publish may be another
   * version's). A read that fails for another reason, the copy still the same, is tried again
   * (Alluxio's own retries are short, {@link ClientContext#underStoreReads}) until the I/O
   * timeout, then fails with {@link UnavailableException}.
   */
  final class CopyStream extends FilterInputStream {
    /** Largest piece read between two checks of the version; smaller reads are served from it. */
    static final int PIECE = 1 << 20;
    private final String key;
    private final AlluxioURI path;
    private final long fileId;
    private byte[] piece; // made for the first small read
    private int pieceAt;
    private int pieceEnd; // piece[pieceAt, pieceEnd) is read and checked, not yet handed out

    CopyStream(FileInStream in, String key, AlluxioURI path, long fileId) {
      super(in);
      this.key = key;
      this.path = path;
      this.fileId = fileId;
    }

    void seek(long position) throws IOException {
      pieceAt = pieceEnd = 0;
      try {
        ((FileInStream) in).seek(position);
      } catch (IOException | RuntimeException e) {
        throw typed(e);
      }
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (pieceAt == pieceEnd) {
        if (len >= PIECE) {
          return readChecked(b, off, len); // straight into the caller's array
        }
        if (piece == null) {
          piece = new byte[PIECE];
        }
        int n = readChecked(piece, 0, PIECE);
        if (n < 0) {
          return -1;
        }
        pieceAt = 0;
        pieceEnd = n;
      }
      int n = Math.min(len, pieceEnd - pieceAt);
      System.arraycopy(piece, pieceAt, b, off, n);
      pieceAt += n;
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long held = Math.min(Math.max(0, n), pieceEnd - pieceAt);
      pieceAt += (int) held;
      return held + (n > held ? in.skip(n - held) : 0);
    }

    @Override
    public int available() {
      return pieceEnd - pieceAt;
    }

    /** Reads as the copy's stream does, then checks the copy is still the version opened. */
    private int readChecked(byte[] b, int off, int len) throws IOException {
      int n = readRetrying(b, off, len);
      if (n > 0) {
        checkStillTheVersion();
      }
      return n;
    }

    private int readRetrying(byte[] b, int off, int len) throws IOException {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(context.ioTimeoutMs());
      long at = ((FileInStream) in).getPos();
      while (true) {
        try {
          return in.read(b, off, len);
        } catch (IOException e) {
          IOException failure = typed(e);
          if (failure instanceof AbortedException || System.nanoTime() - deadline >= 0
              || Thread.currentThread().isInterrupted()) {
            throw failure;
          }
          // The same version, still there: again (Alluxio's stream reopens the block), from
          // where this read began, since one that fails may have read part of it first.
          seek(at);
        } catch (RuntimeException e) {
          throw typed(e);
        }
      }
    }

    private void checkStillTheVersion() throws IOException {
      if (!stillTheVersion()) {
        throw replaced(null);
      }
    }

    /** Whether the master still names this file under its path; asks it once. */
    private boolean stillTheVersion() throws UnavailableException {
      try {
        return fs.getStatus(path).getFileId() == fileId;
      } catch (FileDoesNotExistException | NotFoundException gone) {
        return false;
      } catch (AlluxioException | IOException | RuntimeException e) {
        throw new UnavailableException("reading '" + key + "' from the under store (" + path
            + "): could not check that the copy is still the version read: " + e.getMessage()
            + "; check that the Alluxio master is reachable", e);
      }
    }

    private AbortedException replaced(Exception cause) {
      return new AbortedException("the under store's copy of '" + key + "' (" + path
          + ") was replaced or deleted while it was read; GET it again", cause);
    }

    private IOException typed(Exception e) {
      try {
        if (!stillTheVersion()) {
          return replaced(e);
        }
      } catch (UnavailableException unknown) {
        unknown.addSuppressed(e);
        return unknown;
      }
      return new UnavailableException("reading '" + key + "' from the under store (" + path
          + ") failed: " + e.getMessage() + "; check that S3 is reachable", e);
    }
  }
}
