package io.eccache.coordinator;

import static io.eccache.coordinator.MasterCalls.asMaster;
import static io.eccache.coordinator.MasterCalls.noSync;
import static io.eccache.coordinator.MasterCalls.noSyncList;

import alluxio.AlluxioURI;
import alluxio.Server;
import alluxio.clock.SystemClock;
import alluxio.conf.Configuration;
import alluxio.exception.AlluxioException;
import alluxio.exception.FileDoesNotExistException;
import alluxio.exception.status.AbortedException;
import alluxio.exception.status.FailedPreconditionException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.NotFoundException;
import alluxio.exception.status.UnavailableException;
import alluxio.grpc.CreateDirectoryPOptions;
import alluxio.grpc.DeletePOptions;
import alluxio.grpc.GrpcService;
import alluxio.grpc.GrpcUtils;
import alluxio.grpc.ServiceType;
import alluxio.grpc.SetAttributePOptions;
import alluxio.grpc.WritePType;
import alluxio.master.AbstractMaster;
import alluxio.master.CoreMasterContext;
import alluxio.master.block.BlockMaster;
import alluxio.master.file.FileSystemMaster;
import alluxio.master.file.contexts.CreateDirectoryContext;
import alluxio.master.file.contexts.DeleteContext;
import alluxio.master.file.contexts.SetAttributeContext;
import alluxio.master.journal.NoopJournaled;
import alluxio.metrics.MetricsSystem;
import alluxio.proto.journal.File.XAttrUpdateStrategy;
import alluxio.util.executor.ExecutorServiceFactories;
import alluxio.wire.BlockLocation;
import alluxio.wire.FileBlockInfo;
import alluxio.wire.FileInfo;
import alluxio.wire.WorkerInfo;
import alluxio.wire.WorkerNetAddress;
import com.google.common.collect.ImmutableSet;
import com.google.common.util.concurrent.Striped;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.eccache.common.EcCacheMetrics;
import io.eccache.common.MasterKeys;
import io.eccache.common.ObjectKeys;
import io.eccache.common.ObjectPaths;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.SharedKeys;
import io.eccache.common.StripeGeometry;
import io.eccache.common.UnderStorePaths;
import io.eccache.common.proto.AllocateRequest;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.ApplyChangeRequest;
import io.eccache.common.proto.ApplyChangeResponse;
import io.eccache.common.proto.CommitRequest;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.ListResponse;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.MaintenanceTask;
import io.eccache.common.proto.PlanResponse;
import io.eccache.common.proto.SchemeStats;
import io.eccache.common.proto.Split;
import io.eccache.common.proto.StatsResponse;
import io.eccache.policy.PopularityTracker;
import io.eccache.policy.SplitPlacement;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The eccache coordinator inside the Alluxio master: places splits, records committed layouts and
 * answers lookups. It plans and records; it never moves data.
 *
 * <p>Durable state is the layout xattr on each object's directory in Alluxio's namespace, journaled by
 * the FileSystemMaster; this master journals nothing itself ({@link NoopJournaled}). Uncommitted
 * allocations and counters are soft state, lost with a restart (an interrupted PUT is simply retried).
 */
public final class CoordinatorMaster extends AbstractMaster implements NoopJournaled {
  /** The master's unique name in Alluxio's registry and journal. */
  public static final String NAME = "EcCacheCoordinator";

  private static final Logger LOG = LoggerFactory.getLogger(CoordinatorMaster.class);

  private final BlockMaster blockMaster;
  private final FileSystemMaster fileSystemMaster;
  private final ObjectPaths paths;
  private final Random random = new SecureRandom();
  private final long allocationTimeoutMs;
  private final UnderStoreCopies underStore;
  private final NamespaceSweeper sweeper;
  private final long sweepIntervalMs;
  private final long maxCellSize;
  /** Serialises the layout changes of one key (commit, markPersisted, delete). */
  private final Striped<Lock> keyLocks = Striped.lock(64);
  /** write id -> the allocation awaiting its commit, and when it was made. */
  private final ConcurrentHashMap<String, PendingWrite> pending = new ConcurrentHashMap<>();
  private final AtomicLong allocations = new AtomicLong();
  private final AtomicLong commits = new AtomicLong();
  private final AtomicLong lookups = new AtomicLong();
  private final AtomicLong workersLost = new AtomicLong();

  // Popularity-driven redundancy: soft state, rebuilt from lookups after a restart.
  private final SchemeChooser chooser;
  private final PopularityTracker popularity;
  private final RedundancyPlanner planner;
  private final long retuneIntervalMs;
  private final long popularityPeriodMs;
  private final long leaseMs;
  /** Re-tuning passes and namespace sweeps (primary master only). */
  private ScheduledExecutorService retuner;
  /** Guarded by {@code this}: the last pass's plan and the tasks handed out. */
  private long lastRollMs = System.currentTimeMillis();
  private long lastPassMs = System.currentTimeMillis();
  private long lookupsAtLastPass;
  private final Deque<MaintenanceTask> queued = new ArrayDeque<>();
  private final Map<String, Lease> leases = new HashMap<>();
  private final Set<String> leasedKeys = new HashSet<>();
  private volatile Map<String, RedundancyScheme> targets = Map.of();
  private volatile Map<RedundancyScheme.Kind, SchemeStats> schemeStats = Map.of();
  private final AtomicLong splitsAdded = new AtomicLong();
  private final AtomicLong splitsDropped = new AtomicLong();
  private final AtomicLong splitsRepaired = new AtomicLong();
  private final AtomicLong repartitions = new AtomicLong();
  private final AtomicLong maintenanceBytes = new AtomicLong();
  private final AtomicLong tasksFailed = new AtomicLong();
  private final AtomicLong retunePasses = new AtomicLong();

