package io.eccache.client;

import alluxio.client.file.FileSystemContext;
import alluxio.conf.AlluxioConfiguration;
import alluxio.exception.status.AlluxioStatusException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.NotFoundException;
import io.eccache.client.form.ClientForm;
import io.eccache.client.form.ClientForms;
import io.eccache.client.form.UpdatePhases;
import io.eccache.client.form.ValueReader;
import io.eccache.common.ObjectKeys;
import io.eccache.common.SchemeProtos;
import io.eccache.common.UnderStorePaths;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The eccache PUT/GET API, meant to be created once and shared for an application's lifetime (a
 * Spark executor, a service): it works through one {@link ClientContext} (the Alluxio
 * {@link FileSystemContext}, the coordinator client, the split I/O threads and buffers), which a
 * {@link RedundancyMaintainer} made from it shares. Thread-safe.
 *
 * <pre>{@code
 * try (EcCacheClient cache = EcCacheClient.create(Configuration.global())) {
 *   cache.put("tables/part-0001", bytes, PutOptions.code(10, 1));
 *   byte[] back = cache.get("tables/part-0001");
 * }
 * }</pre>
 *
 * <p>A PUT asks the coordinator once for a layout and one distinct worker per split, then streams:
 * stripe by stripe it encodes k data cells into r parity cells with the ISA-L coder and appends each
 * cell to its split file (pinned to its worker, cache only), and finally commits with a CRC32C per
 * cell; until the commit, readers see the previous version or nothing. Objects up to k cells
 * ({@code alluxio.master.eccache.cell.size}, 4 MB) are one stripe, each split a plain 1/k as in the paper.
 * A GET is one lookup (none while the client has the key's layout cached, for at most
 * {@code alluxio.user.eccache.layout.cache.ttl}: see {@link #get(String, int)}) and a
 * {@link LateBindingReader late-binding} parallel read, window by window
 * ({@link ObjectReadStream}), into an array ({@link #get(String)}) or as a stream
 * ({@link #openStream(String)}): one read path with one fallback to S3. S3 is the source of
 * truth: a GET of a key that is only in the under store (at {@code alluxio.eccache.ufs.prefix}/key),
 * or whose splits are too few to decode, reads the object from there and caches it again. Errors
 * are Alluxio's status exceptions: {@code NotFoundException} for a key in neither,
 * {@code FailedPreconditionException} when k + r exceeds the live workers,
 * {@code UnavailableException} when fewer than k splits can be read and S3 has no copy.
 */
public final class EcCacheClient implements AutoCloseable {
  /** The largest object {@link #get(String)} returns as an array; larger ones are streamed. */
  public static final int MAX_OBJECT_BYTES = Integer.MAX_VALUE - 8;

  private final ClientContext context;
  private final LateBindingReader reader;
  private final ObjectWriter writer;
  private final UnderStoreSync underStore;


  private EcCacheClient(ClientContext context) {
    this.context = context;
    this.reader = new LateBindingReader(context);
    this.writer = new ObjectWriter(context, new SplitRebuilder(context, reader));
    this.underStore = new UnderStoreSync(context, reader, writer);

  }

  /** A client with its own Alluxio context, from an Alluxio configuration (e.g. {@code Configuration.global()}). */
  public static EcCacheClient create(AlluxioConfiguration conf) {
    return new EcCacheClient(ClientContext.create(conf));
  }

  /** A client whose layout ages and read waits are measured on {@code ticker} (tests). */
  static EcCacheClient create(AlluxioConfiguration conf, com.google.common.base.Ticker ticker) {
    return new EcCacheClient(ClientContext.create(conf, ticker));
  }

  /** A client sharing an existing Alluxio context; closing the client leaves the context open. */
  public static EcCacheClient create(FileSystemContext context) {
    return new EcCacheClient(ClientContext.sharing(context));
  }

  /** Stores {@code data} under {@code key} with the coordinator's default code. */
  public void put(String key, byte[] data) throws IOException {
    put(key, data, PutOptions.defaults());
  }

  /**
   * Stores {@code data} under {@code key}, replacing any previous version atomically: until this
   * returns, readers see the previous version; if it throws, the previous version stays, in the
   * cache and in the under store.
   *
   * <p>A key is any well-formed Unicode string of 1 to 1024 bytes in UTF-8 (see
   * {@link ObjectKeys}); every character, '/' and '.' included, is just part of the key, so
   * {@code "a"}, {@code "a/b"} and {@code "./a"} are three objects. THROUGH and ASYNC writes put the
   * object in the under store at {@code <alluxio.eccache.ufs.prefix>/<encoded key>}, a long key's
   * name hashed to fit file-backed S3 servers (see {@link UnderStorePaths}).
   *
   * @throws alluxio.exception.status.FailedPreconditionException if k + r exceeds the live workers
   * @throws alluxio.exception.status.InvalidArgumentException for a bad key or code
   */
  public void put(String key, byte[] data, PutOptions options) throws IOException {
    if (data == null) {
      throw new IllegalArgumentException("data must not be null");
    }
    timedPut(key, ByteSource.of(data), data.length, options);
  }

  /**
   * Stores everything {@code in} yields under {@code key}, streaming: the object is encoded and
   * written stripe by stripe, so its size is not limited by memory. The stream is not closed.
   *
   * @param length the exact number of bytes {@code in} holds, or -1 when not known
   * @throws InvalidArgumentException if {@code in} holds more or fewer bytes than {@code length}
   */
  public void put(String key, InputStream in, long length, PutOptions options) throws IOException {
    if (in == null || length < -1) {
      throw new IllegalArgumentException("need a stream and a length >= 0 (or -1: unknown)");
    }
    timedPut(key, ByteSource.of(in), length, options);
  }

  /** Stores everything {@code in} yields under {@code key}, streaming; its length is not known. */
  public void put(String key, InputStream in, PutOptions options) throws IOException {
    put(key, in, -1, options);
  }

  /** A user's PUT: timed into the PUT latency metric (re-caching and maintenance are not). */
  private void timedPut(String key, ByteSource source, long length, PutOptions options)
      throws IOException {
    long began = System.nanoTime();
    AllocateResponse written;
    try {
      written = writer.put(key, source, length, options, null, null);
    } finally {
      // Also when it failed: a commit may have landed before the error (the writer drops the
      // layout after every commit it sees; this covers one it could not see).
      context.layouts().invalidate(key);
    }
    // A regional object is in its regions once the PUT returns, whatever the mode asked.
    if (options.writeMode() == WriteMode.ASYNC && !written.getWriteThrough()) {
      underStore.persistLater(key, written);
    }
    ClientMetrics.PUT_LATENCY.update(System.nanoTime() - began, TimeUnit.NANOSECONDS);
  }

  /** The object stored under {@code key}, read with Δ = 1 extra split. */
  public byte[] get(String key) throws IOException {
    return get(key, 1);
  }

  /**
   * The object stored under {@code key}: reads k + Δ splits in parallel and finishes with the first
   * k that arrive intact.
   *
   * <p>Which version: this client's own PUTs, deletes and evicts are seen at once. After another
   * client overwrites or deletes the key, a GET may return the previous version, whole, for at most
   * {@code alluxio.user.eccache.layout.cache.ttl} (the client reuses a key's looked-up layout that
   * long; 0 turns that off), never a mix of versions.
   *
   * @param delta extra splits to read beyond k (0 = exactly k, no protection against stragglers)
   * @throws alluxio.exception.status.NotFoundException if there is no such key
   * @throws InvalidArgumentException if the object is too large for an array: use
   *     {@link #openStream(String, int)}
   */
  public byte[] get(String key, int delta) throws IOException {
    long began = System.nanoTime();
    byte[] object;
    try {
      object = readAll(open(key, delta, true));
    } catch (RetryFresh stale) {
      object = readAll(stale.fresh); // the cached layout failed: once more, looked up anew
    }
    ClientMetrics.GET_LATENCY.update(System.nanoTime() - began, TimeUnit.NANOSECONDS);
    return object;
  }

  private static byte[] readAll(ObjectReadStream stream) throws IOException {
    try (ObjectReadStream in = stream) {
      return in.readAll();
    }
  }

  /**
   * Bytes {@code [offset, offset + length)} of the object stored under {@code key}, read with
   * Δ = 1: only the stripes the range lies in are read, each round bound late (k + 1 splits in
   * parallel, the first k intact win), so a small range of a large object costs about a stripe.
   *
   * @throws IllegalArgumentException if {@code offset} or {@code length} is negative (before any
   *     request)
   * @throws EOFException if the range ends past the end of the object
   * @throws alluxio.exception.status.NotFoundException if there is no such key
   */
  public byte[] get(String key, long offset, int length) throws IOException {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("a range needs offset >= 0 and length >= 0, not offset "
          + offset + ", length " + length);
    }
    long began = System.nanoTime();
    byte[] range;
    try {
      range = readRange(open(key, 1, true), key, offset, length);
    } catch (RetryFresh stale) {
      range = readRange(stale.fresh, key, offset, length);
    }
    ClientMetrics.GET_LATENCY.update(System.nanoTime() - began, TimeUnit.NANOSECONDS);
    return range;
  }

  private static byte[] readRange(ObjectReadStream stream, String key, long offset, int length)
      throws IOException {
    try (ObjectReadStream in = stream) {
      if (offset > in.size() - length) { // checked before the array is allocated
        throw new EOFException("bytes [" + offset + ", " + (offset + length) + ") of '" + key
            + "' are not inside the object (" + in.size() + " bytes)");
      }
      byte[] range = new byte[length];
      in.readFully(offset, range, 0, length);
      return range;
    }
  }

  /** The object stored under {@code key} as a stream, read with Δ = 1; see {@link #openStream(String, int)}. */
  public SeekableObjectStream openStream(String key) throws IOException {
    return openStream(key, 1);
  }

  /**
   * The object stored under {@code key} as a stream: read window by window (whole stripes, about
   * {@code alluxio.user.eccache.stream.window} bytes each), every window a late-binding read of
   * k + Δ splits, the next one read ahead. Memory stays bounded whatever the object's size. A key
   * only in the under store is streamed from there and cached in the background. Close the stream.
   *
   * <p>The stream is seekable and reads at any position
   * ({@link SeekableObjectStream#read(long, byte[], int, int)}), fetching only the stripes a read
   * needs: what a Hadoop {@code FSDataInputStream} (eccache-hadoop) is built on.
   *
   * @throws alluxio.exception.status.NotFoundException if there is no such key
   */
  public SeekableObjectStream openStream(String key, int delta) throws IOException {
    return open(key, delta, false);
  }

  /**
   * The one read path of both: the key's layout (reused from the {@link LayoutCache} while it is
   * fresh, else one lookup), then the cached version with its own S3 copy to finish from, or, for
   * a key the cache does not hold, the under store's copy.
   *
   * <p>When the cache cannot serve a window of a reused layout, that layout is dropped, and before
   * the read turns to S3 the key is looked up anew: if it still holds the same write (its splits
   * may have moved since), a GET into an array ({@code intoArray}: nothing handed out yet) starts
   * again from the new layout ({@link RetryFresh}); a stream goes on to S3 as before. Either way
   * the next GET looks it up.
   */
  private ObjectReadStream open(String key, int delta, boolean intoArray) throws IOException {
    if (delta < 0) {
      throw new IllegalArgumentException("delta (extra reads) must be >= 0, not " + delta);
    }
    ObjectKeys.check(key);
    LayoutCache.Found found;
    try {
      found = context.layouts().forRead(key);
    } catch (NotFoundException notCached) {
      context.layouts().invalidate(key);
      return underStore.readThrough(key, notCached);
    }
    LookupResponse lookup = found.lookup;
    Optional<ValueReader> valueReader =
        ClientForms.REGISTERED.of(lookup.getLayout()).flatMap(ClientForm::valueReader);
    if (valueReader.isPresent()) {
      try {
        return ObjectReadStream.ofValue(context, key,
            valueReader.get().read(lookup, context.formIo()));
      } catch (IOException e) {
        context.layouts().readFailed(lookup);
        if (!found.cached) {
          throw e;
        }
        // A layout reused from the cache (its stripe may have moved on): once more, looked up.
        return open(key, delta, intoArray);
      }
    }
    ObjectReadStream.UnderStoreCopy copy = underStore.copyOf(lookup.getLayout());
    ObjectReadStream.UnderStoreCopy dropOnFailure = new ObjectReadStream.UnderStoreCopy() {
      @Override
      public InputStream openAt(long position, IOException cause) throws IOException {
        context.layouts().readFailed(lookup);
        if (found.cached && intoArray) {
          retryFresh(key, delta, lookup, cause);
        }
        return copy.openAt(position, cause);
      }

      @Override
      public void recache(byte[] whole) {
        copy.recache(whole);
      }
    };
    return ObjectReadStream.cached(context, reader, lookup, delta, dropOnFailure);
  }

  /**
   * Thrown out of a GET into an array whose cached layout could not be read, when a new lookup
   * finds the same write (its splits moved): the GET reads it again, whole, from {@link #fresh},
   * never mixing two writes.
   */
  private static final class RetryFresh extends IOException {
    final transient ObjectReadStream fresh;

    RetryFresh(ObjectReadStream fresh, IOException cause) {
      super("the cached layout could not be read; reading the same write from a new lookup",
          cause);
      this.fresh = fresh;
    }
  }

  /** Throws {@link RetryFresh} when {@code key} still holds the write {@code stale} names. */
  private void retryFresh(String key, int delta, LookupResponse stale, IOException cause)
      throws RetryFresh {
    LookupResponse fresh;
    try {
      fresh = context.coordinator().lookup(key, true); // the read was counted already
    } catch (AlluxioStatusException gone) {
      return; // replaced or deleted: finish the version the GET began with, or fail as before
    }
    // Same write, split locations or statuses changed: worth one more read. (Target and
    // popularity may differ without the splits changing.)
    if (fresh.getLayout().getWriteId().equals(stale.getLayout().getWriteId())
        && !(fresh.getLayout().equals(stale.getLayout())
            && fresh.getSplitsList().equals(stale.getSplitsList()))) {
      throw new RetryFresh(ObjectReadStream.cached(context, reader, fresh, delta,
          underStore.copyOf(fresh.getLayout())), cause);
    }
  }

  /** Refuses, typed and before allocating, an object larger than a Java array. */
  static void checkArraySize(String key, long size) throws InvalidArgumentException {
    if (size > MAX_OBJECT_BYTES) {
      throw new InvalidArgumentException("object '" + key + "' has " + size + " bytes, more than"
          + " an array holds (" + MAX_OBJECT_BYTES + "): read it with openStream(key)");
    }
  }

  /** The layout, health, popularity and target redundancy of {@code key} (not counted as a read). */
  public ObjectStat stat(String key) throws AlluxioStatusException {
    LookupResponse l = context.coordinator().lookup(ObjectKeys.check(key), true);
    return new ObjectStat(l, (int) l.getSplitsList().stream().filter(Split::getLive).count());
  }

  /**
   * Deletes {@code key} from the cache and from the under store, as {@code alluxio fs rm} does: a
   * later GET finds it nowhere. Only that one key is touched, whatever characters it holds. GETs
   * that had already started finish reading the deleted version. Returns whether there was
   * anything to delete.
   *
   * @see #evict(String)
   */
  public boolean delete(String key) throws AlluxioStatusException {
    try {
      return context.coordinator().delete(ObjectKeys.check(key), false);
    } finally {
      context.layouts().forget(key);
    }
  }

  /**
   * Drops {@code key} from the cache only; its under-store copy (THROUGH, ASYNC or read-through)
   * stays, and the next GET reads it from there and caches it again. Returns whether it was cached.
   */
  public boolean evict(String key) throws AlluxioStatusException {
    try {
      return context.coordinator().delete(ObjectKeys.check(key), true);
    } finally {
      context.layouts().forget(key);
    }
  }

  /**
   * Sends the coordinator, now, the GETs this client served from cached layouts and has not
   * reported yet (a background task does so every {@code alluxio.user.eccache.read.report.interval}).
   * Test hook: a test that ticks the coordinator's clock and runs a re-tuning pass itself calls
   * this first, so the pass counts every read made before.
   */
  void reportCachedReads() throws AlluxioStatusException {
    context.layouts().report();
  }

  /** The keys that start with {@code prefix}. */
  public List<String> list(String prefix) throws AlluxioStatusException {
    List<String> keys = new ArrayList<>();
    for (Layout l : context.coordinator().list(prefix).getObjectsList()) {
      keys.add(l.getKey());
    }
    return keys;
  }

  /**
   * The keys that start with {@code prefix}, each with its object's size in bytes, sorted by key:
   * one request, as {@link #list(String)} (what a directory listing of eccache-hadoop is made of).
   */
  public java.util.SortedMap<String, Long> sizes(String prefix) throws AlluxioStatusException {
    java.util.SortedMap<String, Long> sizes = new java.util.TreeMap<>();
    for (Layout l : context.coordinator().list(prefix).getObjectsList()) {
      sizes.put(l.getKey(), l.getObjectSize());
    }
    return sizes;
  }

  /**
   * The coordinator's counters: objects, lookups, workers lost, splits added, dropped and repaired,
   * maintenance bytes and tasks, and memory per scheme against its redundancy budget.
   */
  public CacheStats stats() throws AlluxioStatusException {
    return CacheStats.of(context.coordinator().stats());
  }

  /** What this client shares with a maintainer made from it: the one way in for one. */
  ClientContext context() {
    return context;
  }

  /** What this client's GETs read, per worker. */
  public ReadStatistics readStatistics() {
    return context.statistics();
  }

  /** Where this client's updates in place of packed values spent their time, by phase. */
  public UpdatePhases updatePhases() {
    return context.updatePhases();
  }

  /**
   * Stops the client: waits (at most 30 s) for a pending ASYNC persist, stops split I/O, and
   * releases the coordinator client and, if it is the client's own, the Alluxio context once the
   * split reads still finishing have given their worker clients back (in the background, at most
   * 30 s later). See {@link ClientContext}.
   */
  @Override
  public void close() {
    context.close();
  }
}
