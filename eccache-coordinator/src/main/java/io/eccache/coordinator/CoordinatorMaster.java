package io.eccache.coordinator;

import alluxio.AlluxioURI;
import alluxio.Server;
import alluxio.clock.SystemClock;
import alluxio.conf.Configuration;
import alluxio.exception.AlluxioException;
import alluxio.exception.FileDoesNotExistException;
import alluxio.exception.status.FailedPreconditionException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.NotFoundException;
import alluxio.grpc.CreateDirectoryPOptions;
import alluxio.grpc.DeletePOptions;
import alluxio.grpc.FileSystemMasterCommonPOptions;
import alluxio.grpc.GetStatusPOptions;
import alluxio.grpc.GrpcService;
import alluxio.grpc.GrpcUtils;
import alluxio.grpc.ListStatusPOptions;
import alluxio.grpc.LoadMetadataPType;
import alluxio.grpc.ServiceType;
import alluxio.grpc.SetAttributePOptions;
import alluxio.grpc.WritePType;
import alluxio.master.AbstractMaster;
import alluxio.master.CoreMasterContext;
import alluxio.master.block.BlockMaster;
import alluxio.master.file.FileSystemMaster;
import alluxio.master.file.contexts.CreateDirectoryContext;
import alluxio.master.file.contexts.DeleteContext;
import alluxio.master.file.contexts.GetStatusContext;
import alluxio.master.file.contexts.ListStatusContext;
import alluxio.master.file.contexts.SetAttributeContext;
import alluxio.master.journal.NoopJournaled;
import alluxio.proto.journal.File.XAttrUpdateStrategy;
import alluxio.security.User;
import alluxio.security.authentication.AuthenticatedClientUser;
import alluxio.security.user.ServerUserState;
import alluxio.util.SecurityUtils;
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
import io.eccache.common.EcCacheKeys;
import io.eccache.common.ObjectPaths;
import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.AllocateRequest;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.CommitRequest;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.ListResponse;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import io.eccache.common.proto.StatsResponse;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
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
  private final long maxCellSize;
  /** Serialises the layout changes of one key (commit, markPersisted, delete). */
  private final Striped<Lock> keyLocks = Striped.lock(64);
  /** write id -> the allocation awaiting its commit, and when it was made. */
  private final ConcurrentHashMap<String, PendingWrite> pending = new ConcurrentHashMap<>();
  private final AtomicLong allocations = new AtomicLong();
  private final AtomicLong commits = new AtomicLong();
  private final AtomicLong lookups = new AtomicLong();
  private final AtomicLong workersLost = new AtomicLong();

  CoordinatorMaster(CoreMasterContext context, BlockMaster blockMaster,
      FileSystemMaster fileSystemMaster) {
    super(context, new SystemClock(), ExecutorServiceFactories.cachedThreadPool(NAME));
    this.blockMaster = blockMaster;
    this.fileSystemMaster = fileSystemMaster;
    this.paths = new ObjectPaths(Configuration.getString(EcCacheKeys.ROOT));
    this.allocationTimeoutMs = Configuration.getMs(EcCacheKeys.ALLOCATION_TIMEOUT);
    this.maxCellSize = Configuration.getBytes(EcCacheKeys.CELL_SIZE);
    // Registered once, here: start() runs again on every promotion. Placement reads the live list at
    // each allocation, so the listener only has to count.
    blockMaster.registerWorkerLostListener(address -> {
      workersLost.incrementAndGet();
      LOG.info("eccache: worker {}:{} lost; no new splits go there", address.getHost(),
          address.getRpcPort());
    });
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
    String scheme = request.getScheme().isEmpty() ? ObjectPaths.SCHEME_EC : request.getScheme();
    boolean replica = scheme.equals(ObjectPaths.SCHEME_REPLICA);
    if (!replica && !scheme.equals(ObjectPaths.SCHEME_EC)) {
      throw new InvalidArgumentException("unknown scheme '" + scheme + "': use '"
          + ObjectPaths.SCHEME_EC + "' or '" + ObjectPaths.SCHEME_REPLICA + "'");
    }
    int k = replica ? 1
        : request.getK() == 0 ? Configuration.getInt(EcCacheKeys.DEFAULT_K) : request.getK();
    int r = request.getR() < 0
        ? (replica ? Configuration.getInt(EcCacheKeys.SMALL_OBJECT_REPLICAS) - 1
            : Configuration.getInt(EcCacheKeys.DEFAULT_R))
        : request.getR();
    if (k < 1 || r < 0 || k + r > 255) {
      throw new InvalidArgumentException("invalid code k=" + k + ", r=" + r
          + ": need k >= 1, r >= 0 and k + r <= 255");
    }
    if (request.getObjectSize() < -1) {
      throw new InvalidArgumentException("object size must be >= 0 (or -1: not known yet), not "
          + request.getObjectSize());
    }
    List<WorkerInfo> live = blockMaster.getWorkerInfoList();
    if (k + r > live.size()) {
      throw new FailedPreconditionException("k + r = " + (k + r) + " splits need as many distinct"
          + " workers, but only " + live.size() + " are live: lower k or r, or add workers");
    }
    List<WorkerInfo> chosen = SplitPlacement.chooseDistinct(live, k + r, random);
    String writeId = UUID.randomUUID().toString();
    String dir = paths.writeDirectory(key, writeId);
    long size = request.getObjectSize();
    long cellSize = StripeGeometry.cellSizeFor(size, k, maxCellSize);
    long splitSize = size < 0 ? -1 : new StripeGeometry(size, k, cellSize).splitSize();
    Layout layout = Layout.newBuilder().setKey(key).setScheme(scheme).setK(k).setR(r)
        .setObjectSize(size).setCellSize(cellSize).setSplitSize(splitSize).setWriteId(writeId)
        .setDirectory(dir).build();
    asMaster(() -> {
      fileSystemMaster.createDirectory(new AlluxioURI(dir), CreateDirectoryContext.mergeFrom(
          CreateDirectoryPOptions.newBuilder().setRecursive(true).setAllowExists(true)
              .setWriteType(WritePType.MUST_CACHE)));
      return null;
    });
    expireAbandoned();
    pending.put(writeId, new PendingWrite(layout, System.currentTimeMillis()));
    allocations.incrementAndGet();
    AllocateResponse.Builder response = AllocateResponse.newBuilder().setLayout(layout);
    for (int i = 0; i < k + r; i++) {
      response.addSplits(Split.newBuilder().setIndex(i)
          .setPath(dir + "/" + ObjectPaths.splitName(i, k, scheme))
          .setWorker(GrpcUtils.toProto(chosen.get(i).getAddress())).setLive(true));
    }
    return response.build();
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
    int n = allocated.getK() + allocated.getR();
    long size = allocated.getObjectSize() >= 0 ? allocated.getObjectSize() : request.getObjectSize();
    if (size < 0) {
      throw new InvalidArgumentException("commit of a streamed PUT must give the object's size");
    }
    StripeGeometry geometry = new StripeGeometry(size, allocated.getK(), allocated.getCellSize());
    if (request.getCrc32CCount() != geometry.checksums(n)) {
      throw new InvalidArgumentException("commit has " + request.getCrc32CCount()
          + " checksums; " + n + " splits of " + geometry.stripes() + " stripes need "
          + geometry.checksums(n));
    }
    Layout layout = allocated.toBuilder().setObjectSize(size).setSplitSize(geometry.splitSize())
        .addAllCrc32C(request.getCrc32CList()).setPersisted(request.getPersisted()).build();
    String objectDir = paths.objectDirectory(key);
    Lock lock = keyLocks.get(key);
    lock.lock();
    try {
      commitLocked(layout, objectDir);
    } finally {
      lock.unlock();
    }
    pending.remove(request.getWriteId());
    commits.incrementAndGet();
  }

  /** Switches {@code objectDir} to {@code layout}; the caller holds the key's lock. */
  private void commitLocked(Layout layout, String objectDir) throws IOException, AlluxioException {
    int n = layout.getK() + layout.getR();
    asMaster(() -> {
      for (int i = 0; i < n; i++) {
        String split = layout.getDirectory() + "/"
            + ObjectPaths.splitName(i, layout.getK(), layout.getScheme());
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
      if (previous != null && !previous.getWriteId().equals(layout.getWriteId())) {
        deleteQuietly(previous.getDirectory());
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
          setLayout(objectDir, current.toBuilder().setPersisted(true).build());
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
    checkKey(key);
    lookups.incrementAndGet();
    return asMaster(() -> {
      Layout layout = readLayout(paths.objectDirectory(key));
      if (layout == null) {
        throw new NotFoundException("no object '" + key + "' in eccache: PUT it first");
      }
      Set<String> liveWorkers = new HashSet<>();
      for (WorkerInfo w : blockMaster.getWorkerInfoList()) {
        liveWorkers.add(w.getAddress().getHost() + ":" + w.getAddress().getRpcPort());
      }
      Map<String, FileInfo> files = new HashMap<>();
      for (FileInfo f : fileSystemMaster.listStatus(new AlluxioURI(layout.getDirectory()),
          noSyncList())) {
        files.put(f.getName(), f);
      }
      LookupResponse.Builder response = LookupResponse.newBuilder().setLayout(layout);
      int n = layout.getK() + layout.getR();
      for (int i = 0; i < n; i++) {
        String name = ObjectPaths.splitName(i, layout.getK(), layout.getScheme());
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
      return response.build();
    });
  }

  /** Removes {@code key}; returns whether it existed. */
  boolean delete(String key) throws IOException, AlluxioException {
    checkKey(key);
    Lock lock = keyLocks.get(key);
    lock.lock();
    try {
      return asMaster(() -> {
        String dir = paths.objectDirectory(key);
        if (readLayout(dir) == null) {
          return false;
        }
        fileSystemMaster.delete(new AlluxioURI(dir), DeleteContext.mergeFrom(
            DeletePOptions.newBuilder().setRecursive(true).setAlluxioOnly(true)));
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
        if (!ObjectPaths.keyOf(dir.getName()).startsWith(prefix)) {
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
    return StatsResponse.newBuilder().setLiveWorkers(blockMaster.getWorkerCount())
        .setObjects(list("").getObjectsCount()).setAllocations(allocations.get())
        .setCommits(commits.get()).setLookups(lookups.get()).setWorkersLost(workersLost.get())
        .build();
  }

  private static String checkKey(String key) throws InvalidArgumentException {
    try {
      return ObjectPaths.checkKey(key);
    } catch (IllegalArgumentException e) {
      throw new InvalidArgumentException(e.getMessage());
    }
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
    if (bytes == null) {
      return null; // allocated, never committed
    }
    try {
      return Layout.parseFrom(ByteString.copyFrom(bytes));
    } catch (InvalidProtocolBufferException e) {
      LOG.error("eccache: unreadable layout on {}: {}", dir.getPath(), e.toString());
      return null;
    }
  }

  private static GetStatusContext noSync() {
    return GetStatusContext.mergeFrom(GetStatusPOptions.newBuilder()
        .setLoadMetadataType(LoadMetadataPType.NEVER)
        .setCommonOptions(FileSystemMasterCommonPOptions.newBuilder().setSyncIntervalMs(-1)));
  }

  /** eccache's own directories live only in Alluxio: never look for them in the under store. */
  private static ListStatusContext noSyncList() {
    return ListStatusContext.mergeFrom(ListStatusPOptions.newBuilder()
        .setLoadMetadataType(LoadMetadataPType.NEVER)
        .setCommonOptions(FileSystemMasterCommonPOptions.newBuilder().setSyncIntervalMs(-1)));
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

  interface MasterCall<T> {
    T call() throws IOException, AlluxioException;
  }

  /**
   * Runs namespace operations as the master's own user (Alluxio's superuser), as Alluxio's REST
   * handlers do: eccache's directories belong to eccache, not to whichever client wrote first.
   */
  private static <T> T asMaster(MasterCall<T> call) throws IOException, AlluxioException {
    User previous = AuthenticatedClientUser.getOrNull();
    try {
      if (SecurityUtils.isSecurityEnabled(Configuration.global())) {
        AuthenticatedClientUser.set(ServerUserState.global().getUser().getName());
      }
      return call.call();
    } finally {
      if (previous != null) {
        AuthenticatedClientUser.set(previous);
      } else {
        AuthenticatedClientUser.remove();
      }
    }
  }
}