  CoordinatorMaster(CoreMasterContext context, BlockMaster blockMaster,
      FileSystemMaster fileSystemMaster) {
    super(context, new SystemClock(), ExecutorServiceFactories.cachedThreadPool(NAME));
    this.blockMaster = blockMaster;
    this.fileSystemMaster = fileSystemMaster;
    this.paths = new ObjectPaths(Configuration.getString(MasterKeys.ROOT));
    this.allocationTimeoutMs = Configuration.getMs(MasterKeys.ALLOCATION_TIMEOUT);
    this.maxCellSize = Configuration.getBytes(MasterKeys.CELL_SIZE);
    UnderStorePaths ufsPaths = new UnderStorePaths(Configuration.getString(SharedKeys.UFS_PREFIX));
    ufsPaths.checkDisjointFrom(Configuration.getString(MasterKeys.ROOT));
    this.underStore = new UnderStoreCopies(fileSystemMaster, ufsPaths);
    long graceMs = Configuration.getMs(MasterKeys.RETIRED_GRACE);
    this.sweeper = new NamespaceSweeper(fileSystemMaster, paths, underStore, keyLocks, graceMs,
        allocationTimeoutMs);
    this.sweepIntervalMs = Math.max(200, Math.min(graceMs, allocationTimeoutMs) / 4);
    this.chooser = new SchemeChooser(
        NamespaceSchemes.parse(Configuration.getString(MasterKeys.NAMESPACE_SCHEMES)),
        RedundancyScheme.erasureCoded(Configuration.getInt(MasterKeys.DEFAULT_K),
            Configuration.getInt(MasterKeys.DEFAULT_R)),
        Configuration.getBytes(SharedKeys.SMALL_OBJECT_THRESHOLD),
        Configuration.getInt(MasterKeys.SMALL_OBJECT_REPLICAS));
    this.popularity = new PopularityTracker(Configuration.getDouble(MasterKeys.POPULARITY_WEIGHT));
    this.planner = new RedundancyPlanner(Configuration.getDouble(MasterKeys.MEMORY_OVERHEAD),
        Configuration.getBytes(MasterKeys.PARTITION_SERVER_BANDWIDTH));
    this.retuneIntervalMs = Configuration.getMs(MasterKeys.RETUNE_INTERVAL);
    this.popularityPeriodMs = Configuration.getMs(MasterKeys.POPULARITY_PERIOD);
    this.leaseMs = Configuration.getMs(MasterKeys.MAINTENANCE_LEASE);
    registerMetrics();
    // Registered once, here: start() runs again on every promotion. Placement reads the live list at
    // each allocation, so the listener only has to count.
    blockMaster.registerWorkerLostListener(address -> {
      workersLost.incrementAndGet();
      LOG.info("eccache: worker {}:{} lost; no new splits go there, its splits are planned for"
          + " repair", address.getHost(), address.getRpcPort());
      ScheduledExecutorService r = retuner;
      if (r != null) {
        r.execute(this::retuneQuietly);
      }
    });
  }

  /**
   * Publishes the counters and the last pass's memory per scheme as gauges in Alluxio's metrics
   * system, so they reach the master's sinks. Replaces those of an earlier instance in this JVM.
   */
  private void registerMetrics() {
    Map<String, LongSupplier> gauges = new LinkedHashMap<>();
    gauges.put(EcCacheMetrics.OBJECTS,
        () -> schemeStats.values().stream().mapToLong(SchemeStats::getObjects).sum());
    gauges.put(EcCacheMetrics.LOOKUPS, lookups::get);
    gauges.put(EcCacheMetrics.SPLITS_ADDED, splitsAdded::get);
    gauges.put(EcCacheMetrics.SPLITS_DROPPED, splitsDropped::get);
    gauges.put(EcCacheMetrics.SPLITS_REPAIRED, splitsRepaired::get);
    gauges.put(EcCacheMetrics.REPARTITIONS, repartitions::get);
    gauges.put(EcCacheMetrics.WORKERS_LOST, workersLost::get);
    gauges.put(EcCacheMetrics.TASKS_PENDING, () -> {
      synchronized (this) {
        return queued.size() + leases.size();
      }
    });
    for (RedundancyScheme.Kind kind : RedundancyScheme.Kind.values()) {
      gauges.put(EcCacheMetrics.cachedBytes(kind), () -> {
        SchemeStats st = schemeStats.get(kind);
        return st == null ? 0 : st.getCachedBytes();
      });
      gauges.put(EcCacheMetrics.objectBytes(kind), () -> {
        SchemeStats st = schemeStats.get(kind);
        return st == null ? 0 : st.getObjectBytes();
      });
    }
    gauges.forEach((name, value) -> {
      String metric = MetricsSystem.getMasterMetricName(name);
      MetricsSystem.removeMetrics(metric);
      MetricsSystem.registerGaugeIfAbsent(metric, value::getAsLong);
    });
  }

