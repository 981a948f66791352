package io.eccache.client;

import alluxio.AlluxioURI;
import alluxio.client.file.FileInStream;
import alluxio.client.file.FileOutStream;
import alluxio.client.file.FileSystem;
import alluxio.client.file.FileSystemContext;
import alluxio.conf.AlluxioConfiguration;
import alluxio.exception.AlluxioException;
import alluxio.exception.FileDoesNotExistException;
import alluxio.exception.status.AlluxioStatusException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.NotFoundException;
import alluxio.exception.status.UnavailableException;
import alluxio.grpc.CreateFilePOptions;
import alluxio.grpc.OpenFilePOptions;
import alluxio.grpc.ReadPType;
import alluxio.grpc.WritePType;
import alluxio.master.MasterClientContext;
import io.eccache.common.CoordinatorClient;
import io.eccache.common.EcCacheKeys;
import io.eccache.common.ObjectPaths;
import io.eccache.common.proto.AllocateRequest;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.CommitRequest;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import io.eccache.isal.ErasureCoder;
import io.eccache.isal.ReedSolomon;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;
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
 * <p>A PUT asks the coordinator once for a layout and one distinct worker per split, encodes the k
 * data splits into r parities with the ISA-L coder, writes the k + r splits in parallel (each pinned
 * to its worker, cache only), and commits with a CRC32C per split; until the commit, readers see the
 * previous version or nothing. A GET is one lookup and a {@link LateBindingReader late-binding}
 * parallel read. S3 is the source of truth: a GET of a key that is only in the under store (at
 * {@code alluxio.eccache.ufs.prefix}/key), or whose splits are too few to decode, reads the object
 * from there and caches it again. Errors are Alluxio's status exceptions: {@code NotFoundException}
 * for a key in neither, {@code FailedPreconditionException} when k + r exceeds the live workers,
 * {@code UnavailableException} when fewer than k splits can be read and S3 has no copy.
 */
