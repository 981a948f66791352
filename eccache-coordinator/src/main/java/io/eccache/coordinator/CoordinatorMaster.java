package io.eccache.coordinator;

import alluxio.Server;
import alluxio.conf.Configuration;
import alluxio.conf.PropertyKey;
import alluxio.exception.AlluxioException;
import alluxio.exception.status.NotFoundException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.grpc.GrpcService;
import alluxio.grpc.ServiceType;
import alluxio.heartbeat.HeartbeatExecutor;
import alluxio.master.AbstractMaster;
import alluxio.master.CoreMasterContext;
import alluxio.master.Master;
import alluxio.master.block.BlockMaster;
import alluxio.master.file.FileSystemMaster;
import alluxio.master.journal.NoopJournaled;
import alluxio.util.executor.ExecutorServiceFactories;
import com.google.common.collect.ImmutableSet;
import io.eccache.common.MasterKeys;
import io.eccache.common.ObjectKeys;
import io.eccache.common.ObjectPaths;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.RegionMounts;
import io.eccache.common.SchemeProtos;
import io.eccache.common.SharedKeys;
import io.eccache.common.UnderStorePaths;
import io.eccache.common.proto.AbortUpdateRequest;
import io.eccache.common.proto.AllocateRequest;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.ApplyChangeRequest;
import io.eccache.common.proto.ApplyChangeResponse;
import io.eccache.common.proto.CommitRequest;
import io.eccache.common.proto.CommitUpdateRequest;
import io.eccache.common.proto.CommitUpdateResponse;
import io.eccache.common.proto.ListResponse;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.PlaceSplitRequest;
import io.eccache.common.proto.PlaceSplitResponse;
import io.eccache.common.proto.PlanResponse;
import io.eccache.common.proto.RegisterLogNodeRequest;
import io.eccache.common.proto.RegisterLogNodeResponse;
import io.eccache.common.proto.StatsResponse;
import io.eccache.coordinator.form.FormContext;
import io.eccache.coordinator.form.HostPort;
import io.eccache.coordinator.form.StorageForm;
import io.eccache.coordinator.form.StorageForms;
import io.eccache.coordinator.form.packed.LogNodes;
import io.eccache.coordinator.form.packed.PackedForm;
import io.eccache.coordinator.form.regional.RegionalForm;
import io.eccache.coordinator.form.striped.NamespaceSchemes;
import io.eccache.coordinator.form.striped.SchemeChooser;
import io.eccache.coordinator.form.striped.StripedForm;
import io.eccache.common.proto.Layout;
import io.eccache.policy.PopularityTracker;
import io.eccache.policy.RedundancyPlanner;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The eccache coordinator inside the Alluxio master: places splits, records committed layouts and
 * answers lookups. It plans and records; it never moves data.
 *
 * <p>This class is lifecycle and wiring; the work is in its parts: the {@link LayoutStore} (layout
 * xattrs, key locks), {@link WriteSessions} (allocate, commit, mark persisted, delete),
 * the {@link MaintenanceQueue}, the {@link Retuner} and the namespace sweep (Alluxio heartbeats on
 * the primary master), and {@link CoordinatorMetrics}. Every request is decided as its
 * {@link Caller} by {@link KeyAccess} (Alluxio's permissions on the path that governs the key;
 * docs/security.md) before anything runs as the master; {@link PrivateDirectories} keeps eccache's
 * own directories closed, and {@link AuditLog} writes each request to Alluxio's audit log.
 *
 * <p>Near 400 lines: besides the wiring it keeps the small rules of the requests that have no
 * part of their own (lookup, read reports and listings, filtered by what the caller may read).
 *
 * <p>Durable state is the layout xattr on each object's directory in Alluxio's namespace, journaled by
 * the FileSystemMaster; this master journals nothing itself ({@link NoopJournaled}). Uncommitted
 * allocations and counters are soft state, lost with a restart (an interrupted PUT is simply retried).
 *
 * <p>Test hooks: {@link #clock()}, {@link #retuner()} and {@link #sweep()} let a test in the same JVM
 * advance time and run one re-tuning pass or sweep synchronously instead of sleeping.
 */
public final class CoordinatorMaster extends AbstractMaster implements NoopJournaled {
  /** The master's unique name in Alluxio's registry and journal. */
  public static final String NAME = "EcCacheCoordinator";

  private static final Logger LOG = LoggerFactory.getLogger(CoordinatorMaster.class);
  /** How often a log node announces itself again. */
  private static final long LOG_NODE_REANNOUNCE_MS = 10_000;
  /** How often the journals' waiting flushes are looked at ({@link JournalWakeup}). */
  private static final long JOURNAL_WAKEUP_INTERVAL_MS = 250;

  private final BlockMaster blockMaster;
  private final AdjustableClock clock;
  private final CoordinatorMetrics metrics = new CoordinatorMetrics();
  private final LayoutStore layouts;
  private final WriteSessions writes;
  private final MaintenanceQueue queue;
  private final Retuner retuner;
  private final SweepHeartbeat sweep;
  private final StorageForms forms;
  private final KeyAccess access;
  private final AuditLog auditLog = AuditLog.fromConfiguration();
  private final PrivateDirectories directories;
  private final JournalWakeup journalWakeup;
  /** The log nodes of packed namespaces, as their workers announce them. */
  private final LogNodes logNodes;
  private final long retuneIntervalMs;
  private final long sweepIntervalMs;
  /** Whether this master runs as the primary: only then do passes run. */
  private volatile boolean primary;

  CoordinatorMaster(CoreMasterContext context, BlockMaster blockMaster,
      FileSystemMaster fileSystemMaster) {
    this(context, blockMaster, fileSystemMaster, new AdjustableClock());
  }

  private CoordinatorMaster(CoreMasterContext context, BlockMaster blockMaster,
      FileSystemMaster fileSystemMaster, AdjustableClock clock) {
    super(context, clock, ExecutorServiceFactories.cachedThreadPool(NAME));
    this.blockMaster = blockMaster;
    this.clock = clock;
    Random random = new SecureRandom();
    ObjectPaths paths = new ObjectPaths(Configuration.getString(MasterKeys.ROOT));
    long allocationTimeoutMs = Configuration.getMs(MasterKeys.ALLOCATION_TIMEOUT);
    UnderStorePaths ufsPaths = new UnderStorePaths(Configuration.getString(SharedKeys.UFS_PREFIX));
    ufsPaths.checkDisjointFrom(Configuration.getString(MasterKeys.ROOT));
    // A healthy flush waits up to one batch; one waiting four batches and a second was forgotten.
    // The coordinator's clock, so a test that moves it sees a wake-up at once.
    long stallNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(1000,
        4 * Configuration.getMs(PropertyKey.MASTER_JOURNAL_FLUSH_BATCH_TIME_MS)));
    List<JournalWakeup.FlushQueue> journals =
        AlluxioFlushQueues.of(List.<Master>of(fileSystemMaster, blockMaster));
    this.journalWakeup = new JournalWakeup(() -> TimeUnit.MILLISECONDS.toNanos(clock.millis()),
        stallNanos, () -> journals);
    AlluxioNamespace namespace = new AlluxioNamespace(fileSystemMaster, blockMaster);
    UnderStoreCopies underStore = new UnderStoreCopies(namespace, ufsPaths);
    this.access = new KeyAccess(new AlluxioAccess(fileSystemMaster, namespace), ufsPaths);
    this.directories = new PrivateDirectories(namespace, paths, ufsPaths);
    SchemeChooser chooser = new SchemeChooser(
        NamespaceSchemes.parse(Configuration.getString(MasterKeys.NAMESPACE_SCHEMES)),
        RedundancyScheme.erasureCoded(Configuration.getInt(MasterKeys.DEFAULT_K),
            Configuration.getInt(MasterKeys.DEFAULT_R)),
        Configuration.getBytes(SharedKeys.SMALL_OBJECT_THRESHOLD),
        Configuration.getInt(MasterKeys.SMALL_OBJECT_REPLICAS));
    // The storage forms, asked in this order (the last takes every key): the one registration
    // a new form adds (docs/design.md, "Storage forms").
    NamespaceSweeper[] sweeperOf = new NamespaceSweeper[1];
    FormContext formContext = new CoordinatorFormContext(namespace, namespace, random, clock,
        paths, this::layoutStore, this::maintenanceQueue, () -> sweeperOf[0],
        this::getExecutorService);
    // Announcements are wall-clock events: a test moving the coordinator's clock ahead must not
    // make every log node look silent (and every stripe's log parity lost).
    this.logNodes = new LogNodes(java.time.Clock.systemUTC(), LOG_NODE_REANNOUNCE_MS);
    StripedForm striped = new StripedForm(chooser, namespace, random);
    this.forms = new StorageForms(List.of(
        new RegionalForm(formContext,
            RegionMounts.parse(Configuration.getString(MasterKeys.REGIONS)),
            Configuration.getString(MasterKeys.REGIONAL_NAMESPACES),
            Configuration.getString(MasterKeys.REGIONAL_SCHEME),
            Configuration.getString(MasterKeys.REGIONAL_POLICY),
            Configuration.getInt(MasterKeys.REGIONAL_CACHE_SPLITS),
            Configuration.getMs(MasterKeys.REGIONAL_PERIOD)),
        new PackedForm(formContext, Configuration.getString(MasterKeys.PACKED_NAMESPACES),
            striped, logNodes, Configuration.getMs(MasterKeys.PACKED_UPDATE_LEASE)),
        striped));
    this.layouts = new LayoutStore(namespace, namespace, paths, forms);
    long graceMs = Configuration.getMs(MasterKeys.RETIRED_GRACE);
    NamespaceSweeper sweeper = new NamespaceSweeper(namespace, paths, underStore,
        layouts.keyLocks(), graceMs, allocationTimeoutMs, forms);
    sweeperOf[0] = sweeper;
    this.sweepIntervalMs = Math.max(200, Math.min(graceMs, allocationTimeoutMs) / 4);
    // Popularity-driven redundancy: soft state, rebuilt from lookups after a restart.
    PopularityTracker popularity =
        new PopularityTracker(Configuration.getDouble(MasterKeys.POPULARITY_WEIGHT));
    RedundancyPlanner planner = new RedundancyPlanner(
        Configuration.getDouble(MasterKeys.MEMORY_OVERHEAD),
        Configuration.getBytes(MasterKeys.PARTITION_SERVER_BANDWIDTH));
    this.writes = new WriteSessions(layouts, namespace, underStore, sweeper, popularity, metrics,
        clock, access, directories, allocationTimeoutMs,
        Configuration.getBytes(MasterKeys.CELL_SIZE), random, this::getExecutorService);
    this.queue = new MaintenanceQueue(layouts, metrics, clock,
        Configuration.getMs(MasterKeys.MAINTENANCE_LEASE));
    this.retuner = new Retuner(layouts, popularity, chooser, planner, queue, metrics, clock,
        Configuration.getMs(MasterKeys.POPULARITY_PERIOD), random);
    this.sweep = new SweepHeartbeat(writes, sweeper, clock);
    this.retuneIntervalMs = Configuration.getMs(MasterKeys.RETUNE_INTERVAL);
    metrics.register(queue::pending);
    List<String> formHeartbeats = new ArrayList<>();
    for (StorageForm form : forms.all()) {
      form.periodic().forEach(work -> formHeartbeats.add(work.name));
    }
    Heartbeats.register(formHeartbeats);
    // Registered once, here: start() runs again on every promotion. Placement reads the live list at
    // each allocation, so the listener only has to count.
    // Lookups decide liveness from a view the layout store keeps; every change renews it.
    blockMaster.registerLostWorkerFoundListener(address -> layouts.workersChanged());
    blockMaster.registerWorkerDeleteListener(address -> layouts.workersChanged());
    blockMaster.registerNewWorkerConfListener((address, conf) -> layouts.workersChanged());
    blockMaster.registerWorkerLostListener(address -> {
      layouts.workersChanged();
      metrics.workersLost.incrementAndGet();
      LOG.info("eccache: worker {}:{} lost; no new splits go there, its splits are planned for"
          + " repair", address.getHost(), address.getRpcPort());
      retuneSoon();
    });
  }

  /** One re-tuning pass now, off the caller's thread (primary master only). */
  private void retuneSoon() {
    if (!primary) {
      return;
    }
    try {
      getExecutorService().execute(() -> retuner.heartbeat(Long.MAX_VALUE));
    } catch (RejectedExecutionException stopping) {
      // stopped meanwhile: the next primary plans the repair
    }
  }

  @Override
  public void start(Boolean isPrimary) throws IOException {
    super.start(isPrimary);
    auditLog.start();
    if (isPrimary) {
      directories.ensureQuietly();
      // As Alluxio's own masters: heartbeat threads on this master's executor, ended by stop().
      ExecutorService pool = getExecutorService();
      if (retuneIntervalMs > 0) {
        pool.submit(Heartbeats.thread(Heartbeats.RETUNE, retuner, retuneIntervalMs,
            mMasterContext.getUserState(), pool));
      }
      pool.submit(Heartbeats.thread(Heartbeats.SWEEP, sweep, sweepIntervalMs,
          mMasterContext.getUserState(), pool));
      pool.submit(Heartbeats.thread(Heartbeats.JOURNAL_WAKEUP, journalWakeup,
          JOURNAL_WAKEUP_INTERVAL_MS, mMasterContext.getUserState(), pool));
      for (StorageForm form : forms.all()) {
        for (StorageForm.Periodic work : form.periodic()) {
          pool.submit(Heartbeats.thread(work.name, work.executor, work.periodMs,
              mMasterContext.getUserState(), pool));
        }
      }
      primary = true;
    }
  }

  @Override
  public void stop() throws IOException {
    primary = false;
    super.stop();
    auditLog.stop();
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

  /**
   * Test hook: the coordinator's clock. Advance it, then run {@link #retuner()} or {@link #sweep()},
   * to let time pass without sleeping; undo an advance when done, the cluster may be shared.
   */
  public AdjustableClock clock() {
    return clock;
  }

  /**
   * The heartbeat that wakes a journal's flush thread for a flush it forgot ({@link
   * JournalWakeup}), for tests to tick; the primary master runs it every
   * {@value #JOURNAL_WAKEUP_INTERVAL_MS} ms.
   */
  public HeartbeatExecutor journalWakeup() {
    return journalWakeup;
  }

  /**
   * Test hook: the re-tuning heartbeat. {@code retuner().heartbeat(Long.MAX_VALUE)} runs one
   * planning pass in the caller's thread, as the heartbeat thread does every
   * {@code alluxio.master.eccache.retune.interval} (set it long to have only a test's passes run).
   */
  public HeartbeatExecutor retuner() {
    return retuner;
  }

  /** Test hook: the namespace sweep heartbeat; {@code heartbeat(...)} runs one sweep now. */
  public HeartbeatExecutor sweep() {
    return sweep;
  }

  /**
   * Test hook: the regional cache's period; a test runs one synchronously (reads counted, the
   * policy reconfigured, surplus splits freed, loads planned for maintainers).
   */
  public HeartbeatExecutor regionalCache() {
    return regionalForm().cache();
  }

  /**
   * Test and benchmark hook: replaces the regional cache's policy, as if the master had started
   * with {@code alluxio.master.eccache.regional.policy = policySpec} and {@code .cache.splits =
   * capacitySplits}, with no popularity yet; what is cached now is freed at the next period unless
   * the new policy wants it.
   *
   * @throws IllegalArgumentException for a policy the key does not take
   */
  public void useRegionalPolicy(String policySpec, int capacitySplits) {
    regionalForm().usePolicy(policySpec, capacitySplits);
  }

  private RegionalForm regionalForm() {
    return forms.find(RegionalForm.class).orElseThrow();
  }

  /** Who may do what to a key (the RPC handler names keys' governing paths in the audit log). */
  KeyAccess access() {
    return access;
  }

  AuditLog auditLog() {
    return auditLog;
  }

  AllocateResponse allocate(Caller caller, AllocateRequest request)
      throws IOException, AlluxioException {
    return writes.allocate(caller, request);
  }

  PlaceSplitResponse placeSplit(Caller caller, PlaceSplitRequest request)
      throws IOException, AlluxioException {
    return writes.placeSplit(caller, request);
  }

  void commit(Caller caller, CommitRequest request) throws IOException, AlluxioException {
    writes.commit(caller, request);
  }

  boolean markPersisted(Caller caller, String key, String writeId)
      throws IOException, AlluxioException {
    return writes.markPersisted(caller, key, writeId);
  }

  boolean delete(Caller caller, String key, boolean cacheOnly)
      throws IOException, AlluxioException {
    return writes.delete(caller, key, cacheOnly);
  }

  /**
   * The committed layout of {@code key} and where every split is now, if {@code caller} may read
   * it. Counts the access unless {@code statOnly}.
   */
  LookupResponse lookup(Caller caller, String key, boolean statOnly)
      throws IOException, AlluxioException {
    ObjectKeys.check(key);
    access.check(caller, key, KeyAccess.Action.READ);
    if (!statOnly) {
      metrics.lookups.incrementAndGet();
      retuner.recordAccess(key);
      forms.forKey(key).recordReads(key, 1);
    }
    LookupResponse.Builder described = layouts.describe(key);
    RedundancyScheme target = retuner.target(key);
    return described.setTarget(target != null ? SchemeProtos.toProto(target)
        : described.getLayout().getScheme()).setPopularity(retuner.popularity(key)).build();
  }

  /** The most keys one {@code ReportReads} may name (a client sends one report per second). */
  static final int MAX_REPORTED_KEYS = 100_000;
  /**
   * The most reads one report counts of one key: a client reports every second, and more than
   * this many GETs of one key in a second is no client's; larger counts are cut to it, so no one
   * report can make a key the most popular on its own.
   */
  static final long MAX_REPORTED_READS = 100_000;

  /**
   * Counts reads clients served from cached layouts as accesses, as a lookup counts
   * one: only keys {@code caller} may read, each at most {@link #MAX_REPORTED_READS} times. The
   * whole report is checked before anything is counted.
   *
   * @throws InvalidArgumentException for a bad key, a count below 1 or too many keys
   */
  void reportReads(Caller caller, Map<String, Long> reads) throws IOException, AlluxioException {
    if (reads.size() > MAX_REPORTED_KEYS) {
      throw new InvalidArgumentException("a read report names " + reads.size() + " keys, more"
          + " than " + MAX_REPORTED_KEYS + ": send it in parts");
    }
    long total = 0;
    for (Map.Entry<String, Long> e : reads.entrySet()) {
      ObjectKeys.check(e.getKey());
      if (e.getValue() < 1) {
        throw new InvalidArgumentException("a read report counts " + e.getValue() + " reads of '"
            + e.getKey() + "': each count must be at least 1");
      }
    }
    Map<String, Long> counted = new HashMap<>();
    Map<String, Boolean> memo = KeyAccess.memo();
    for (Map.Entry<String, Long> e : reads.entrySet()) {
      if (access.allows(caller, e.getKey(), KeyAccess.Action.READ, memo)) {
        long n = Math.min(e.getValue(), MAX_REPORTED_READS);
        counted.put(e.getKey(), n);
        total += n;
      }
    }
    counted.forEach(retuner::recordAccesses);
    counted.forEach((key, n) -> forms.forKey(key).recordReads(key, n));
    metrics.readsReported.addAndGet(total);
  }

  /** The keys under {@code prefix} that {@code caller} may read. */
  ListResponse list(Caller caller, String prefix) throws IOException, AlluxioException {
    ListResponse all = layouts.list(prefix);
    if (!caller.checked()) {
      return all;
    }
    ListResponse.Builder visible = ListResponse.newBuilder();
    Map<String, Boolean> memo = KeyAccess.memo();
    for (io.eccache.common.proto.Layout layout : all.getObjectsList()) {
      if (access.allows(caller, layout.getKey(), KeyAccess.Action.READ, memo)) {
        visible.addObjects(layout);
      }
    }
    return visible.build();
  }

  PlanResponse plan(Caller caller, int max) throws IOException {
    access.checkAdministrator(caller, "plan eccache's maintenance");
    return queue.plan(max);
  }

  ApplyChangeResponse applyChange(Caller caller, ApplyChangeRequest request)
      throws IOException, AlluxioException {
    access.checkAdministrator(caller, "apply maintenance changes to eccache's layouts");
    return queue.applyChange(request);
  }

  StatsResponse stats(Caller caller) throws IOException, AlluxioException {
    access.checkAdministrator(caller, "read eccache's cluster-wide statistics");
    int pending = queue.pending();
    List<Layout> committed = layouts.list("").getObjectsList();
    StatsResponse stats = metrics.stats(blockMaster.getWorkerCount(), committed.size(), pending);
    Set<HostPort> live = new HashSet<>();
    for (alluxio.wire.WorkerInfo w : blockMaster.getWorkerInfoList()) {
      live.add(HostPort.of(w.getAddress()));
    }
    StatsResponse.Builder out = stats.toBuilder();
    logNodes.live(live).forEach(node -> out.addLogNodes(node.address()));
    forms.all().forEach(form -> form.addStats(committed, out));
    return out.build();
  }

  RegisterLogNodeResponse registerLogNode(Caller caller, RegisterLogNodeRequest request)
      throws IOException, AlluxioException {
    access.checkAdministrator(caller, "announce a log node (only workers do)");
    alluxio.grpc.WorkerNetAddress worker = request.getWorker();
    try {
      logNodes.announce(new HostPort(worker.getHost(), worker.getRpcPort()), worker.getHost(),
          request.getPort(), request.getBoot());
    } catch (IllegalArgumentException e) {
      throw new InvalidArgumentException(e.getMessage());
    }
    return RegisterLogNodeResponse.newBuilder().setReregisterMs(logNodes.reannounceMs())
        .setUpdateKey(com.google.protobuf.ByteString.copyFrom(logNodes.updateKey())).build();
  }

  /** What became of an update of a packed stripe: a log node asks (Alluxio's superuser only). */
  io.eccache.common.proto.UpdateOutcomeResponse updateOutcome(Caller caller,
      io.eccache.common.proto.UpdateOutcomeRequest request) throws IOException, AlluxioException {
    access.checkAdministrator(caller, "ask about updates of packed stripes (only log nodes do)");
    PackedForm packed = form(PackedForm.class).orElseThrow(() -> new NotFoundException(
        "no packed namespaces here: no update of stripe " + request.getStripe()));
    return io.eccache.common.proto.UpdateOutcomeResponse.newBuilder().setOutcome(
        packed.updateOutcome(request.getStripe(), request.getUpdateId(),
            request.getBaseVersion())).build();
  }

  CommitUpdateResponse commitUpdate(Caller caller, CommitUpdateRequest request)
      throws IOException, AlluxioException {
    return writes.commitUpdate(caller, request);
  }

  void abortUpdate(Caller caller, AbortUpdateRequest request)
      throws IOException, AlluxioException {
    writes.abortUpdate(caller, request.getKey(), request.getUpdateId());
  }

  /** The registered storage form of class {@code type}, if any (tests run its work directly). */
  public <T extends StorageForm> java.util.Optional<T> form(Class<T> type) {
    return forms.find(type);
  }

  /** The log nodes announced so far (tests; the packed form's). */
  public LogNodes logNodes() {
    return logNodes;
  }

  /** The layout store, for the forms' context (made after the forms). */
  private LayoutStore layoutStore() {
    return layouts;
  }

  /** The maintenance queue, for the forms' context (made after the forms). */
  private MaintenanceQueue maintenanceQueue() {
    return queue;
  }
}