  @Override
  public void start(Boolean isPrimary) throws IOException {
    super.start(isPrimary);
    if (isPrimary) {
      retuner = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "eccache-retune");
        t.setDaemon(true);
        return t;
      });
      if (retuneIntervalMs > 0) {
        retuner.scheduleWithFixedDelay(this::retuneQuietly, retuneIntervalMs, retuneIntervalMs,
            TimeUnit.MILLISECONDS);
      }
      retuner.scheduleWithFixedDelay(this::sweepQuietly, sweepIntervalMs, sweepIntervalMs,
          TimeUnit.MILLISECONDS);
    }
  }

  @Override
  public void stop() throws IOException {
    ScheduledExecutorService r = retuner;
    retuner = null;
    if (r != null) {
      r.shutdownNow();
    }
    super.stop();
  }

  @Override
  public String getName() {
    return NAME;
  }

  @Override
  public Set<Class<? extends Server>> getDependencies() {
    return ImmutableSet.of(BlockMaster.class, FileSystemMaster.class);
  }

  @Override
  public Map<ServiceType, GrpcService> getServices() {
    Map<ServiceType, GrpcService> services = new HashMap<>();
    services.put(ServiceType.UNKNOWN_SERVICE, new GrpcService(new CoordinatorServiceHandler(this)));
    return services;
  }

  /** Places a new write of {@code key}: a layout and a distinct live worker per split. */
  AllocateResponse allocate(AllocateRequest request) throws IOException, AlluxioException {
    String key = checkKey(request.getKey());
    if (request.getObjectSize() < -1) {
      throw new InvalidArgumentException("object size must be >= 0 (or -1: not known yet), not "
          + request.getObjectSize());
    }
    Optional<RedundancyScheme> asked;
    try {
      asked = request.hasScheme() ? Optional.of(SchemeProtos.fromProto(request.getScheme()))
          : Optional.empty();
    } catch (IllegalArgumentException e) {
      throw new InvalidArgumentException("PUT of '" + key + "': " + e.getMessage());
    }
    SchemeChooser.Choice choice = chooser.choose(key, request.getObjectSize(), asked,
        request.getTuned());
    RedundancyScheme scheme = choice.scheme;
    int n = scheme.splits();
    List<WorkerInfo> live = blockMaster.getWorkerInfoList();
    if (n > live.size()) {
      throw new FailedPreconditionException(scheme.describe() + " has " + n + " splits, which need"
          + " as many distinct workers, but only " + live.size() + " are live: choose a scheme"
          + " with fewer splits, or add workers");
    }
    List<WorkerInfo> chosen = SplitPlacement.chooseDistinct(live, n, random);
    String writeId = UUID.randomUUID().toString();
    String dir = paths.writeDirectory(key, writeId);
    long size = request.getObjectSize();
    int k = scheme.dataSplits();
    long cellSize = StripeGeometry.cellSizeFor(size, k, maxCellSize);
    long splitSize = size < 0 ? -1 : checkedGeometry(key, size, scheme, cellSize).splitSize();
    Layout layout = Layout.newBuilder().setKey(key).setScheme(SchemeProtos.toProto(scheme))
        .setObjectSize(size).setCellSize(cellSize).setSplitSize(splitSize).setWriteId(writeId)
        .setDirectory(dir).setTuned(choice.tuned).build();
    asMaster(() -> {
      fileSystemMaster.createDirectory(new AlluxioURI(dir), CreateDirectoryContext.mergeFrom(
          CreateDirectoryPOptions.newBuilder().setRecursive(true).setAllowExists(true)
              .setWriteType(WritePType.MUST_CACHE)));
      return null;
    });
    expireAbandoned();
    pending.put(writeId, new PendingWrite(layout, System.currentTimeMillis()));
    allocations.incrementAndGet();
    AllocateResponse.Builder response = AllocateResponse.newBuilder().setLayout(layout)
        .setStagingPath(underStore.paths().stagingPath(writeId));
    for (int i = 0; i < n; i++) {
      response.addSplits(Split.newBuilder().setIndex(i)
          .setPath(dir + "/" + scheme.splitName(i))
          .setWorker(GrpcUtils.toProto(chosen.get(i).getAddress())).setLive(true));
    }
    return response.build();
  }

  /**
   * Late binding for writes: a live worker for a split of a pending write whose worker failed,
   * chosen uniformly among those holding none of the write's other splits.
   */
  io.eccache.common.proto.PlaceSplitResponse placeSplit(
      io.eccache.common.proto.PlaceSplitRequest request) throws IOException, AlluxioException {
    String key = checkKey(request.getKey());
    PendingWrite write = pending.get(request.getWriteId());
    if (write == null || !write.layout.getKey().equals(key)) {
      throw new NotFoundException("no pending write " + request.getWriteId() + " for key '" + key
          + "' (committed, abandoned or forgotten by a restarted master): PUT the object again");
    }
    Set<String> excluded = new HashSet<>();
    for (alluxio.grpc.WorkerNetAddress w : request.getExcludeList()) {
      excluded.add(w.getHost() + ":" + w.getRpcPort());
    }
    List<WorkerInfo> candidates = new ArrayList<>();
    for (WorkerInfo w : blockMaster.getWorkerInfoList()) {
      if (!excluded.contains(w.getAddress().getHost() + ":" + w.getAddress().getRpcPort())) {
        candidates.add(w);
      }
    }
    if (candidates.isEmpty()) {
      throw new FailedPreconditionException("no live worker is left for a split of '" + key
          + "' besides the " + excluded.size() + " its write uses: add workers or lower k + r");
    }
    WorkerInfo chosen = candidates.get(random.nextInt(candidates.size()));
    return io.eccache.common.proto.PlaceSplitResponse.newBuilder()
        .setWorker(GrpcUtils.toProto(chosen.getAddress())).build();
  }

  /** Makes a write visible: checks its splits exist, then switches the object's layout to it. */
  void commit(CommitRequest request) throws IOException, AlluxioException {
    String key = checkKey(request.getKey());
    PendingWrite write = pending.get(request.getWriteId());
    Layout allocated = write == null ? null : write.layout;
    if (allocated == null || !allocated.getKey().equals(key)) {
      throw new NotFoundException("no pending write " + request.getWriteId() + " for key '" + key
          + "': it was committed already, abandoned after "
          + allocationTimeoutMs / 1000 + " s, or the master restarted;"
          + " PUT the object again");
    }
    RedundancyScheme scheme = SchemeProtos.of(allocated);
    int n = scheme.splits();
    long size = allocated.getObjectSize() >= 0 ? allocated.getObjectSize() : request.getObjectSize();
    if (size < 0) {
      throw new InvalidArgumentException("commit of a streamed PUT must give the object's size");
    }
    StripeGeometry geometry = checkedGeometry(key, size, scheme, allocated.getCellSize());
    if (request.getCrc32CCount() != geometry.checksums(n)) {
      throw new InvalidArgumentException("commit has " + request.getCrc32CCount()
          + " checksums; " + n + " splits of " + geometry.stripes() + " stripes need "
          + geometry.checksums(n));
    }
    Layout.Builder committed = allocated.toBuilder().setObjectSize(size)
        .setSplitSize(geometry.splitSize()).addAllCrc32C(request.getCrc32CList());
    if (!request.getUfsPath().isEmpty()) {
      // Read-through: the bytes came from this under-store file, which is this version.
      committed.setPersisted(true).setUfsPath(request.getUfsPath())
          .setUfsFileId(request.getUfsFileId());
    }
    String objectDir = paths.objectDirectory(key);
    Lock lock = keyLocks.get(key);
    lock.lock();
    try {
      if (request.getPersisted()) {
        // THROUGH: the staged copy becomes the key's under-store copy under the same lock as the
        // layout switch, so S3 and the cache name the same version.
        FileInfo published = asMaster(() -> underStore.publish(key, allocated.getWriteId(), size));
        committed.setPersisted(true).setUfsPath(published.getPath())
            .setUfsFileId(published.getFileId());
      }
      if (request.getConditional()) {
        checkUnchanged(key, objectDir, request);
      }
      commitLocked(committed.build(), objectDir);
    } finally {
      lock.unlock();
    }
    pending.remove(request.getWriteId());
    commits.incrementAndGet();
  }

  /**
   * A re-caching commit stores what the under store held when it began: refused when the key was
   * written or deleted since, so it never brings back an older or deleted version.
   */
  private void checkUnchanged(String key, String objectDir, CommitRequest request)
      throws IOException, AlluxioException {
    asMaster(() -> {
      Layout current = readLayout(objectDir);
      String currentWrite = current == null ? "" : current.getWriteId();
      boolean same = currentWrite.equals(request.getExpectedWriteId());
      if (same && !request.getUfsPath().isEmpty()) {
        try {
          same = fileSystemMaster.getFileInfo(new AlluxioURI(request.getUfsPath()), noSync())
              .getFileId() == request.getUfsFileId();
        } catch (FileDoesNotExistException deleted) {
          same = false;
        }
      }
      if (!same) {
        throw new AbortedException("'" + key + "' was written or deleted while it was being"
            + " cached again from the under store: not re-cached");
      }
      return null;
    });
  }

  /** Switches {@code objectDir} to {@code layout}; the caller holds the key's lock. */
  private void commitLocked(Layout layout, String objectDir) throws IOException, AlluxioException {
    String key = layout.getKey();
    RedundancyScheme scheme = SchemeProtos.of(layout);
    asMaster(() -> {
      for (int i = 0; i < scheme.splits(); i++) {
        String split = layout.getDirectory() + "/" + scheme.splitName(i);
        FileInfo info = fileSystemMaster.getFileInfo(new AlluxioURI(split), noSync());
        if (!info.isCompleted() || info.getLength() != layout.getSplitSize()) {
          throw new FailedPreconditionException("split " + split + " is incomplete ("
              + info.getLength() + " of " + layout.getSplitSize() + " bytes): write every split"
              + " before committing");
        }
      }
      Layout previous = readLayout(objectDir);
      // One xattr update: readers see the old layout or this one, never a mix.
      setLayout(objectDir, layout);
      if (!layout.getPersisted()) {
        // A cache-only version: any copy of the key in S3 (an older THROUGH or ASYNC version,
        // evicted or not, or another tool's object) is stale now, and must not come back as the
        // object after an eviction. An overwrite in Alluxio removes it too.
        underStore.deleteQuietly(key);
      }
      if (previous != null && !previous.getWriteId().equals(layout.getWriteId())) {
        // Readers of the previous version finish it: its splits go after a grace period.
        sweeper.retire(previous.getDirectory(), previous.getWriteId(), System.currentTimeMillis());
      }
      return null;
    });
  }

  /**
   * Records that write {@code writeId} of {@code key} is now also in the under store, so readers may
   * fall back to it. Returns false when the key holds another write by now (or none).
   */
  boolean markPersisted(String key, String writeId) throws IOException, AlluxioException {
    checkKey(key);
    String objectDir = paths.objectDirectory(key);
    Lock lock = keyLocks.get(key);
    lock.lock();
    try {
      return asMaster(() -> {
        Layout current = readLayout(objectDir);
        if (current == null || !current.getWriteId().equals(writeId)) {
          return false;
        }
        if (!current.getPersisted()) {
          FileInfo published = underStore.publish(key, writeId, current.getObjectSize());
          setLayout(objectDir, current.toBuilder().setPersisted(true)
              .setUfsPath(published.getPath()).setUfsFileId(published.getFileId()).build());
        }
        return true;
      });
    } finally {
      lock.unlock();
    }
  }

  private void setLayout(String objectDir, Layout layout) throws IOException, AlluxioException {
    fileSystemMaster.setAttribute(new AlluxioURI(objectDir), SetAttributeContext.mergeFrom(
        SetAttributePOptions.newBuilder()
            .putXattr(ObjectPaths.LAYOUT_XATTR, layout.toByteString())
            .setXattrUpdateStrategy(XAttrUpdateStrategy.UNION_REPLACE)));
  }

  /** The committed layout of {@code key} and where every split is now. Counts the access. */
  LookupResponse lookup(String key) throws IOException, AlluxioException {
    return lookup(key, false);
  }

  /** As {@link #lookup(String)}; a {@code statOnly} lookup is not counted as an access. */
  LookupResponse lookup(String key, boolean statOnly) throws IOException, AlluxioException {
    checkKey(key);
    if (!statOnly) {
      lookups.incrementAndGet();
      popularity.record(key);
    }
    return asMaster(() -> {
      Layout layout = readLayout(paths.objectDirectory(key));
      if (layout == null) {
        throw new NotFoundException("no object '" + key + "' in eccache: PUT it first");
      }
      return describe(layout, liveWorkerIds())
          .setTarget(targets.containsKey(key) ? SchemeProtos.toProto(targets.get(key))
              : layout.getScheme())
          .setPopularity(popularity.popularity(key)).build();
    });
  }

  private Set<String> liveWorkerIds() throws UnavailableException {
    Set<String> live = new HashSet<>();
    for (WorkerInfo w : blockMaster.getWorkerInfoList()) {
      live.add(w.getAddress().getHost() + ":" + w.getAddress().getRpcPort());
    }
    return live;
  }

  /** The layout with every split's file status and live location. */
  private LookupResponse.Builder describe(Layout layout, Set<String> liveWorkers)
      throws IOException, AlluxioException {
    Map<String, FileInfo> files = new HashMap<>();
    for (FileInfo f : fileSystemMaster.listStatus(new AlluxioURI(layout.getDirectory()),
        noSyncList())) {
      files.put(f.getName(), f);
    }
    LookupResponse.Builder response = LookupResponse.newBuilder().setLayout(layout);
    RedundancyScheme scheme = SchemeProtos.of(layout);
    for (int i = 0; i < scheme.splits(); i++) {
      String name = scheme.splitName(i);
      Split.Builder split = Split.newBuilder().setIndex(i)
          .setPath(layout.getDirectory() + "/" + name);
      FileInfo info = files.get(name);
      WorkerNetAddress where = info == null ? null : location(info);
      if (info != null) {
        split.setStatus(GrpcUtils.toProto(info));
      }
      if (where != null) {
        split.setWorker(GrpcUtils.toProto(where))
            .setLive(liveWorkers.contains(where.getHost() + ":" + where.getRpcPort()));
      }
      response.addSplits(split);
    }
    return response;
  }

  /** The sweeper's pass, with abandoned allocations expired first (on a timer, not on demand). */
  private void sweepQuietly() {
    try {
      asMaster(() -> {
        expireAbandoned(); // eccache's directories are the master's: delete them as the master
        return null;
      });
      sweeper.sweep(System.currentTimeMillis(), pending::containsKey,
          CoordinatorMaster::parse);
    } catch (IOException | AlluxioException | RuntimeException e) {
      LOG.warn("eccache: namespace sweep failed; the next one retries: {}", e.toString());
    }
  }

  private void retuneQuietly() {
    try {
      retune();
    } catch (IOException | AlluxioException | RuntimeException e) {
      LOG.warn("eccache: re-tuning pass failed; the next one retries: {}", e.toString());
    }
  }

  /**
   * One planning pass: folds the popularity period if it is over, recomputes every object's
   * target redundancy under the budget, drops surplus parities and copies (metadata only), and
   * queues the repairs and additions for maintainers. Runs every alluxio.master.eccache.retune.interval
   * and when a worker is lost.
   */
  synchronized void retune() throws IOException, AlluxioException {
    long now = System.currentTimeMillis();
    if (now - lastRollMs >= popularityPeriodMs) {
      popularity.roll();
      lastRollMs = now;
    }
    long seenLookups = lookups.get();
    double rate = (seenLookups - lookupsAtLastPass) * 1000.0 / Math.max(1, now - lastPassMs);
    lookupsAtLastPass = seenLookups;
    lastPassMs = now;
    List<WorkerNetAddress> live = new ArrayList<>();
    for (WorkerInfo w : blockMaster.getWorkerInfoList()) {
      live.add(w.getAddress());
    }
    Set<String> liveIds = liveWorkerIds();
    List<RedundancyPlanner.ObjectState> states = new ArrayList<>();
    for (Layout layout : list("").getObjectsList()) {
      LookupResponse described;
      try {
        described = asMaster(() -> describe(layout, liveIds).build());
      } catch (FileDoesNotExistException replacedMeanwhile) {
        continue;
      }
      List<WorkerNetAddress> locations = new ArrayList<>();
      for (Split split : described.getSplitsList()) {
        locations.add(split.getLive() ? GrpcUtils.fromProto(split.getWorker()) : null);
      }
      states.add(new RedundancyPlanner.ObjectState(layout, locations,
          popularity.popularity(layout.getKey()),
          chooser.base(layout.getKey(), SchemeProtos.of(layout))));
    }
    RedundancyPlanner.Result plan = planner.plan(states, live, rate, random);
    targets = Map.copyOf(plan.targets);
    schemeStats = Map.copyOf(plan.schemes);
    for (RedundancyPlanner.Drop drop : plan.drops) {
      dropSplits(drop);
    }
    expireLeases(now);
    queued.clear();
    for (MaintenanceTask task : plan.tasks) {
      if (!leasedKeys.contains(task.getKey())) {
        queued.add(task);
      }
    }
    retunePasses.incrementAndGet();
  }

  /** Removes surplus parities or copies: the layout first (readers stop using them), then files. */
  private void dropSplits(RedundancyPlanner.Drop drop) throws IOException, AlluxioException {
    String objectDir = paths.objectDirectory(drop.key);
    Lock lock = keyLocks.get(drop.key);
    lock.lock();
    try {
      asMaster(() -> {
        Layout current = readLayout(objectDir);
        RedundancyScheme scheme = current == null ? null : SchemeProtos.of(current);
        if (current == null || !current.getWriteId().equals(drop.writeId)
            || scheme.splits() <= drop.to.splits() || scheme.kind() != drop.to.kind()) {
          return null;
        }
        StripeGeometry g = StripeGeometry.of(current);
        int keep = drop.to.splits();
        Layout smaller = current.toBuilder().setScheme(SchemeProtos.toProto(drop.to)).clearCrc32C()
            .addAllCrc32C(current.getCrc32CList().subList(0, g.checksums(keep))).build();
        setLayout(objectDir, smaller);
        for (int i = keep; i < scheme.splits(); i++) {
          deleteQuietly(current.getDirectory() + "/" + scheme.splitName(i));
        }
        splitsDropped.addAndGet(scheme.splits() - keep);
        return null;
      });
    } finally {
      lock.unlock();
    }
  }

  /** Hands out up to {@code max} maintenance tasks, at most one per object, each under a lease. */
  synchronized PlanResponse plan(int max) {
    expireLeases(System.currentTimeMillis());
    PlanResponse.Builder response = PlanResponse.newBuilder();
    for (var it = queued.iterator(); it.hasNext() && response.getTasksCount() < max; ) {
      MaintenanceTask task = it.next();
      it.remove();
      if (!leasedKeys.add(task.getKey())) {
        continue;
      }
      String id = UUID.randomUUID().toString();
      leases.put(id, new Lease(task, System.currentTimeMillis() + leaseMs));
      response.addTasks(task.toBuilder().setLease(id));
    }
    return response.build();
  }

  private void expireLeases(long now) {
    for (var it = leases.values().iterator(); it.hasNext(); ) {
      Lease lease = it.next();
      if (lease.deadlineMs < now) {
        it.remove();
        leasedKeys.remove(lease.task.getKey());
      }
    }
  }

  /** A maintainer reports a task done (or failed); records what it changed. */
  ApplyChangeResponse applyChange(ApplyChangeRequest request)
      throws IOException, AlluxioException {
    Lease lease;
    synchronized (this) {
      lease = leases.remove(request.getLease());
      if (lease != null) {
        leasedKeys.remove(lease.task.getKey());
      }
    }
    if (lease == null) {
      throw new NotFoundException("no maintenance task with lease " + request.getLease()
          + ": it expired after " + leaseMs / 1000 + " s and will be planned again");
    }
    maintenanceBytes.addAndGet(request.getBytes());
    MaintenanceTask task = lease.task;
    if (request.getFailed()) {
      tasksFailed.incrementAndGet();
      LOG.warn("eccache: {} of '{}' failed in a maintainer: {}", task.getKind(), task.getKey(),
          request.getError());
      return ApplyChangeResponse.newBuilder().setApplied(false).build();
    }
    switch (task.getKind()) {
      case ADD_SPLITS:
        return ApplyChangeResponse.newBuilder().setApplied(addSplits(task, request)).build();
      case REPAIR:
        splitsRepaired.addAndGet(Math.max(1, task.getSplitsCount()));
        return ApplyChangeResponse.newBuilder().setApplied(true).build();
      case REPARTITION:
        repartitions.incrementAndGet();
        return ApplyChangeResponse.newBuilder().setApplied(true).build();
      default:
        throw new InvalidArgumentException("unknown task kind " + task.getKind());
    }
  }

  /** Records parities (or copies) a maintainer wrote: one layout update, after checking them. */
  private boolean addSplits(MaintenanceTask task, ApplyChangeRequest request)
      throws IOException, AlluxioException {
    String objectDir = paths.objectDirectory(task.getKey());
    Lock lock = keyLocks.get(task.getKey());
    lock.lock();
    try {
      return asMaster(() -> {
        Layout current = readLayout(objectDir);
        int added = task.getSplitsCount();
        RedundancyScheme target = SchemeProtos.fromProto(task.getTarget());
        RedundancyScheme scheme = current == null ? null : SchemeProtos.of(current);
        if (current == null || !current.getWriteId().equals(task.getWriteId())
            || scheme.kind() != target.kind() || scheme.splits() != target.splits() - added) {
          return false; // replaced, deleted or re-tuned meanwhile: the new files stay unused
        }
        StripeGeometry g = StripeGeometry.of(current);
        if (request.getCrc32CCount() != g.checksums(added)) {
          throw new InvalidArgumentException("ADD_SPLITS of '" + task.getKey() + "' reported "
              + request.getCrc32CCount() + " checksums for " + added + " splits of "
              + g.stripes() + " stripes");
        }
        for (int index : task.getSplitsList()) {
          String split = current.getDirectory() + "/" + scheme.splitName(index);
          FileInfo info = fileSystemMaster.getFileInfo(new AlluxioURI(split), noSync());
          if (!info.isCompleted() || info.getLength() != current.getSplitSize()) {
            throw new FailedPreconditionException("new split " + split + " is incomplete");
          }
        }
        setLayout(objectDir, current.toBuilder().setScheme(task.getTarget())
            .addAllCrc32C(request.getCrc32CList()).build());
        splitsAdded.addAndGet(added);
        return true;
      });
    } finally {
      lock.unlock();
    }
  }

  /** A task handed to a maintainer and when it is given up on. */
  private static final class Lease {
    final MaintenanceTask task;
    final long deadlineMs;

    Lease(MaintenanceTask task, long deadlineMs) {
      this.task = task;
      this.deadlineMs = deadlineMs;
    }
  }

  /**
   * Removes {@code key} from the cache and, unless {@code cacheOnly}, its copies from the under
   * store (as {@code alluxio fs rm} does), so a GET no longer finds it anywhere. Returns whether
   * there was anything to remove. Readers of the removed version finish it (it is retired).
   */
  boolean delete(String key, boolean cacheOnly) throws IOException, AlluxioException {
    checkKey(key);
    Lock lock = keyLocks.get(key);
    lock.lock();
    try {
      return asMaster(() -> {
        // The under store first: if S3 refuses, the key is still whole in both.
        boolean existed = !cacheOnly && underStore.delete(key);
        String dir = paths.objectDirectory(key);
        Layout layout = readLayout(dir);
        if (layout == null) {
          return existed;
        }
        sweeper.retire(layout.getDirectory(), layout.getWriteId(), System.currentTimeMillis());
        if (fileSystemMaster.listStatus(new AlluxioURI(dir), noSyncList()).isEmpty()) {
          fileSystemMaster.delete(new AlluxioURI(dir), MasterCalls.alluxioOnlyRecursive());
        } else {
          // A PUT of the key is writing its splits here: the key is gone, its write may go on
          // (and commit a new version); the sweep removes the directory once it is empty.
          fileSystemMaster.setAttribute(new AlluxioURI(dir), SetAttributeContext.mergeFrom(
              SetAttributePOptions.newBuilder().putXattr(ObjectPaths.LAYOUT_XATTR, ByteString.EMPTY)
                  .setXattrUpdateStrategy(XAttrUpdateStrategy.DELETE_KEYS)));
        }
        popularity.forget(key);
        return true;
      });
    } finally {
      lock.unlock();
    }
  }

  /** Committed objects whose key starts with {@code prefix}. */
  ListResponse list(String prefix) throws IOException, AlluxioException {
    return asMaster(() -> {
      ListResponse.Builder response = ListResponse.newBuilder();
      List<FileInfo> objects;
      try {
        objects = fileSystemMaster.listStatus(new AlluxioURI(paths.objectsDirectory()),
            noSyncList());
      } catch (FileDoesNotExistException nothingYet) {
        return response.build();
      }
      for (FileInfo dir : objects) {
        String key = ObjectPaths.keyOf(dir.getName());
        if (key == null || !key.startsWith(prefix)) {
          continue;
        }
        Layout layout = parse(dir);
        if (layout != null) {
          response.addObjects(layout);
        }
      }
      return response.build();
    });
  }

  StatsResponse stats() throws IOException, AlluxioException {
    int pending;
    synchronized (this) {
      pending = queued.size() + leases.size();
    }
    return StatsResponse.newBuilder().setLiveWorkers(blockMaster.getWorkerCount())
        .setObjects(list("").getObjectsCount()).setAllocations(allocations.get())
        .setCommits(commits.get()).setLookups(lookups.get()).setWorkersLost(workersLost.get())
        .setSplitsAdded(splitsAdded.get()).setSplitsDropped(splitsDropped.get())
        .setSplitsRepaired(splitsRepaired.get()).setRepartitions(repartitions.get())
        .setMaintenanceBytes(maintenanceBytes.get()).setTasksPending(pending)
        .setTasksFailed(tasksFailed.get()).setRetunePasses(retunePasses.get())
        .addAllSchemes(schemeStats.values()).build();
  }

  private static String checkKey(String key) throws InvalidArgumentException {
    return ObjectKeys.check(key);
  }

  /** Most cells one layout may hold: their checksums live in one xattr. */
  private static final long MAX_CELLS = 1L << 22;

  /** The geometry of an object, refused with a typed error when it cannot be stored. */
  private static StripeGeometry checkedGeometry(String key, long size, RedundancyScheme scheme,
      long cellSize) throws InvalidArgumentException {
    int k = scheme.dataSplits();
    long stripeBytes = k * cellSize;
    long stripes = stripeBytes == 0 ? 0 : size / stripeBytes + (size % stripeBytes == 0 ? 0 : 1);
    if (stripes * scheme.splits() > MAX_CELLS) {
      throw new InvalidArgumentException("object '" + key + "' of " + size + " bytes is too large:"
          + " as " + scheme.describe() + " with " + cellSize + "-byte cells it needs " + stripes
          + " stripes, and a layout holds at most " + MAX_CELLS + " cells; store it in parts");
    }
    return new StripeGeometry(size, k, cellSize);
  }

  /** The worker caching a split file's (single) block, or null when none does. */
  private static WorkerNetAddress location(FileInfo info) {
    List<FileBlockInfo> blocks = info.getFileBlockInfos();
    if (blocks.isEmpty()) {
      return null;
    }
    List<BlockLocation> locations = blocks.get(0).getBlockInfo().getLocations();
    return locations.isEmpty() ? null : locations.get(0).getWorkerAddress();
  }

  private Layout readLayout(String objectDir) throws IOException, AlluxioException {
    try {
      return parse(fileSystemMaster.getFileInfo(new AlluxioURI(objectDir), noSync()));
    } catch (FileDoesNotExistException e) {
      return null;
    }
  }

  private static Layout parse(FileInfo dir) {
    Map<String, byte[]> xattrs = dir.getXAttr();
    byte[] bytes = xattrs == null ? null : xattrs.get(ObjectPaths.LAYOUT_XATTR);
    if (bytes == null || bytes.length == 0) {
      return null; // allocated and never committed, or deleted while a PUT was writing
    }
    try {
      Layout layout = Layout.parseFrom(ByteString.copyFrom(bytes));
      SchemeProtos.of(layout); // a layout without a valid scheme is unreadable, not an object
      return layout;
    } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
      LOG.error("eccache: unreadable layout on {}: {}", dir.getPath(), e.toString());
      return null;
    }
  }

  private void deleteQuietly(String dir) {
    try {
      fileSystemMaster.delete(new AlluxioURI(dir), DeleteContext.mergeFrom(
          DeletePOptions.newBuilder().setRecursive(true).setAlluxioOnly(true)));
    } catch (IOException | AlluxioException e) {
      LOG.warn("eccache: could not remove replaced write {}: {}", dir, e.toString());
    }
  }

  /** Forgets allocations never committed in time; their directories are removed. */
  private void expireAbandoned() {
    long cutoff = System.currentTimeMillis() - allocationTimeoutMs;
    for (Map.Entry<String, PendingWrite> e : new ArrayList<>(pending.entrySet())) {
      // remove(key, value): a write committed meanwhile is not touched.
      if (e.getValue().sinceMs < cutoff && pending.remove(e.getKey(), e.getValue())) {
        deleteQuietly(e.getValue().layout.getDirectory());
      }
    }
  }

  /** An allocation awaiting its commit. */
  private static final class PendingWrite {
    final Layout layout;
    final long sinceMs;

    PendingWrite(Layout layout, long sinceMs) {
      this.layout = layout;
      this.sinceMs = sinceMs;
    }
  }

}
