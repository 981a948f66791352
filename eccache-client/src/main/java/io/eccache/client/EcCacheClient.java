package io.eccache.client;

import alluxio.AlluxioURI;
import alluxio.client.block.BlockWorkerInfo;
import alluxio.client.file.FileOutStream;
import alluxio.client.file.FileSystem;
import alluxio.client.file.FileSystemContext;
import alluxio.conf.AlluxioConfiguration;
import alluxio.conf.PropertyKey;
import alluxio.exception.AlluxioException;
import alluxio.exception.status.AlluxioStatusException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.NotFoundException;
import alluxio.exception.status.UnavailableException;
import alluxio.grpc.GrpcUtils;
import alluxio.master.MasterClientContext;
import io.eccache.common.CoordinatorClient;
import io.eccache.common.EcCacheKeys;
import io.eccache.common.ObjectKeys;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.UnderStorePaths;
import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.AllocateRequest;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.CommitRequest;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import io.eccache.common.proto.StatsResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The eccache PUT/GET API, meant to be created once and shared for an application's lifetime (a
 * Spark executor, a service): it owns one Alluxio {@link FileSystemContext} (channels, worker
 * clients), one coordinator client and one thread pool for split I/O. Thread-safe.
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
 * ({@code alluxio.eccache.cell.size}, 4 MB) are one stripe, each split a plain 1/k as in the paper.
 * A GET is one lookup and a {@link LateBindingReader late-binding} parallel read, into an array
 * ({@link #get(String)}) or window by window ({@link #openStream(String)}). S3 is the source of
 * truth: a GET of a key that is only in the under store (at {@code alluxio.eccache.ufs.prefix}/key),
 * or whose splits are too few to decode, reads the object from there and caches it again. Errors
 * are Alluxio's status exceptions: {@code NotFoundException} for a key in neither,
 * {@code FailedPreconditionException} when k + r exceeds the live workers,
 * {@code UnavailableException} when fewer than k splits can be read and S3 has no copy.
 */
public final class EcCacheClient implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EcCacheClient.class);
  /** The largest object {@link #get(String)} returns as an array; larger ones are streamed. */
  public static final int MAX_OBJECT_BYTES = Integer.MAX_VALUE - 8;

  private final ClientContext context;
  private final FileSystem fs;
  private final CoordinatorClient coordinator;
  private final ExecutorService prefetcher;
  private final ExecutorService background;
  private final LateBindingReader reader;
  private final StripedWriter writer;
  private final SplitRebuilder splitRebuilder;
  private final ReadStatistics statistics;
  private final UnderStore underStore;
  private final long smallObjectThreshold;
  private final long streamWindowBytes;
  private final long workerListRefreshMs;

  private EcCacheClient(ClientContext context) {
    this.context = context;
    this.fs = context.fs();
    this.coordinator = context.coordinator();
    this.prefetcher = context.readAhead();
    this.background = context.background();
    this.statistics = context.statistics();
    this.reader = new LateBindingReader(fs, context.io(), context.pool(), statistics,
        context.ioTimeoutMs());
    this.writer = new StripedWriter(context);
    this.underStore = new UnderStore(fs, context.underStorePaths());
    this.smallObjectThreshold = context.smallObjectThreshold();
    this.streamWindowBytes = context.streamWindowBytes();
    this.splitRebuilder = new SplitRebuilder(context, reader);
    this.workerListRefreshMs = context.workerListRefreshMs();
  }

  /** A client with its own Alluxio context, from an Alluxio configuration (e.g. {@code Configuration.global()}). */
  public static EcCacheClient create(AlluxioConfiguration conf) {
    return new EcCacheClient(ClientContext.create(conf));
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
   * object in the under store at {@code <alluxio.eccache.ufs.prefix>/<encoded key>} (see
   * {@link UnderStorePaths}).
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
    put(key, source, length, options, null, null);
    ClientMetrics.PUT_LATENCY.update(System.nanoTime() - began, TimeUnit.NANOSECONDS);
  }

  /**
   * A PUT. {@code alreadyPersisted}: the under-store file that holds exactly these bytes (when
   * caching again from it), so the layout says so without writing them again; else null.
   * {@code replaces}: for eccache's own re-caching and rewriting, the write id (or "" for none) the
   * key must still hold at the commit, so a user's PUT or delete meanwhile wins; null for a user's
   * PUT.
   */
  private void put(String key, ByteSource source, long length, PutOptions options,
      UnderStore.UnderStoreFile alreadyPersisted, String replaces) throws IOException {
    ObjectKeys.check(key);
    if (options == null) {
      throw new IllegalArgumentException("options must not be null");
    }
    if (options.writeMode() != WriteMode.CACHE_ONLY && alreadyPersisted == null) {
      underStore.paths().checkNameLength(key);
    }
    if (options.scheme().isEmpty() && length < 0) {
      // The coordinator decides how to store it, and a small object is stored differently: look
      // ahead far enough to tell it the size of a small one.
      byte[] head = source.readUpTo(Math.toIntExact(smallObjectThreshold));
      if (head.length < smallObjectThreshold) {
        length = head.length;
      }
      source = ByteSource.concat(head, source);
    }
    AllocateRequest.Builder request = AllocateRequest.newBuilder().setKey(key)
        .setObjectSize(length);
    options.scheme().ifPresent(s -> request.setScheme(SchemeProtos.toProto(s))
        .setTuned(options.tuned()));
    AllocateResponse allocation = coordinator.allocate(request.build());
    awaitWorkersKnown(allocation.getSplitsList());
    boolean through = options.writeMode() == WriteMode.THROUGH && alreadyPersisted == null;
    // Staged under a name no key has; the commit publishes it, so a failed PUT leaves S3 as it was.
    FileOutStream persist = through
        ? underStore.openForWrite(key, allocation.getStagingPath()) : null;
    StripedWriter.Result written;
    try {
      written = writer.write(allocation, source, length, persist);
      if (!written.failed.isEmpty()) {
        rewriteFailedSplits(allocation, written);
      }
      if (persist != null) {
        try {
          persist.close(); // before the commit: once visible, the object is also in S3
        } catch (IOException | RuntimeException e) {
          throw new UnavailableException("writing '" + key + "' to the under store (S3) failed: "
              + e.getMessage() + "; check that S3 is reachable, or PUT with CACHE_ONLY", e);
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not committed: readers keep seeing the previous version; the coordinator forgets the
      // allocation after alluxio.eccache.allocation.timeout.
      if (persist != null) {
        underStore.cancelQuietly(persist, allocation.getStagingPath());
      }
      throw e;
    }
    Layout layout = allocation.getLayout();
    CommitRequest.Builder commit = CommitRequest.newBuilder().setKey(key)
        .setWriteId(layout.getWriteId()).addAllCrc32C(written.crc32c)
        .setObjectSize(written.objectSize).setPersisted(through);
    if (alreadyPersisted != null) {
      commit.setUfsPath(alreadyPersisted.path).setUfsFileId(alreadyPersisted.fileId);
    }
    if (replaces != null) {
      // Re-caching or rewriting: only while the key still holds what it did when that began.
      commit.setConditional(true).setExpectedWriteId(replaces);
    }
    coordinator.commit(commit.build());
    if (options.writeMode() == WriteMode.ASYNC && alreadyPersisted == null) {
      String staging = allocation.getStagingPath();
      background.submit(() -> persistFromCache(key, layout.getWriteId(), staging));
    }
  }

  /**
   * Late binding for writes: the splits whose worker failed during the PUT are written again, each
   * on a live worker the coordinator picks among those holding none of this write's splits, rebuilt
   * from the splits that were written (read back and coded like a repair). Their checksums are the
   * ones computed while encoding: the rebuilt bytes are the same.
   */
  private void rewriteFailedSplits(AllocateResponse allocation, StripedWriter.Result written)
      throws IOException {
    Layout allocated = allocation.getLayout();
    StripeGeometry g = new StripeGeometry(written.objectSize,
        SchemeProtos.of(allocated).dataSplits(), allocated.getCellSize());
    Layout layout = allocated.toBuilder().setObjectSize(written.objectSize)
        .setSplitSize(g.splitSize()).clearCrc32C().addAllCrc32C(written.crc32c).build();
    LookupResponse.Builder survivors = LookupResponse.newBuilder().setLayout(layout);
    List<alluxio.grpc.WorkerNetAddress> used = new ArrayList<>();
    for (Split split : allocation.getSplitsList()) {
      used.add(split.getWorker());
      Split.Builder s = split.toBuilder().setLive(false);
      if (!written.failed.contains(split.getIndex())) {
        try {
          s.setStatus(GrpcUtils.toProto(fs.getStatus(new AlluxioURI(split.getPath()))
              .getFileInfo())).setLive(true);
        } catch (AlluxioException e) {
          throw new IOException("re-reading split " + split.getPath() + " failed: "
              + e.getMessage(), e);
        }
      }
      survivors.addSplits(s);
    }
    List<alluxio.grpc.WorkerNetAddress> targets = new ArrayList<>();
    for (int i = 0; i < written.failed.size(); i++) {
      alluxio.grpc.WorkerNetAddress target =
          coordinator.placeSplit(allocated.getKey(), allocated.getWriteId(), used);
      used.add(target);
      targets.add(target);
    }
    LOG.info("eccache: PUT '{}': rewriting split(s) {} on other workers", allocated.getKey(),
        written.failed);
    splitRebuilder.write(survivors.build(), written.failed, targets, null, new long[1]);
    ClientMetrics.SPLITS_REPLACED.inc(written.failed.size());
  }

  /**
   * Waits (at most two worker-list refreshes) until this client knows every worker the coordinator
   * placed a split on: a pinned write to a worker missing from the client's list (one just started)
   * fails with "no worker with enough space".
   */
  private void awaitWorkersKnown(List<Split> splits) throws IOException {
    Set<String> wanted = new HashSet<>();
    for (Split s : splits) {
      wanted.add(s.getWorker().getHost() + ":" + s.getWorker().getRpcPort());
    }
    long deadline = System.currentTimeMillis() + 2 * workerListRefreshMs + 1000;
    while (true) {
      Set<String> known = new HashSet<>();
      for (BlockWorkerInfo w : context.cachedWorkers()) {
        known.add(w.getNetAddress().getHost() + ":" + w.getNetAddress().getRpcPort());
      }
      if (known.containsAll(wanted) || System.currentTimeMillis() > deadline) {
        return; // past the deadline the write itself reports what is wrong
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for the worker list", e);
      }
    }
  }

  /** An ASYNC PUT's second half: copies the committed write to the under store, then says so. */
  private Void persistFromCache(String key, String writeId, String stagingPath) {
    try {
      LookupResponse lookup = coordinator.lookup(key, true);
      if (!lookup.getLayout().getWriteId().equals(writeId)) {
        return null; // replaced meanwhile; the newer PUT persists its own bytes
      }
      FileOutStream out = underStore.openForWrite(key, stagingPath);
      try (InputStream in = newStream(lookup, 1, null)) {
        in.transferTo(out);
        out.close();
      } catch (IOException | RuntimeException e) {
        underStore.cancelQuietly(out, stagingPath);
        throw e;
      }
      coordinator.markPersisted(key, writeId);
    } catch (IOException | RuntimeException e) {
      LOG.warn("eccache: persisting '{}' to the under store failed; it is cached only: {}", key,
          e.toString());
    }
    return null;
  }

  /** The object stored under {@code key}, read with Δ = 1 extra split. */
  public byte[] get(String key) throws IOException {
    return get(key, 1);
  }

  /**
   * The object stored under {@code key}: reads k + Δ splits in parallel and finishes with the first
   * k that arrive intact.
   *
   * @param delta extra splits to read beyond k (0 = exactly k, no protection against stragglers)
   * @throws alluxio.exception.status.NotFoundException if there is no such key
   * @throws InvalidArgumentException if the object is too large for an array: use
   *     {@link #openStream(String, int)}
   */
  public byte[] get(String key, int delta) throws IOException {
    long began = System.nanoTime();
    byte[] object = read(key, delta);
    ClientMetrics.GET_LATENCY.update(System.nanoTime() - began, TimeUnit.NANOSECONDS);
    return object;
  }

  private byte[] read(String key, int delta) throws IOException {
    checkDelta(delta);
    ObjectKeys.check(key);
    LookupResponse lookup;
    try {
      lookup = coordinator.lookup(key);
    } catch (NotFoundException notCached) {
      // Only in S3 (or nowhere): read it there and cache it; S3 holds exactly these bytes.
      return readThrough(key, notCached, PutOptions.defaults());
    }
    Layout layout = lookup.getLayout();
    checkArraySize(key, layout.getObjectSize());
    byte[] object = new byte[(int) layout.getObjectSize()];
    int stripes = StripeGeometry.of(layout).stripes();
    if (stripes == 0) {
      return object;
    }
    try (StripeWindow all = reader.read(lookup, effectiveDelta(layout, delta), 0, stripes)) {
      all.copyAll(object, 0);
      return object;
    } catch (UnavailableException tooFewSplits) {
      if (!layout.getPersisted()) {
        // S3 may hold an older version (or none): serving it would return the wrong bytes.
        throw new UnavailableException(tooFewSplits.getMessage() + ", and S3 has no copy of this"
            + " version; PUT the object again (WriteMode.THROUGH keeps one in S3)", tooFewSplits);
      }
      try (InputStream in = underStore.openSameVersion(layout, 0)) {
        in.readNBytes(object, 0, object.length);
      }
      statistics.addFallback();
      background.submit(() -> recacheFromUnderStore(key, sameShape(layout),
          layout.getWriteId()));
      return object;
    }
  }

  /** The object stored under {@code key} as a stream, read with Δ = 1; see {@link #openStream(String, int)}. */
  public InputStream openStream(String key) throws IOException {
    return openStream(key, 1);
  }

  /**
   * The object stored under {@code key} as a stream: read window by window (whole stripes, about
   * {@code alluxio.eccache.user.stream.window} bytes each), every window a late-binding read of
   * k + Δ splits, the next one read ahead. Memory stays bounded whatever the object's size. A key
   * only in the under store is streamed from there and cached in the background. Close the stream.
   *
   * @throws alluxio.exception.status.NotFoundException if there is no such key
   */
  public InputStream openStream(String key, int delta) throws IOException {
    checkDelta(delta);
    ObjectKeys.check(key);
    LookupResponse lookup;
    try {
      lookup = coordinator.lookup(key);
    } catch (NotFoundException notCached) {
      UnderStore.UnderStoreFile file = underStore.find(key, notCached);
      background.submit(() -> recacheFromUnderStore(key, PutOptions.defaults(), ""));
      return file.in;
    }
    Layout layout = lookup.getLayout();
    // The rest of this version from S3 while S3 still holds this version, never a newer one.
    ObjectReadStream.UnderStore rest = !layout.getPersisted() ? null : position -> {
      InputStream in = underStore.openSameVersion(layout, position);
      background.submit(() -> recacheFromUnderStore(key, sameShape(layout),
          layout.getWriteId()));
      return in;
    };
    return newStream(lookup, delta, rest);
  }

  private InputStream newStream(LookupResponse lookup, int delta,
      ObjectReadStream.UnderStore underStore) {
    return new ObjectReadStream(reader, prefetcher, lookup,
        effectiveDelta(lookup.getLayout(), delta), streamWindowBytes, underStore, statistics);
  }

  /** A replicated object is read from one copy chosen at random (another if that one fails). */
  private static int effectiveDelta(Layout layout, int delta) {
    return SchemeProtos.of(layout).kind() == RedundancyScheme.Kind.REPLICATED ? 0 : delta;
  }

  /** Options that store an object again as {@code layout} does (defaults if it was tuned). */
  static PutOptions sameShape(Layout layout) {
    return layout.getTuned() ? PutOptions.defaults()
        : PutOptions.scheme(SchemeProtos.of(layout));
  }

  private static void checkDelta(int delta) {
    if (delta < 0) {
      throw new IllegalArgumentException("delta (extra reads) must be >= 0, not " + delta);
    }
  }

  /** Refuses, typed and before allocating, an object larger than a Java array. */
  static void checkArraySize(String key, long size) throws InvalidArgumentException {
    if (size > MAX_OBJECT_BYTES) {
      throw new InvalidArgumentException("object '" + key + "' has " + size + " bytes, more than"
          + " an array holds (" + MAX_OBJECT_BYTES + "): read it with openStream(key)");
    }
  }

  /**
   * Reads the object from the under store and puts its splits back in the cache; if it is not there
   * either, throws {@code cacheError}, the reason the cache could not serve it.
   */
  private byte[] readThrough(String key, AlluxioStatusException cacheError, PutOptions recache)
      throws IOException {
    UnderStore.UnderStoreFile file = underStore.find(key, cacheError);
    byte[] data;
    try (InputStream in = file.in) {
      checkArraySize(key, file.length);
      data = in.readAllBytes();
    }
    statistics.addFallback();
    if (data.length == file.length) {
      try {
        put(key, ByteSource.of(data), data.length, recache, file, "");
      } catch (IOException | RuntimeException e) {
        LOG.warn("eccache: '{}' was read from the under store but could not be cached again: {}",
            key, e.toString());
      }
    }
    return data;
  }

  /** Caches the under store's copy of {@code key} again, streaming it; in the background. */
  private Void recacheFromUnderStore(String key, PutOptions shape, String replaces) {
    try {
      recache(key, shape, replaces);
    } catch (IOException | RuntimeException e) {
      LOG.warn("eccache: could not cache '{}' again from the under store: {}", key, e.toString());
    }
    return null;
  }

  /** The layout, health, popularity and target redundancy of {@code key} (not counted as a read). */
  public ObjectStat stat(String key) throws AlluxioStatusException {
    LookupResponse l = coordinator.lookup(ObjectKeys.check(key), true);
    return new ObjectStat(l.getLayout(), (int) l.getSplitsList().stream().filter(Split::getLive)
        .count(), SchemeProtos.fromProto(l.getTarget()), l.getPopularity());
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
    return coordinator.delete(ObjectKeys.check(key), false);
  }

  /**
   * Drops {@code key} from the cache only; its under-store copy (THROUGH, ASYNC or read-through)
   * stays, and the next GET reads it from there and caches it again. Returns whether it was cached.
   */
  public boolean evict(String key) throws AlluxioStatusException {
    return coordinator.delete(ObjectKeys.check(key), true);
  }

  /** The keys that start with {@code prefix}. */
  public List<String> list(String prefix) throws AlluxioStatusException {
    List<String> keys = new ArrayList<>();
    for (Layout l : coordinator.list(prefix).getObjectsList()) {
      keys.add(l.getKey());
    }
    return keys;
  }

  /**
   * The coordinator's counters: objects, lookups, workers lost, splits added, dropped and repaired,
   * maintenance bytes and tasks, and memory per scheme against its redundancy budget.
   */
  public StatsResponse stats() throws AlluxioStatusException {
    return coordinator.stats();
  }

  // For RedundancyMaintainer, which works through this client's pools.
  LateBindingReader reader() {
    return reader;
  }

  SplitRebuilder splitRebuilder() {
    return splitRebuilder;
  }

  FileSystem fileSystem() {
    return fs;
  }

  DirectBufferPool pool() {
    return context.pool();
  }

  long streamWindowBytes() {
    return streamWindowBytes;
  }

  /** What this client shares with a maintainer made from it. */
  ClientContext context() {
    return context;
  }

  /**
   * Stores the object again from the under store, as {@code shape}, in the calling thread, if the
   * key still holds write {@code replaces} ("" for none) when it commits.
   */
  void recache(String key, PutOptions shape, String replaces) throws IOException {
    UnderStore.UnderStoreFile file = underStore.find(key, null);
    try (InputStream in = file.in) {
      put(key, ByteSource.of(in), file.length, shape, file, replaces);
    }
  }

  /** Rewrites a cached object from its current splits as {@code shape} (keeps its S3 status). */
  void rewrite(LookupResponse lookup, PutOptions shape) throws IOException {
    Layout layout = lookup.getLayout();
    try (InputStream in = newStream(lookup, 1, null)) {
      put(layout.getKey(), ByteSource.of(in), layout.getObjectSize(), shape,
          layout.getPersisted() && !layout.getUfsPath().isEmpty()
              ? new UnderStore.UnderStoreFile(layout.getUfsPath(), layout.getUfsFileId(),
                  layout.getObjectSize(), null)
              : null, layout.getWriteId());
    }
  }

  /** What this client's GETs read, per worker. */
  public ReadStatistics readStatistics() {
    return statistics;
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
