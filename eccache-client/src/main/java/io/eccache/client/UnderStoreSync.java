package io.eccache.client;

import alluxio.client.file.FileOutStream;
import alluxio.exception.status.AlluxioStatusException;
import alluxio.exception.status.PermissionDeniedException;
import alluxio.exception.status.UnavailableException;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import java.io.IOException;
import java.io.InputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the cache and the under store (S3, the source of truth) in step, above the path-level
 * {@link UnderStore}: read-through of a key only in S3, the fallback of a read the cache cannot
 * finish (to the S3 file of exactly the version it looked up, never a newer one), re-caching after
 * either, the second half of an ASYNC PUT, and the maintainer's re-caching and rewriting.
 *
 * <p>The re-caching policy, in one place ({@link #recache(String, UnderStore.UnderStoreFile,
 * PutOptions, String, byte[])}): after a read served bytes from S3 the object is stored again,
 * from the bytes themselves when the reader holds the whole object (a GET into an array: no second
 * S3 read, and the next GET finds it cached), else in the background from S3. A re-cache of a
 * version commits only while the key still holds that version, so a user's PUT or delete meanwhile
 * wins.
 */
final class UnderStoreSync {
  private static final Logger LOG = LoggerFactory.getLogger(UnderStoreSync.class);

  private final ClientContext context;
  private final LateBindingReader reader;
  private final ObjectWriter writer;
  private final UnderStore underStore;

  UnderStoreSync(ClientContext context, LateBindingReader reader, ObjectWriter writer) {
    this.context = context;
    this.reader = reader;
    this.writer = writer;
    this.underStore = new UnderStore(context);
  }

  /**
   * A key the cache does not hold, read from S3 (eccache's name for it, or another tool's plain
   * path) and cached again as the coordinator decides.
   *
   * @throws AlluxioStatusException {@code notCached}, when S3 does not hold it either
   */
  ObjectReadStream readThrough(String key, AlluxioStatusException notCached) throws IOException {
    UnderStore.UnderStoreFile file = underStore.find(key, notCached);
    ObjectReadStream.UnderStoreCopy copy = new ObjectReadStream.UnderStoreCopy() {
      @Override
      public InputStream openAt(long position, IOException cause) throws IOException {
        throw cause; // the stream starts in the under store and never leaves it
      }

      @Override
      public void recache(byte[] whole) {
        UnderStoreSync.this.recache(key, file, PutOptions.defaults(), "", whole);
      }
    };
    return ObjectReadStream.fromUnderStore(context, key, file.length, file.in, copy);
  }

  /**
   * Where a read of the version {@code layout} describes finishes when the cache cannot serve it:
   * that version's own S3 file while S3 still holds it; none when it was never persisted.
   */
  ObjectReadStream.UnderStoreCopy copyOf(Layout layout) {
    UnderStore.UnderStoreFile version = layout.getPersisted() && !layout.getUfsPath().isEmpty()
        ? new UnderStore.UnderStoreFile(layout.getUfsPath(), layout.getUfsFileId(),
            layout.getObjectSize(), null)
        : null;
    return new ObjectReadStream.UnderStoreCopy() {
      @Override
      public InputStream openAt(long position, IOException cause) throws IOException {
        if (!layout.getPersisted()) {
          if (cause instanceof UnavailableException) {
            // S3 may hold an older version (or none): serving it would return the wrong bytes.
            throw new UnavailableException(cause.getMessage() + ", and S3 has no copy of this"
                + " version; PUT the object again (WriteMode.THROUGH keeps one in S3)", cause);
          }
          throw cause;
        }
        return underStore.openSameVersion(layout, position);
      }

      @Override
      public void recache(byte[] whole) {
        UnderStoreSync.this.recache(layout.getKey(), version, sameShape(layout),
            layout.getWriteId(), whole);
      }
    };
  }

