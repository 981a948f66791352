package io.eccache.client;

import alluxio.AlluxioURI;
import alluxio.client.block.BlockWorkerInfo;
import alluxio.client.block.stream.BlockWorkerClient;
import alluxio.client.file.AlluxioFileOutStream;
import alluxio.client.file.FileOutStream;
import alluxio.client.file.FileSystem;
import alluxio.client.file.FileSystemContext;
import alluxio.client.file.URIStatus;
import alluxio.client.file.options.InStreamOptions;
import alluxio.client.file.options.OutStreamOptions;
import alluxio.conf.AlluxioConfiguration;
import alluxio.conf.InstancedConfiguration;
import alluxio.conf.PropertyKey;
import alluxio.exception.status.AlluxioStatusException;
import alluxio.grpc.CacheRequest;
import alluxio.grpc.CreateFilePOptions;
import alluxio.grpc.GrpcUtils;
import alluxio.grpc.RemoveBlockRequest;
import alluxio.master.MasterClientContext;
import alluxio.resource.CloseableResource;
import alluxio.util.FileSystemOptionsUtils;
import alluxio.wire.FileBlockInfo;
import alluxio.wire.WorkerNetAddress;
import com.google.common.base.Ticker;
import io.eccache.client.form.UpdatePhases;
import io.eccache.client.form.packed.LogNodeClient;
import io.eccache.common.ClientKeys;
import io.eccache.common.CoordinatorClient;
import io.eccache.common.EcCacheKeys;
import io.eccache.common.ReadChoice;
import io.eccache.common.SharedKeys;
import io.eccache.common.UnderStorePaths;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.util.Collection;
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
 * Everything one eccache client process shares, created once and lent to the parts that work with
 * it (as Alluxio's {@link FileSystemContext} lends channels and worker clients): the
 * {@link EcCacheClient} and any {@link RedundancyMaintainer} made from it work through the same
 * context. Nothing is created per request.
 *
 * <p>It owns:
 * <ul>
 *   <li>the Alluxio {@link FileSystemContext} (its own, or one shared with the application, which
 *       it then never closes) and the {@link FileSystem} over it;
 *   <li>the {@link CoordinatorClient} and the {@link LayoutCache} of looked-up layouts;
 *   <li>three executors: {@link #io()} for split reads and writes, {@link #readAhead()} for
 *       streaming GETs' next window (it waits on split reads, so it is not {@code io}), and
 *       {@link #background()} for ASYNC persists and re-caching, one at a time; and the
 *       {@link #readWatchdog()} that ends any split read past the I/O timeout;
 *   <li>the {@link DirectBufferPool} and the {@link ReadStatistics};
 *   <li>the configuration values the client reads (timeouts, window, thresholds).
 * </ul>
 *
 * <p>Close order ({@link #close()}): the background executor first, given up to 30 s so a pending
 * ASYNC persist (the object's only way to S3) can finish; then read-ahead and split I/O are shut
 * down without interrupts (a split read stops at its next slice by itself; an interrupted read also
 * cancels its stream on the worker, work there for nothing), and every split read still running is
 * waited for, on GETs' own threads too (the watchdog ends any within the I/O timeout); then, once
 * those reads have given their worker clients back, the coordinator client and, if it is the
 * context's own, the file system and with it the Alluxio context: in the calling thread when that
 * takes at most 2 s (the usual case, so the cluster is still there for Alluxio's last metrics
 * report), else in a background thread (at most 30 s). Closing the Alluxio context while reads
 * still hold its worker clients would leave their channels open for good.
 * Thread-safe.
 */
final class ClientContext implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClientContext.class);
  /** How long Alluxio retries an under-store copy's block read; see {@link #underStoreReads}. */
  static final String UNDER_STORE_BLOCK_READ_RETRY = "1s";
  private final FileSystemContext alluxio;
  private final boolean ownsAlluxio;
  private final FileSystem fs;
  private final CoordinatorClient coordinator;
  /** Calls to log nodes (packed values): channels opened on first use. */
  private final LogNodeClient logNodes;
  private final LayoutCache layouts;
  private final ExecutorService io;
  private final ExecutorService readAhead;
  private final ExecutorService background;
  private final ReadWatchdog watchdog;
  private final DirectBufferPool pool;
  private final ReadStatistics statistics = new ReadStatistics();
  private final UpdatePhases updatePhases = new UpdatePhases();
  private final UnderStorePaths underStorePaths;
  private final long ioTimeoutMs;
  private final ReadChoice readChoice;
  private final CpuLoad cpuLoad;
  /** The client's clock: the ages and waits its reads measure read it (tests inject one). */
  private final Ticker ticker;
  private final WorkerHealth workerHealth;
  private final long smallObjectThreshold;
  private final boolean sha256;
  private final long streamWindowBytes;
  private final long workerListRefreshMs;
  private final long maintenanceBandwidth;
  /** Made on first use; guarded by this. */
  private ClientFormIo formIo;
  /** Made on the first under-store read (most clients never make one); guarded by this. */
  private FileSystem underStoreReads;
  private boolean closed; // guarded by this

  private ClientContext(FileSystemContext alluxio, boolean ownsAlluxio, Ticker ticker) {
    EcCacheKeys.registerAll();
    this.alluxio = alluxio;
    this.ownsAlluxio = ownsAlluxio;
    this.ticker = ticker;
    AlluxioConfiguration conf = alluxio.getClusterConf();
    int ioThreads = ioThreads(conf); // checked before anything is opened
    this.fs = FileSystem.Factory.create(alluxio);
    this.coordinator = new CoordinatorClient(
        MasterClientContext.newBuilder(alluxio.getClientContext()).build());
    this.layouts = LayoutCache.create(coordinator, conf, ticker);
    this.io = Executors.newFixedThreadPool(ioThreads, daemonThreads("eccache-io-"));
    this.readAhead = Executors.newCachedThreadPool(daemonThreads("eccache-readahead-"));
    this.background = Executors.newSingleThreadExecutor(daemonThreads("eccache-background-"));
    this.pool = new DirectBufferPool(conf.getBytes(ClientKeys.BUFFER_POOL_SIZE));
    this.underStorePaths = new UnderStorePaths(conf.getString(SharedKeys.UFS_PREFIX));
    this.ioTimeoutMs = conf.getMs(ClientKeys.IO_TIMEOUT);
    this.logNodes = new LogNodeClient(alluxio.getClientContext(), ioTimeoutMs);
    this.watchdog = new ReadWatchdog(ticker, ReadWatchdog.tickFor(ioTimeoutMs),
        ReadWatchdog.quietFor(ioTimeoutMs));
    this.readChoice = conf.getEnum(ClientKeys.READ_CHOICE, ReadChoice.class);
    this.cpuLoad = CpuLoad.ofSystem(ticker);
    this.workerHealth = new WorkerHealth(ticker, conf.getMs(ClientKeys.WORKER_AVOID_TIME));
    this.smallObjectThreshold = conf.getBytes(SharedKeys.SMALL_OBJECT_THRESHOLD);
    this.sha256 = conf.getBoolean(ClientKeys.PUT_SHA256);
    this.streamWindowBytes = conf.getBytes(ClientKeys.STREAM_WINDOW);
    this.workerListRefreshMs = conf.getMs(PropertyKey.USER_WORKER_LIST_REFRESH_INTERVAL);
    this.maintenanceBandwidth = conf.getBytes(ClientKeys.MAINTENANCE_BANDWIDTH);
  }

  /** A context with its own Alluxio context, closed with it. */
  static ClientContext create(AlluxioConfiguration conf) {
    return create(conf, Ticker.systemTicker());
  }

  /** As {@link #create(AlluxioConfiguration)}, on the clock {@code ticker} (tests). */
  static ClientContext create(AlluxioConfiguration conf, Ticker ticker) {
    ioThreads(conf); // a bad value fails before the Alluxio context is made
    return new ClientContext(FileSystemContext.create(conf), true, ticker);
  }

  /** A context over the application's Alluxio context, which closing this one leaves open. */
  static ClientContext sharing(FileSystemContext alluxio) {
    return new ClientContext(alluxio, false, Ticker.systemTicker());
  }

  /** The split I/O threads configured; at least 1. Checks the layout cache's settings too. */
  private static int ioThreads(AlluxioConfiguration conf) {
    EcCacheKeys.registerAll();
    LayoutCache.check(conf);
    int ioThreads = conf.getInt(ClientKeys.IO_THREADS);
    if (ioThreads < 1) {
      throw new IllegalArgumentException(ClientKeys.IO_THREADS.getName() + " must be at least 1,"
          + " got " + ioThreads);
    }
    return ioThreads;
  }

  /** Daemon threads named {@code prefix} and a number. */
  static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  FileSystem fs() {
    return fs;
  }

  /**
   * The file system under-store copies are read through: an Alluxio context of its own whose block
   * reads retry for {@value #UNDER_STORE_BLOCK_READ_RETRY}, not for
   * alluxio.user.block.read.retry.max.duration (5 min by default): a copy deleted or replaced while
   * it is read fails every retry, and held its read that long. A copy that is still the version
   * being read is retried by the reader itself, up to the I/O timeout (UnderStore.CopyStream).
   */
  synchronized FileSystem underStoreReads() throws IOException {
    if (closed) {
      throw new IOException("the eccache client is closed");
    }
    if (underStoreReads == null) {
      InstancedConfiguration conf =
          new InstancedConfiguration(alluxio.getClusterConf().copyProperties());
      conf.set(PropertyKey.USER_BLOCK_READ_RETRY_MAX_DURATION, UNDER_STORE_BLOCK_READ_RETRY);
      underStoreReads = FileSystem.Factory.create(
          FileSystemContext.create(alluxio.getClientContext().getSubject(), conf));
    }
    return underStoreReads;
  }

  /** The Alluxio context: its worker clients and configuration (split reads use them). */
  FileSystemContext alluxio() {
    return alluxio;
  }

  /**
   * A stream writing the file at {@code uri} that the coordinator created already (empty,
   * incomplete), with {@code options} as a {@code createFile} would take them: as
   * {@link FileSystem#createFile} opens the file it created, without the CreateFile RPC. Its first
   * write asks the master for the block id and its close completes the file, as for any file.
   */
  FileOutStream openCreated(AlluxioURI uri, CreateFilePOptions options) throws IOException {
    AlluxioConfiguration conf = alluxio.getPathConf(uri);
    CreateFilePOptions merged = FileSystemOptionsUtils.createFileDefaults(conf).toBuilder()
        .mergeFrom(options).build();
    return new AlluxioFileOutStream(uri, new OutStreamOptions(merged, alluxio, conf), alluxio);
  }

  /**
   * Loads every block of the persisted file {@code status} into {@code worker}'s cache from the
   * file's under store, and returns the bytes loaded: Alluxio's CacheRequest, as {@code fs load}
   * and async caching send it, but synchronous (bounded by Alluxio's RPC retry duration). The
   * worker reads from the under store because the source named is itself.
   */
  long cacheOn(URIStatus status, alluxio.grpc.WorkerNetAddress worker) throws IOException {
    WorkerNetAddress to = GrpcUtils.fromProto(worker);
    InStreamOptions options = new InStreamOptions(status, alluxio.getClusterConf());
    long bytes = 0;
    for (FileBlockInfo b : status.getFileBlockInfos()) {
      long blockId = b.getBlockInfo().getBlockId();
      CacheRequest request = CacheRequest.newBuilder().setBlockId(blockId)
          .setLength(b.getBlockInfo().getLength())
          .setOpenUfsBlockOptions(options.getOpenUfsBlockOptions(blockId))
          .setSourceHost(to.getHost()).setSourcePort(to.getDataPort()).setAsync(false).build();
      try (CloseableResource<BlockWorkerClient> client = alluxio.acquireBlockWorkerClient(to)) {
        client.get().cache(request);
      }
      bytes += b.getBlockInfo().getLength();
    }
    return bytes;
  }

  /**
   * Asks {@code worker} to remove the blocks of {@code status} from its cache (Alluxio's
   * RemoveBlock, as its evict job sends it); a block it does not hold is skipped. The file stays,
   * and so does its under-store copy.
   */
  void uncacheOn(URIStatus status, alluxio.grpc.WorkerNetAddress worker) throws IOException {
    WorkerNetAddress from = GrpcUtils.fromProto(worker);
    try (CloseableResource<BlockWorkerClient> client = alluxio.acquireBlockWorkerClient(from)) {
      for (FileBlockInfo b : status.getFileBlockInfos()) {
        try {
          client.get().removeBlock(RemoveBlockRequest.newBuilder()
              .setBlockId(b.getBlockInfo().getBlockId()).build());
        } catch (StatusRuntimeException e) {
          if (e.getStatus().getCode() != Status.Code.NOT_FOUND) {
            throw AlluxioStatusException.fromStatusRuntimeException(e);
          }
        }
      }
    }
  }

  CoordinatorClient coordinator() {
    return coordinator;
  }

  /**
   * Waits (at most two worker-list refreshes) until this client knows every worker of
   * {@code workers} (the coordinator placed something there): a pinned write to a worker missing
   * from the client's list (one just started) fails with "no worker with enough space".
   */
  void awaitWorkersKnown(Collection<alluxio.grpc.WorkerNetAddress> workers) throws IOException {
    Set<String> wanted = new HashSet<>();
    for (alluxio.grpc.WorkerNetAddress w : workers) {
      wanted.add(w.getHost() + ":" + w.getRpcPort());
    }
    long deadline = ticker.read() + TimeUnit.MILLISECONDS.toNanos(2 * workerListRefreshMs + 1000);
    while (true) {
      Set<String> known = new HashSet<>();
      for (BlockWorkerInfo w : cachedWorkers()) {
        known.add(w.getNetAddress().getHost() + ":" + w.getNetAddress().getRpcPort());
      }
      if (known.containsAll(wanted) || ticker.read() - deadline > 0) {
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

  LogNodeClient logNodes() {
    return logNodes;
  }

  /** The storage forms' own I/O (packed values), made on first use. */
  synchronized ClientFormIo formIo() {
    if (formIo == null) {
      formIo = new ClientFormIo(this);
    }
    return formIo;
  }

  /** The layouts GETs reuse, and the reads served from them not yet reported. */
  LayoutCache layouts() {
    return layouts;
  }

  /** Split reads and writes. */
  ExecutorService io() {
    return io;
  }

  /** Bounds every split read at the I/O timeout, on an I/O thread or a GET's own. */
  ReadWatchdog readWatchdog() {
    return watchdog;
  }

  /** Streaming GETs' read-ahead of the next window. */
  ExecutorService readAhead() {
    return readAhead;
  }

  /** ASYNC persists and re-caching after a read from S3, one at a time. */
  ExecutorService background() {
    return background;
  }

  DirectBufferPool pool() {
    return pool;
  }

  UpdatePhases updatePhases() {
    return updatePhases;
  }

  ReadStatistics statistics() {
    return statistics;
  }

  /** The workers the Alluxio context knows now (refreshed every worker-list interval). */
  List<BlockWorkerInfo> cachedWorkers() throws IOException {
    return alluxio.getCachedWorkers();
  }

  UnderStorePaths underStorePaths() {
    return underStorePaths;
  }

  /** The longest wait for one step of split I/O ({@code alluxio.user.eccache.io.timeout}). */
  long ioTimeoutMs() {
    return ioTimeoutMs;
  }

  /** Which k + Δ splits a GET reads. */
  ReadChoice readChoice() {
    return readChoice;
  }

  /** This machine's CPU load, for the adaptive read choice. */
  CpuLoad cpuLoad() {
    return cpuLoad;
  }

  /** The client's clock. */
  Ticker ticker() {
    return ticker;
  }

  /** The workers this client's GETs avoid for now, having just failed to read from them. */
  WorkerHealth workerHealth() {
    return workerHealth;
  }

  /** Objects below this size are stored differently, so a PUT of unknown size looks this far ahead. */
  long smallObjectThreshold() {
    return smallObjectThreshold;
  }

  /** Whether a PUT that does not say computes the object's SHA-256. */
  boolean sha256() {
    return sha256;
  }

  /** Object bytes a streaming read holds per window. */
  long streamWindowBytes() {
    return streamWindowBytes;
  }

  long workerListRefreshMs() {
    return workerListRefreshMs;
  }

  /** Bytes per second a maintainer may read and write. */
  long maintenanceBandwidth() {
    return maintenanceBandwidth;
  }

  /** How long close() waits for split I/O to end before leaving the rest to a background thread. */
  private static final long QUICK_CLOSE_MS = 2000;

  /**
   * Closes in the order the class comment gives: in this thread when split I/O ends within
   * {@value #QUICK_CLOSE_MS} ms (the usual case), the last part behind otherwise.
   */
  @Override
  public void close() {
    background.shutdown();
    try {
      // Let a pending ASYNC persist finish (it is the object's only way to S3), within reason.
      background.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    background.shutdownNow();
    // No interrupts: a split read still finishing stops at its next slice by itself, and an
    // interrupted read also cancels its stream on the worker, which is work there for nothing.
    readAhead.shutdown();
    io.shutdown();
    watchdog.close();
    // Split reads still finishing (a late-binding extra) hold worker clients of the context: they
    // must give them back before the context closes, or those channels stay open for good. They
    // stop at their next slice, so this is usually at once: then the context closes here, while
    // the cluster surely still runs (Alluxio's final metrics heartbeat to a master that is gone
    // retries for minutes under a JVM-wide lock that every new FileSystemContext needs). If they
    // take longer, the rest waits for them in the background, not in close().
    if (terminated(QUICK_CLOSE_MS, readAhead, io)) {
      release();
      return;
    }
    Thread closer = new Thread(() -> {
      if (!terminated(TimeUnit.SECONDS.toMillis(30), readAhead, io)) {
        LOG.warn("eccache: split I/O still running 30 s after close(); closing anyway");
        readAhead.shutdownNow();
        io.shutdownNow();
      }
      release();
    }, "eccache-close");
    closer.setDaemon(true);
    closer.start();
  }

  /**
   * Whether every executor ended, and every split read (on an I/O thread or a GET's own), within
   * {@code ms} in all.
   */
  private boolean terminated(long ms, ExecutorService... executors) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
    try {
      for (ExecutorService executor : executors) {
        if (!executor.awaitTermination(Math.max(0, deadline - System.nanoTime()),
            TimeUnit.NANOSECONDS)) {
          return false;
        }
      }
      while (watchdog.running() > 0) {
        if (System.nanoTime() - deadline >= 0) {
          return false;
        }
        Thread.sleep(1); // a read still running (a GET's own thread) while the client closes
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Closes the coordinator client and, if it is ours, the Alluxio context. */
  private void release() {
    layouts.close(); // its last read report needs the coordinator client
    coordinator.close();
    logNodes.close();
    FileSystem reads;
    synchronized (this) {
      closed = true;
      reads = underStoreReads;
    }
    if (reads != null) {
      try {
        reads.close(); // its own context: ours whoever owns the main one
      } catch (IOException e) {
        // closing; nothing left to do with it
      }
    }
    if (ownsAlluxio) {
      try {
        fs.close(); // closes the context too (Alluxio's BaseFileSystem owns what it is given)
      } catch (IOException e) {
        // closing; nothing left to do with it
      }
    }
  }
}
