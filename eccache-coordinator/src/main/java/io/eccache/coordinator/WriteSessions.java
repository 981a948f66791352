package io.eccache.coordinator;

import alluxio.exception.AlluxioException;
import alluxio.exception.DirectoryNotEmptyException;
import alluxio.exception.FileDoesNotExistException;
import alluxio.exception.status.AbortedException;
import alluxio.exception.status.FailedPreconditionException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.NotFoundException;
import alluxio.exception.status.PermissionDeniedException;
import alluxio.grpc.GrpcUtils;
import alluxio.wire.FileInfo;
import alluxio.wire.WorkerInfo;
import io.eccache.common.ObjectKeys;
import io.eccache.common.ObjectPaths;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.AllocateRequest;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.CommitRequest;
import io.eccache.common.proto.CommitUpdateRequest;
import io.eccache.common.proto.CommitUpdateResponse;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.PlaceSplitRequest;
import io.eccache.common.proto.PlaceSplitResponse;
import io.eccache.common.proto.Split;
import io.eccache.coordinator.form.NamespacePort;
import io.eccache.coordinator.form.StorageForm;
import io.eccache.coordinator.form.WorkersPort;
import io.eccache.coordinator.form.WritePlan;
import io.eccache.policy.PopularityTracker;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * The write protocol clients drive, and delete: allocations awaiting their commit (soft state, lost
 * with a restart: an interrupted PUT is simply retried), a replacement worker for a split lost
 * mid-PUT, the commit that switches a key to a new version (conditional for re-caching, publishing
 * the staged under-store copy under the key's lock), marking a version persisted, and expiring
 * allocations never committed in time.
 *
 * <p>About 600 lines on purpose: every rule a version change obeys (key locks, conditional
 * commits, publish under the lock, retire instead of delete, who may allocate, commit and
 * publish) is in this one file, to be read and reviewed together; what differs between storage
 * forms (scheme, placement, where split files go, what a lookup sees) is each form's to decide
 * ({@link StorageForm}).
 */
final class WriteSessions {
  /** S3 probes running at once, at most (see {@link #probeUnderStore}). */
  private static final int MAX_PROBES = 16;
  /** Most cells one layout may hold: their checksums live in one xattr. */
  private static final long MAX_CELLS = 1L << 22;

  private final LayoutStore layouts;
  private final NamespacePort ns;
  private final WorkersPort workers;
  private final UnderStoreCopies underStore;
  private final NamespaceSweeper sweeper;
  private final PopularityTracker popularity;
  private final CoordinatorMetrics metrics;
  private final Clock clock;
  private final KeyAccess access;
  private final PrivateDirectories directories;
  private final long allocationTimeoutMs;
  private final long maxCellSize;
  private final Random random;
  /** The master's executor (exists while it runs): under-store probes run on it. */
  private final Supplier<ExecutorService> executor;
  /** Split files, created on the master's executor all at once. */
  private final FileCreator files;
  private final Semaphore probes = new Semaphore(MAX_PROBES);
  /** write id -> the allocation awaiting its commit, and when it was made. */
  private final ConcurrentHashMap<String, PendingWrite> pending = new ConcurrentHashMap<>();

  WriteSessions(LayoutStore layouts, WorkersPort workers,
      UnderStoreCopies underStore, NamespaceSweeper sweeper,
      PopularityTracker popularity, CoordinatorMetrics metrics, Clock clock, KeyAccess access,
      PrivateDirectories directories, long allocationTimeoutMs, long maxCellSize, Random random,
      Supplier<ExecutorService> executor) {
    this.layouts = layouts;
    this.ns = layouts.namespace();
    this.workers = workers;
    this.underStore = underStore;
    this.sweeper = sweeper;
    this.popularity = popularity;
    this.metrics = metrics;
    this.clock = clock;
    this.access = access;
    this.directories = directories;
    this.allocationTimeoutMs = allocationTimeoutMs;
    this.maxCellSize = maxCellSize;
    this.random = random;
    this.executor = executor;
    this.files = new FileCreator(ns, executor);
  }

  private ObjectPaths paths() {
    return layouts.paths();
  }

  /** Whether {@code writeId} is allocated and not yet committed nor expired. */
  boolean isPending(String writeId) {
    return pending.containsKey(writeId);
  }

  /**
   * Places a new write of {@code key} by {@code caller}, if it may write the key, as the key's
   * storage form plans it: a layout and a live worker per split, and the split files, owned by the
   * caller and private to it (or, for a form whose writer writes them through, their directory).
   */
  AllocateResponse allocate(Caller caller, AllocateRequest request)
      throws IOException, AlluxioException {
    String key = ObjectKeys.check(request.getKey());
    access.check(caller, key, KeyAccess.Action.PUT);
    directories.ensure();
    long size = request.getObjectSize();
    if (size < -1) {
      throw new InvalidArgumentException("object size must be >= 0 (or -1: not known yet), not "
          + size);
    }
    Optional<RedundancyScheme> asked;
    try {
      asked = request.hasScheme() ? Optional.of(SchemeProtos.fromProto(request.getScheme()))
          : Optional.empty();
    } catch (IllegalArgumentException e) {
      throw new InvalidArgumentException("PUT of '" + key + "': " + e.getMessage());
    }
    StorageForm form = layouts.forms().forKey(key);
    if (request.getInPlace() && size > 0 && asked.isEmpty() && form.updatesInPlace()) {
      // The value may be updated where it is kept (a packed value): its form's instructions.
      Layout current = layouts.readIfPresent(paths().objectDirectory(key));
      if (current != null) {
        Optional<AllocateResponse> update = layouts.forms().of(current).beginUpdate(current, size,
            new NamespacePort.Owner(caller.checked() ? caller.user() : null,
                access.primaryGroup(caller)));
        if (update.isPresent()) {
          if (update.get().hasUpdate()) {
            metrics.allocations.incrementAndGet();
          }
          return update.get();
        }
      }
    }
    WritePlan plan = form.plan(key, size, asked, request.getTuned(), workers.live());
    RedundancyScheme scheme = plan.scheme;
    int n = scheme.splits();
    String writeId = UUID.randomUUID().toString();
    String dir = paths().writeDirectory(key, writeId);
    long cellSize = StripeGeometry.cellSizeFor(size, scheme.dataSplits(), maxCellSize);
    long splitSize = size < 0 ? -1 : checkedGeometry(key, size, scheme, cellSize).splitSize();
    Layout.Builder layout = Layout.newBuilder().setKey(key).setScheme(SchemeProtos.toProto(scheme))
        .setObjectSize(size).setCellSize(cellSize).setSplitSize(splitSize).setWriteId(writeId)
        .setDirectory(dir).setTuned(plan.tuned).setWriter(writerOf(caller));
    layout = plan.layoutFields.apply(layout);
    List<String> splitPaths = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (plan.writeThrough()) {
        splitPaths.add(plan.throughPaths.path(i, writeId));
        layout.addSplitPaths(splitPaths.get(i)).addSplitRegions(plan.throughPaths.region(i));
      } else {
        splitPaths.add(dir + "/" + scheme.splitName(i));
      }
    }
    Layout current = layouts.readIfPresent(paths().objectDirectory(key));
    // Whether S3 holds a copy under the key's name, asked while the PUT writes its splits.
    CompletableFuture<Boolean> underStoreCopy = form.keepsCopyUnderKeyName()
        ? probeUnderStore(key) : CompletableFuture.completedFuture(false);
    expireAbandoned();
    // Pending before its first file exists: the sweep removes any write it finds not pending.
    PendingWrite write = new PendingWrite(layout.build(), clock.millis(),
        current == null ? "" : current.getWriteId(), underStoreCopy);
    pending.put(writeId, write);
    try {
      if (plan.writeThrough()) {
        // The writer creates the files where they live; the directory here holds no split, it
        // is what the sweep and retiring track the write by.
        ns.createDirectory(dir, NamespacePort.NewDirectory.ensured());
      } else {
        // The split files too, here in the master: the writer then makes no CreateFile call
        // (k + r client RPCs fewer, and one round of journal flushes less on the PUT's path).
        // Their directory comes first, on its own: it must be the master's and closed to listing
        // (PrivateDirectories), which a directory made as a missing parent would not be.
        // Owner-only: the writer completes them, and no one else reads them through the plain
        // API (readers get their blocks from Lookup, after the key's own check). A new key's
        // directory was made as a missing parent, listable: closed alongside the files.
        String owner = caller.checked() ? caller.user() : null;
        String group = access.primaryGroup(caller);
        directories.createWriteDirectory(dir, owner, group);
        files.create("write " + writeId, splitPaths, new NamespacePort.NewFile(
            StripeGeometry.splitBlockSize(splitSize), OWNER_ONLY, owner, group), current == null
                ? () -> directories.closeObjectDirectory(paths().objectDirectory(key)) : null);
      }
    } catch (IOException | AlluxioException | RuntimeException e) {
      abandon(writeId, write);
      throw e;
    }
    metrics.allocations.incrementAndGet();
    AllocateResponse.Builder response = AllocateResponse.newBuilder().setLayout(layout)
        .setSplitFilesCreated(!plan.writeThrough()).setWriteThrough(plan.writeThrough());
    if (form.keepsCopyUnderKeyName()) {
      response.setStagingPath(underStore.paths().stagingPath(writeId));
    }
    for (int i = 0; i < n; i++) {
      Split.Builder split = Split.newBuilder().setIndex(i).setPath(splitPaths.get(i))
          .setWorker(GrpcUtils.toProto(plan.workers.get(i).getAddress())).setLive(true);
      if (plan.writeThrough()) {
        split.setRegion(layout.getSplitRegions(i));
      }
      response.addSplits(split);
    }
    return response.build();
  }

  /**
   * Asks, while the PUT writes its splits, whether S3 holds a copy of {@code key}, so a cache-only
   * commit need not ask S3 on the PUT's path (see {@link #commitLocked}). Completes with true when
   * it cannot tell.
   */
  private CompletableFuture<Boolean> probeUnderStore(String key) {
    ExecutorService pool = executor.get();
    // With S3 slow or down, probes would hold a master thread each until S3's own timeouts: past
    // a few at once the commit asks S3 itself, as it would without them.
    if (pool == null || !probes.tryAcquire()) {
      return CompletableFuture.completedFuture(true);
    }
    try {
      return CompletableFuture.supplyAsync(() -> {
        try {
          return underStore.anyCopy(key);
        } catch (IOException | AlluxioException | RuntimeException e) {
          return true; // unknown: the commit asks S3 itself
        } finally {
          probes.release();
        }
      }, pool);
    } catch (RuntimeException e) {
      probes.release(); // not started (the master is stopping)
      return CompletableFuture.completedFuture(true);
    }
  }

  /**
   * Late binding for writes: a live worker for a split of a pending write whose worker failed,
   * chosen uniformly among those holding none of the write's other splits.
   */
  PlaceSplitResponse placeSplit(Caller caller, PlaceSplitRequest request)
      throws IOException, AlluxioException {
    String key = ObjectKeys.check(request.getKey());
    PendingWrite write = pending.get(request.getWriteId());
    if (write == null || !write.layout.getKey().equals(key)) {
      throw new NotFoundException("no pending write " + request.getWriteId() + " for key '" + key
          + "' (committed, abandoned or forgotten by a restarted master): PUT the object again");
    }
    checkWriter(caller, write, "place a split of");
    Set<String> excluded = new HashSet<>();
    for (alluxio.grpc.WorkerNetAddress w : request.getExcludeList()) {
      excluded.add(w.getHost() + ":" + w.getRpcPort());
    }
    List<WorkerInfo> candidates = new ArrayList<>();
    for (WorkerInfo w : workers.live()) {
      if (!excluded.contains(w.getAddress().getHost() + ":" + w.getAddress().getRpcPort())) {
        candidates.add(w);
      }
    }
    if (candidates.isEmpty() && layouts.forms().of(write.layout).splitsMayShareWorkers()) {
      candidates.addAll(workers.live());
    }
    if (candidates.isEmpty()) {
      throw new FailedPreconditionException("no live worker is left for a split of '" + key
          + "' besides the " + excluded.size() + " its write uses: add workers or lower k + r");
    }
    WorkerInfo chosen = candidates.get(random.nextInt(candidates.size()));
    return PlaceSplitResponse.newBuilder().setWorker(GrpcUtils.toProto(chosen.getAddress()))
        .build();
  }

  /**
   * Makes a write visible: checks its splits exist, then switches the object's layout to it. Only
   * the user who allocated the write may, and only while it may still write the key.
   */
  void commit(Caller caller, CommitRequest request) throws IOException, AlluxioException {
    String key = ObjectKeys.check(request.getKey());
    PendingWrite write = pending.get(request.getWriteId());
    Layout allocated = write == null ? null : write.layout;
    if (allocated == null || !allocated.getKey().equals(key)) {
      throw new NotFoundException("no pending write " + request.getWriteId() + " for key '" + key
          + "': it was committed already, abandoned after "
          + allocationTimeoutMs / 1000 + " s, or the master restarted;"
          + " PUT the object again");
    }
    checkWriter(caller, write, "commit");
    if (!request.getUfsPath().isEmpty()
        && !request.getUfsPath().equals(underStore.paths().objectPath(key))
        && !request.getUfsPath().equals(underStore.paths().legacyPath(key))
        && !request.getUfsPath().equals(underStore.paths().foreignPath(key))) {
      throw new InvalidArgumentException("a commit of '" + key + "' names " + request.getUfsPath()
          + " as its under-store copy, which is not one of the key's names ("
          + underStore.paths().objectPath(key) + ", its name before names were hashed, or its"
          + " plain path)");
    }
    if (!access.isAdministrator(caller)) {
      // Again at the commit, which replaces the key's copies in S3: the permissions may have
      // changed since the allocation, and a plain file at the key's path that only S3 held then
      // is in Alluxio's namespace now, with its own permissions. (An administrator passes every
      // check: no S3 request on its PUT's path.)
      if (!write.underStoreCopy.isDone() || write.underStoreCopy.join()) {
        underStore.loadIfOnlyInUnderStore(access.governingPath(key));
      }
      access.check(caller, key, KeyAccess.Action.PUT);
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
    if (!request.getSha256().isEmpty() && request.getSha256().size() != 32) {
      throw new InvalidArgumentException("commit has a " + request.getSha256().size()
          + "-byte sha256; a SHA-256 digest has 32 bytes");
    }
    // The wall clock, not the coordinator's adjustable one: this is a date shown to users (ls -l).
    Layout.Builder committed = allocated.toBuilder().setObjectSize(size)
        .setSplitSize(geometry.splitSize()).addAllCrc32C(request.getCrc32CList())
        .setSha256(request.getSha256()).setCommittedAtMs(System.currentTimeMillis());
    if (!request.getUfsPath().isEmpty()) {
      // Read-through: the bytes came from this under-store file, which is this version.
      committed.setPersisted(true).setUfsPath(request.getUfsPath())
          .setUfsFileId(request.getUfsFileId());
    }
    String objectDir = paths().objectDirectory(key);
    layouts.locked(key, () -> {
      if (request.getPersisted()) {
        // THROUGH: the staged copy becomes the key's under-store copy under the same lock as the
        // layout switch, so S3 and the cache name the same version.
        FileInfo published = underStore.publish(key, allocated.getWriteId(), size);
        committed.setPersisted(true).setUfsPath(published.getPath())
            .setUfsFileId(published.getFileId());
      }
      if (request.getConditional()) {
        checkUnchanged(key, objectDir, request);
      }
      commitLocked(committed.build(), objectDir, write);
      return null;
    });
    pending.remove(request.getWriteId());
    metrics.commits.incrementAndGet();
  }

  /**
   * A re-caching commit stores what the under store held when it began: refused when the key was
   * written or deleted since, so it never brings back an older or deleted version. Called as the
   * master under the key's lock.
   */
  private void checkUnchanged(String key, String objectDir, CommitRequest request)
      throws IOException, AlluxioException {
    Layout current = layouts.read(objectDir);
    String currentWrite = current == null ? "" : current.getWriteId();
    boolean same = currentWrite.equals(request.getExpectedWriteId());
    if (same && !request.getUfsPath().isEmpty()) {
      try {
        same = ns.status(request.getUfsPath()).getFileId() == request.getUfsFileId();
      } catch (FileDoesNotExistException deleted) {
        same = false;
      }
    }
    if (!same) {
      throw new AbortedException("'" + key + "' was written or deleted while it was being"
          + " cached again from the under store: not re-cached");
    }
  }

  /**
   * Switches {@code objectDir} to {@code layout}, the commit of {@code write}; called under the
   * key's lock.
   */
  private void commitLocked(Layout layout, String objectDir, PendingWrite write)
      throws IOException, AlluxioException {
    String key = layout.getKey();
    RedundancyScheme scheme = SchemeProtos.of(layout);
    for (int i = 0; i < scheme.splits(); i++) {
      String split = ObjectPaths.splitPath(layout, i);
      FileInfo info = ns.status(split);
      if (!info.isCompleted() || info.getLength() != layout.getSplitSize()) {
        throw new FailedPreconditionException("split " + split + " is incomplete ("
            + info.getLength() + " of " + layout.getSplitSize() + " bytes): write every split"
            + " before committing");
      }
    }
    Layout previous = layouts.read(objectDir);
    // One xattr update: readers see the old layout or this one, never a mix.
    layouts.write(objectDir, layout);
    layouts.forms().of(layout).committed(layout);
    if (!layout.getPersisted() && layouts.forms().of(layout).keepsCopyUnderKeyName()
        && mayHaveUnderStoreCopy(write, previous)) {
      // A cache-only version: any copy of the key in S3 (an older THROUGH or ASYNC version,
      // evicted or not, or another tool's object) is stale now, and must not come back as the
      // object after an eviction. An overwrite in Alluxio removes it too.
      underStore.deleteQuietly(key);
    }
    if (previous != null && !previous.getWriteId().equals(layout.getWriteId())) {
      // Readers of the previous version finish it: its splits go after a grace period.
      sweeper.retire(previous.getDirectory(), previous.getWriteId(), clock.millis());
      layouts.forms().of(previous).superseded(previous);
    }
  }

  /**
   * Whether S3 may hold a copy of the key a cache-only commit must remove. No when the probe made
   * at the allocation found none and no copy can have come since through eccache: the key still
   * holds the version it held then, and that version was not persisted meanwhile (a THROUGH
   * commit or an ASYNC persist publishes under the key's lock, and changes one or the other).
   * Another tool writing the key's S3 name while the PUT runs is concurrent with it, and may win.
   */
  private static boolean mayHaveUnderStoreCopy(PendingWrite write, Layout previous) {
    CompletableFuture<Boolean> probe = write.underStoreCopy;
    if (!probe.isDone() || probe.join()) {
      return true; // not answered yet (never waited for: the commit asks S3 itself), or yes
    }
    String previousWrite = previous == null ? "" : previous.getWriteId();
    return !previousWrite.equals(write.previousWriteId)
        || (previous != null && previous.getPersisted());
  }

  /**
   * Commits an update of {@code key}'s value where it is kept, begun by {@link #allocate}: its form
   * records the new version, under the key's lock.
   */
  CommitUpdateResponse commitUpdate(Caller caller, CommitUpdateRequest request)
      throws IOException, AlluxioException {
    String key = ObjectKeys.check(request.getKey());
    access.check(caller, key, KeyAccess.Action.PUT);
    String objectDir = paths().objectDirectory(key);
    CommitUpdateResponse response = layouts.locked(key, () -> {
      Layout current = layouts.read(objectDir);
      if (current == null) {
        throw new NotFoundException("'" + key + "' was deleted while update "
            + request.getUpdateId() + " ran: nothing was changed; PUT it again");
      }
      return layouts.forms().of(current).commitUpdate(current, request, writerOf(caller));
    });
    metrics.commits.incrementAndGet();
    return response;
  }

  /** Gives up an update of {@code key} begun by {@link #allocate}; nothing changes. */
  void abortUpdate(Caller caller, String key, long updateId) throws IOException, AlluxioException {
    ObjectKeys.check(key);
    access.check(caller, key, KeyAccess.Action.PUT);
    Layout current = layouts.readIfPresent(paths().objectDirectory(key));
    if (current != null) {
      layouts.forms().of(current).abortUpdate(current, updateId);
    }
  }

  /**
   * Records that write {@code writeId} of {@code key} is now also in the under store, so readers may
   * fall back to it. Returns false when the key holds another write by now (or none).
   */
  boolean markPersisted(Caller caller, String key, String writeId)
      throws IOException, AlluxioException {
    ObjectKeys.check(key);
    String objectDir = paths().objectDirectory(key);
    return layouts.locked(key, () -> {
      Layout current = layouts.read(objectDir);
      if (current == null || !current.getWriteId().equals(writeId)) {
        return false;
      }
      if (!caller.is(current.getWriter()) && !access.isAdministrator(caller)) {
        throw new PermissionDeniedException("user " + caller + " may not mark write " + writeId
            + " of '" + key + "' persisted: " + describeWriter(current.getWriter())
            + " wrote it, and only that user or an administrator may");
      }
      if (!current.getPersisted()) {
        FileInfo published = underStore.publish(key, writeId, current.getObjectSize());
        layouts.write(objectDir, current.toBuilder().setPersisted(true)
            .setUfsPath(published.getPath()).setUfsFileId(published.getFileId()).build());
      }
      return true;
    });
  }

  /**
   * Removes {@code key} from the cache and, unless {@code cacheOnly}, its copies from the under
   * store (as {@code alluxio fs rm} does), so a GET no longer finds it anywhere. Returns whether
   * there was anything to remove. Readers of the removed version finish it (it is retired).
   */
  boolean delete(Caller caller, String key, boolean cacheOnly)
      throws IOException, AlluxioException {
    ObjectKeys.check(key);
    if (!access.isAdministrator(caller)) {
      // A plain file at the key's path that only S3 holds is loaded first, so its own
      // permissions decide, as they would for Alluxio's own delete of it.
      underStore.loadIfOnlyInUnderStore(access.governingPath(key));
      access.check(caller, key, KeyAccess.Action.DELETE);
    }
    StorageForm form = layouts.forms().forKey(key);
    if (cacheOnly) {
      form.checkEvictable(key);
    }
    return layouts.locked(key, () -> {
      // The under store first: if S3 refuses, the key is still whole in both. A regional object's
      // splits in the regions go with its write's directory (the sweep, after the grace).
      boolean existed = !cacheOnly && form.keepsCopyUnderKeyName() && underStore.delete(key);
      String dir = paths().objectDirectory(key);
      Layout layout = layouts.read(dir);
      if (layout == null) {
        return existed;
      }
      sweeper.retire(layout.getDirectory(), layout.getWriteId(), clock.millis());
      layouts.forms().of(layout).superseded(layout);
      try {
        // Only if empty, checked by Alluxio as it deletes: a PUT of the key (which takes no key
        // lock) may be creating its write here right now.
        ns.delete(dir, NamespacePort.Removal.ALLUXIO_ONLY_IF_EMPTY);
      } catch (DirectoryNotEmptyException writing) {
        // A PUT of the key is writing its splits here: the key is gone, its write may go on
        // (and commit a new version); the sweep removes the directory once it is empty.
        layouts.remove(dir);
      }
      popularity.forget(key);
      return true;
    });
  }

  /** Forgets allocations never committed in time; their directories are removed. */
  void expireAbandoned() {
    long cutoff = clock.millis() - allocationTimeoutMs;
    for (Map.Entry<String, PendingWrite> e : new ArrayList<>(pending.entrySet())) {
      if (e.getValue().sinceMs < cutoff) {
        abandon(e.getKey(), e.getValue());
      }
    }
  }

  /** Forgets {@code write} and removes its directory, unless it was committed meanwhile. */
  private void abandon(String writeId, PendingWrite write) {
    if (pending.remove(writeId, write)) {
      layouts.deleteQuietly(write.layout.getDirectory());
    }
  }

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

  /** Split files and staged copies: their owner's alone. */
  private static final short OWNER_ONLY = 0600;

  private static String writerOf(Caller caller) {
    return caller.checked() ? caller.user() : "";
  }

  private static String describeWriter(String writer) {
    return writer.isEmpty() ? "another user (not recorded)" : "user " + writer;
  }

  /** Refuses a step of {@code write} by anyone but the user who allocated it. */
  private static void checkWriter(Caller caller, PendingWrite write, String what)
      throws PermissionDeniedException {
    if (!caller.is(write.layout.getWriter())) {
      throw new PermissionDeniedException("user " + caller + " may not " + what + " write "
          + write.layout.getWriteId() + " of '" + write.layout.getKey() + "': "
          + describeWriter(write.layout.getWriter()) + " allocated it, and only that user may");
    }
  }

  /** An allocation awaiting its commit. */
  private static final class PendingWrite {
    final Layout layout;
    final long sinceMs;
    /** The write id the key held at the allocation ("" for none). */
    final String previousWriteId;
    /** Whether S3 held a copy of the key at the allocation (true when it could not tell). */
    final CompletableFuture<Boolean> underStoreCopy;

    PendingWrite(Layout layout, long sinceMs, String previousWriteId,
        CompletableFuture<Boolean> underStoreCopy) {
      this.layout = layout;
      this.sinceMs = sinceMs;
      this.previousWriteId = previousWriteId;
      this.underStoreCopy = underStoreCopy;
    }
  }
}