  /**
   * The re-caching policy: stores {@code key} again as {@code shape} if it still holds write
   * {@code replaces} ("" for none) at the commit; from {@code whole} (the bytes of {@code file}) in
   * this thread, or, when null, from S3 in the background. Failures are logged: the read that
   * called it has its bytes already.
   */
  private void recache(String key, UnderStore.UnderStoreFile file, PutOptions shape,
      String replaces, byte[] whole) {
    if (whole != null && file != null && whole.length == file.length) {
      try {
        writer.put(key, ByteSource.of(whole), whole.length, shape, file, replaces);
      } catch (PermissionDeniedException readerOnly) {
        notCachedByReader(key, readerOnly);
      } catch (IOException | RuntimeException e) {
        LOG.warn("eccache: '{}' was read from the under store but could not be cached again: {}",
            key, e.toString());
      }
      return;
    }
    context.background().submit(() -> {
      try {
        recache(key, shape, replaces);
      } catch (PermissionDeniedException readerOnly) {
        notCachedByReader(key, readerOnly);
      } catch (IOException | RuntimeException e) {
        LOG.warn("eccache: could not cache '{}' again from the under store: {}", key,
            e.toString());
      }
      return null;
    });
  }

  /**
   * Caching a key again is a PUT of it (its splits are the writer's bytes, which no one checks
   * against S3's): a reader who may not write the key reads it from S3 each time, as is expected
   * of it, so this is no warning.
   */
  private static void notCachedByReader(String key, PermissionDeniedException e) {
    LOG.debug("eccache: '{}' is read from the under store and not cached again: this user may"
        + " read it but not write it ({})", key, e.getMessage());
  }

  /**
   * Stores the object again from the under store, as {@code shape}, in the calling thread, if the
   * key still holds write {@code replaces} ("" for none) when it commits.
   */
  void recache(String key, PutOptions shape, String replaces) throws IOException {
    UnderStore.UnderStoreFile file = underStore.find(key, null);
    try (InputStream in = file.in) {
      writer.put(key, ByteSource.of(in), file.length, shape, file, replaces);
    }
  }

  /** Rewrites a cached object from its current splits as {@code shape} (keeps its S3 status). */
  void rewrite(LookupResponse lookup, PutOptions shape) throws IOException {
    Layout layout = lookup.getLayout();
    try (InputStream in = fromCache(lookup)) {
      writer.put(layout.getKey(), ByteSource.of(in), layout.getObjectSize(), shape,
          layout.getPersisted() && !layout.getUfsPath().isEmpty()
              ? new UnderStore.UnderStoreFile(layout.getUfsPath(), layout.getUfsFileId(),
                  layout.getObjectSize(), null)
              : null, layout.getWriteId());
    }
  }

  /** An ASYNC PUT's second half, in the background: copies the committed write to S3. */
  void persistLater(String key, AllocateResponse allocation) {
    String writeId = allocation.getLayout().getWriteId();
    String staging = allocation.getStagingPath();
    context.background().submit(() -> persistFromCache(key, writeId, staging));
  }

  /** Copies the committed write {@code writeId} of {@code key} to the under store, then says so. */
  private Void persistFromCache(String key, String writeId, String stagingPath) {
    try {
      LookupResponse lookup = context.coordinator().lookup(key, true);
      if (!lookup.getLayout().getWriteId().equals(writeId)) {
        return null; // replaced meanwhile; the newer PUT persists its own bytes
      }
      FileOutStream out = underStore.openForWrite(key, stagingPath);
      try (InputStream in = fromCache(lookup)) {
        in.transferTo(out);
        out.close();
      } catch (IOException | RuntimeException e) {
        underStore.cancelQuietly(out, stagingPath);
        throw e;
      }
      context.coordinator().markPersisted(key, writeId);
    } catch (IOException | RuntimeException e) {
      LOG.warn("eccache: persisting '{}' to the under store failed; it is cached only: {}", key,
          e.toString());
    }
    return null;
  }

  /** The cached version {@code lookup} names, for eccache's own reads: no fallback to S3. */
  private ObjectReadStream fromCache(LookupResponse lookup) {
    return ObjectReadStream.cached(context, reader, lookup, 1, ObjectReadStream.NO_COPY);
  }

  /**
   * Options that store an object again as {@code layout} does: a tuned object keeps the redundancy
   * its popularity earned and stays tuned (the defaults would drop it to the base until the next
   * retuning pass, or for good while retuning is paused), a fixed one its scheme.
   */
  static PutOptions sameShape(Layout layout) {
    RedundancyScheme scheme = SchemeProtos.of(layout);
    return layout.getTuned() ? PutOptions.tuned(scheme) : PutOptions.scheme(scheme);
  }
}