public final class EcCacheClient implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EcCacheClient.class);
  /** Split I/O threads; enough for k + Δ reads of the widest codes the paper uses, twice over. */
  private static final int IO_THREADS = 32;
  /** The largest object one PUT takes: a Java array's limit. */
  public static final int MAX_OBJECT_BYTES = Integer.MAX_VALUE - 8;

  private static final int SPLIT_WRITE_ATTEMPTS = 4;
  private static final long WORKER_LIST_WAIT_MS = 1200;
  /** Bytes per write call: large enough for throughput, small enough to stay in cache. */
  private static final int WRITE_CHUNK = 1 << 20;

  private final FileSystemContext context;
  private final boolean ownsContext;
  private final FileSystem fs;
  private final CoordinatorClient coordinator;
  private final ExecutorService io;
  private final LateBindingReader reader;
  private final ReadStatistics statistics = new ReadStatistics();
  private final String ufsPrefix;
  private final long smallObjectThreshold;
  private final int smallObjectReplicas;

  private EcCacheClient(FileSystemContext context, boolean ownsContext) {
    this.context = context;
    this.ownsContext = ownsContext;
    this.fs = FileSystem.Factory.create(context);
    this.coordinator = new CoordinatorClient(
        MasterClientContext.newBuilder(context.getClientContext()).build());
    AtomicInteger n = new AtomicInteger();
    ThreadFactory threads = r -> {
      Thread t = new Thread(r, "eccache-io-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
    this.io = Executors.newFixedThreadPool(IO_THREADS, threads);
    this.reader = new LateBindingReader(fs, io, statistics);
    this.ufsPrefix = context.getClusterConf().getString(EcCacheKeys.UFS_PREFIX);
    this.smallObjectThreshold = context.getClusterConf().getBytes(EcCacheKeys.SMALL_OBJECT_THRESHOLD);
    this.smallObjectReplicas = context.getClusterConf().getInt(EcCacheKeys.SMALL_OBJECT_REPLICAS);
  }

  /** A client with its own Alluxio context, from an Alluxio configuration (e.g. {@code Configuration.global()}). */
  public static EcCacheClient create(AlluxioConfiguration conf) {
    return new EcCacheClient(FileSystemContext.create(conf), true);
  }

  /** A client sharing an existing Alluxio context; closing the client leaves the context open. */
  public static EcCacheClient create(FileSystemContext context) {
    return new EcCacheClient(context, false);
  }

  /** Stores {@code data} under {@code key} with the coordinator's default code. */
  public void put(String key, byte[] data) throws IOException {
    put(key, data, PutOptions.defaults());
  }

  /**
   * Stores everything {@code in} yields under {@code key}. The object is read into memory first, so it
   * must be smaller than {@link #MAX_OBJECT_BYTES}.
   *
   * @throws InvalidArgumentException if the stream holds more than {@link #MAX_OBJECT_BYTES}
   */
  public void put(String key, InputStream in, PutOptions options) throws IOException {
    put(key, readAtMost(in, MAX_OBJECT_BYTES, key), options);
  }

  /** Reads all of {@code in}, refusing (typed, before running out of memory) past {@code limit}. */
  static byte[] readAtMost(InputStream in, int limit, String key) throws IOException {
    byte[] data = in.readNBytes(limit);
    if (data.length == limit && in.read() != -1) {
      throw new InvalidArgumentException("object '" + key + "' is larger than " + limit
          + " bytes, the most one PUT can hold in memory: store it as several objects (streaming"
          + " PUTs of larger objects are not supported yet)");
    }
    return data;
  }

  /**
   * Stores {@code data} under {@code key}, replacing any previous version atomically.
   *
   * @throws alluxio.exception.status.FailedPreconditionException if k + r exceeds the live workers
   * @throws alluxio.exception.status.InvalidArgumentException for a bad key or code
   */
  public void put(String key, byte[] data, PutOptions options) throws IOException {
    putCached(key, data, options, false);
  }

  /** A PUT; {@code alreadyPersisted}: S3 holds exactly {@code data} (a read-through re-caching). */
  private void putCached(String key, byte[] data, PutOptions options, boolean alreadyPersisted)
      throws IOException {
    ObjectPaths.checkKey(key);
    if (data == null || options == null) {
      throw new IllegalArgumentException("data and options must not be null");
    }
    if (options.isDefaultCode() && data.length < smallObjectThreshold) {
      // Small objects are not worth splitting (paper section 4.1): whole copies instead.
      options = PutOptions.replicas(smallObjectReplicas).writeMode(options.writeMode());
    }
    AllocateRequest.Builder request = AllocateRequest.newBuilder().setKey(key)
        .setObjectSize(data.length).setK(options.k()).setR(options.r());
    if (options.isReplicas()) {
      request.setScheme(ObjectPaths.SCHEME_REPLICA);
    }
    AllocateResponse allocation = coordinator.allocate(request.build());
    Layout layout = allocation.getLayout();
    int k = layout.getK();
    int r = layout.getR();
    boolean replicas = ObjectPaths.SCHEME_REPLICA.equals(layout.getScheme());
    int splitSize = Math.toIntExact(layout.getSplitSize());
    ByteBuffer[] units = new ByteBuffer[k + r];
    if (replicas) {
      // Every copy is the whole object: one buffer, written k + r times.
      ByteBuffer whole = ReedSolomon.allocateAligned(splitSize);
      whole.put(data).clear();
      java.util.Arrays.fill(units, whole);
    }
    for (int i = 0; i < k && !replicas; i++) {
      units[i] = ReedSolomon.allocateAligned(splitSize);
      int from = i * splitSize;
      int len = Math.max(0, Math.min(splitSize, data.length - from));
      units[i].put(data, Math.min(from, data.length), len).clear(); // the rest stays zero: padding
    }
    for (int i = k; i < k + r && !replicas; i++) {
      units[i] = ReedSolomon.allocateAligned(splitSize);
    }
    if (r > 0 && splitSize > 0 && !replicas) {
      ErasureCoder coder = ReedSolomon.coder(k, r);
      ByteBuffer[] data0 = new ByteBuffer[k];
      ByteBuffer[] parity = new ByteBuffer[r];
      System.arraycopy(units, 0, data0, 0, k);
      System.arraycopy(units, k, parity, 0, r);
      coder.encode(data0, parity);
    }
    CommitRequest.Builder commit = CommitRequest.newBuilder().setKey(key)
        .setWriteId(layout.getWriteId()).setPersisted(alreadyPersisted);
    List<Future<?>> writes = new ArrayList<>();
    for (int i = 0; i < k + r; i++) {
      CRC32C crc = new CRC32C();
      crc.update(units[i].duplicate());
      commit.addCrc32C((int) crc.getValue());
      Split split = allocation.getSplits(i);
      ByteBuffer unit = units[i];
      writes.add(io.submit(() -> {
        writeSplit(split, unit, splitSize);
        return null;
      }));
    }
    awaitAll(writes, key);
    if (options.writeMode() == WriteMode.THROUGH) {
      commit.setPersisted(true);
      try {
        persist(key, data); // before the commit: once visible, the object is also in S3
      } catch (AlluxioException e) {
        throw new IOException("persisting '" + key + "' to the under store failed, so it was not"
            + " stored: " + e.getMessage() + "; check that S3 is reachable, or PUT with CACHE_ONLY", e);
      }
    }
    coordinator.commit(commit.build());
    if (options.writeMode() == WriteMode.ASYNC) {
      io.submit(() -> {
        try {
          persist(key, data);
        } catch (IOException | AlluxioException | RuntimeException e) {
          LOG.warn("eccache: persisting '{}' to the under store failed; it is cached only: {}", key,
              e.toString());
        }
        return null;
      });
    }
  }

  /** Writes the whole object to the under store (S3), replacing what was there. */
  private void persist(String key, byte[] data) throws IOException, AlluxioException {
    AlluxioURI path = new AlluxioURI(ObjectPaths.persistedPath(ufsPrefix, key));
    try (FileOutStream out = fs.createFile(path, CreateFilePOptions.newBuilder()
        .setWriteType(WritePType.THROUGH).setRecursive(true).setOverwrite(true).build())) {
      out.write(data);
    }
  }

  private void writeSplit(Split split, ByteBuffer unit, int splitSize)
      throws IOException, AlluxioException, InterruptedException {
    CreateFilePOptions options = CreateFilePOptions.newBuilder()
        .setWriteType(WritePType.MUST_CACHE)
        .setWorkerLocation(split.getWorker())
        .setReplicationMax(1)
        // One block per split, so a split lives on exactly one worker.
        .setBlockSizeBytes(Math.max(splitSize, 1 << 20))
        // A retried attempt replaces what a failed one left behind.
        .setOverwrite(true)
        .build();
    byte[] chunk = new byte[Math.min(WRITE_CHUNK, Math.max(1, splitSize))];
    for (int attempt = 1; ; attempt++) {
      ByteBuffer src = unit.duplicate();
      try (FileOutStream out = fs.createFile(new AlluxioURI(split.getPath()), options)) {
        while (src.hasRemaining()) {
          int n = Math.min(chunk.length, src.remaining());
          src.get(chunk, 0, n);
          out.write(chunk, 0, n);
        }
        return;
      } catch (IOException e) {
        // Typically "no worker with enough space": a worker the coordinator just placed on is not in
        // this client's worker list yet (refreshed every alluxio.user.worker.list.refresh.interval).
        if (attempt == SPLIT_WRITE_ATTEMPTS) {
          throw e;
        }
        Thread.sleep(WORKER_LIST_WAIT_MS);
      }
    }
  }

  private static void awaitAll(List<Future<?>> writes, String key) throws IOException {
    IOException failure = null;
    for (Future<?> f : writes) {
      try {
        f.get();
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (failure == null) {
          failure = cause instanceof IOException ? (IOException) cause
              : new IOException("writing a split of '" + key + "' failed: " + cause, cause);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while writing '" + key + "'", e);
      }
    }
    if (failure != null) {
      // Not committed: readers keep seeing the previous version, and the coordinator forgets the
      // allocation after alluxio.eccache.allocation.timeout.
      throw failure;
    }
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
   */
  public byte[] get(String key, int delta) throws IOException {
    if (delta < 0) {
      throw new IllegalArgumentException("delta (extra reads) must be >= 0, not " + delta);
    }
    ObjectPaths.checkKey(key);
    LookupResponse lookup;
    try {
      lookup = coordinator.lookup(key);
    } catch (NotFoundException notCached) {
      // Only in S3 (or nowhere): read it there and cache it; S3 holds exactly these bytes.
      return readThrough(key, notCached, PutOptions.defaults(), true);
    }
    try {
      // A replicated object is read from one copy chosen at random (another if that one fails).
      boolean replicas = ObjectPaths.SCHEME_REPLICA.equals(lookup.getLayout().getScheme());
      return reader.read(lookup, replicas ? 0 : delta);
    } catch (UnavailableException tooFewSplits) {
      Layout layout = lookup.getLayout();
      if (!layout.getPersisted()) {
        // S3 may hold an older version (or none): serving it would return the wrong bytes.
        throw tooFewSplits;
      }
      PutOptions sameShape = ObjectPaths.SCHEME_REPLICA.equals(layout.getScheme())
          ? PutOptions.replicas(layout.getR() + 1) : PutOptions.code(layout.getK(), layout.getR());
      return readThrough(key, tooFewSplits, sameShape, true);
    }
  }

  /**
   * Reads the object from the under store and puts its splits back in the cache; if it is not there
   * either, throws {@code cacheError}, the reason the cache could not serve it.
   */
  private byte[] readThrough(String key, AlluxioStatusException cacheError, PutOptions recache,
      boolean persisted) throws IOException {
    String path;
    try {
      path = ObjectPaths.persistedPath(ufsPrefix, key);
    } catch (IllegalArgumentException notAPath) {
      throw cacheError;
    }
    byte[] data;
    try (FileInStream in = fs.openFile(new AlluxioURI(path),
        OpenFilePOptions.newBuilder().setReadType(ReadPType.NO_CACHE).build())) {
      data = in.readAllBytes();
    } catch (FileDoesNotExistException | NotFoundException missing) {
      throw cacheError;
    } catch (AlluxioException e) {
      throw new IOException("reading '" + key + "' from the under store failed: " + e.getMessage()
          + " (the cache could not serve it: " + cacheError.getMessage() + ")", e);
    }
    statistics.addFallback();
    try {
      putCached(key, data, recache, persisted);
    } catch (IOException | RuntimeException e) {
      LOG.warn("eccache: '{}' was read from the under store but could not be cached again: {}", key,
          e.toString());
    }
    return data;
  }

  /** The layout and health of {@code key}. */
  public ObjectStat stat(String key) throws AlluxioStatusException {
    LookupResponse l = coordinator.lookup(ObjectPaths.checkKey(key));
    return new ObjectStat(l.getLayout(), (int) l.getSplitsList().stream().filter(Split::getLive)
        .count());
  }

  /** Removes {@code key}; returns whether it existed. */
  public boolean delete(String key) throws AlluxioStatusException {
    return coordinator.delete(ObjectPaths.checkKey(key));
  }

  /** The keys that start with {@code prefix}. */
  public List<String> list(String prefix) throws AlluxioStatusException {
    List<String> keys = new ArrayList<>();
    for (Layout l : coordinator.list(prefix).getObjectsList()) {
      keys.add(l.getKey());
    }
    return keys;
  }

  /** What this client's GETs read, per worker. */
  public ReadStatistics readStatistics() {
    return statistics;
  }

  @Override
  public void close() {
    io.shutdownNow();
    coordinator.close();
    if (ownsContext) {
      try {
        context.close();
      } catch (IOException e) {
        // closing; nothing left to do with it
      }
    }
  }
}
