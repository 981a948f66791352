package io.eccache.coordinator.form.packed;

import alluxio.exception.AlluxioException;
import alluxio.exception.FileDoesNotExistException;
import alluxio.exception.status.AbortedException;
import alluxio.exception.status.FailedPreconditionException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.NotFoundException;
import alluxio.grpc.GrpcUtils;
import alluxio.wire.FileInfo;
import alluxio.wire.WorkerInfo;
import com.google.protobuf.ByteString;
import io.eccache.common.ObjectPaths;
import io.eccache.common.PackedUnits;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.ApplyChangeRequest;
import io.eccache.common.proto.CommitUpdateRequest;
import io.eccache.common.proto.CommitUpdateResponse;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LogParity;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.MaintenanceTask;
import io.eccache.common.proto.PackedSeal;
import io.eccache.common.proto.PackedStats;
import io.eccache.common.proto.PackedSealed;
import io.eccache.common.proto.PackedSlot;
import io.eccache.common.proto.PackedUpdate;
import io.eccache.common.proto.PackedValue;
import io.eccache.common.proto.SealUnit;
import io.eccache.common.proto.SealValue;
import io.eccache.common.proto.Split;
import io.eccache.common.proto.Stripe;
import io.eccache.common.proto.StatsResponse;
import io.eccache.common.proto.StripeUnit;
import io.eccache.common.proto.UpdateOutcomeResponse;
import io.eccache.coordinator.form.FormContext;
import io.eccache.coordinator.form.HostPort;
import io.eccache.coordinator.form.NamespacePort;
import io.eccache.coordinator.form.SplitFiles;
import io.eccache.coordinator.form.StorageForm;
import io.eccache.coordinator.form.WritePlan;
import io.eccache.policy.SplitPlacement;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * LogECMem's packed values as a storage form (docs/lognode.md). A value of a packed namespace up to
 * the unit size is written as r + 1 replicas (the shared write path) and waits in its worker's unit
 * queue ({@link UnitQueues}); once k queues hold a full unit, the form submits a SEAL_STRIPE task:
 * a maintainer packs the values still current into k unit files, writes them and P1 on k + 1
 * workers and parities 2..r to log nodes, and reports the units; the form then records the stripe
 * ({@link StripeStore}) and points each value's layout at its slot, retiring its replicas. Larger
 * values are striped objects ({@code larger}).
 *
 * <p>A PUT of a sealed value of the same size updates it where it is ({@link #beginUpdate}); any
 * other PUT of a packed key stores a new version as replicas, and its old slot is dead. Stripes
 * with lost parts are repaired ({@link StripeRepairs}); sparse ones compacted and empty ones
 * dropped ({@link StripeCompactions}).
 */
public final class PackedForm implements StorageForm {
  private static final Logger LOG = LoggerFactory.getLogger(PackedForm.class);
  /** How soon a writer asks again whose update found the stripe busy with another. */
  private static final long UPDATE_RETRY_MS = 2;
  /** A unit file: its writer's alone, as split files (readers read its block after a lookup). */
  private static final short UNIT_MODE = 0600;
  /** How often the repair heartbeat looks whether workers or log nodes changed. */
  private static final long REPAIR_PERIOD_MS = 2000;
  /** How often the compaction heartbeat looks for sparse and empty stripes. */
  private static final long COMPACTION_PERIOD_MS = 30_000;

  private final FormContext context;
  private final Map<String, PackedNamespace> namespaces = new LinkedHashMap<>();
  private final StorageForm larger;
  private final LogNodes logNodes;
  private final StripeStore stripes;
  private final StripeRepairs repairs;
  private final StripeCompactions compactions;
  /** namespace -> its unit queues; guarded by {@code this}. */
  private final Map<String, UnitQueues> queues = new HashMap<>();

  /**
   * @param spec the namespaces, comma separated ({@link PackedNamespace#parse})
   * @param larger the form of a packed namespace's values larger than a unit
   * @param leaseMs how long a stripe mutation's lease holds
   * @throws IllegalArgumentException for a malformed spec, quoting the bad entry
   */
  public PackedForm(FormContext context, String spec, StorageForm larger, LogNodes logNodes,
      long leaseMs) {
    this.context = context;
    this.larger = larger;
    this.logNodes = logNodes;
    this.stripes = new StripeStore(context.namespace(), context.root() + "/packed",
        context.clock(), leaseMs);
    this.repairs = new StripeRepairs(context, stripes, logNodes);
    this.compactions = new StripeCompactions(context, stripes);
    for (String entry : spec.split(",")) {
      if (!entry.isBlank()) {
        PackedNamespace ns = PackedNamespace.parse(entry);
        if (namespaces.put(ns.name(), ns) != null) {
          throw new IllegalArgumentException("packed namespace '" + ns.name() + "' is named twice");
        }
      }
    }
  }

  /** The packed namespaces, by name. */
  public Map<String, PackedNamespace> namespaces() {
    return namespaces;
  }

  @Override
  public String name() {
    return "packed";
  }

  @Override
  public boolean takes(String key) {
    return namespaces.containsKey(ObjectPaths.namespaceOf(key));
  }

  @Override
  public boolean holds(Layout layout) {
    return layout.hasPacked();
  }

  @Override
  public boolean retuned() {
    return false; // r + 1 replicas until sealed, then the stripe's code
  }

  @Override
  public WritePlan plan(String key, long size, Optional<RedundancyScheme> asked, boolean tuned,
      List<WorkerInfo> live) throws IOException, AlluxioException {
    PackedNamespace ns = namespaces.get(ObjectPaths.namespaceOf(key));
    if (size < 1 || size > ns.unitSize()) {
      return larger.plan(key, size, asked, tuned, live); // not packed: an ordinary object
    }
    if (asked.isPresent()) {
      throw new InvalidArgumentException("'" + ns.name() + "' is a packed namespace (" + ns
          + "): its values are stored as the namespace says; PUT '" + key + "' without a scheme");
    }
    int copies = ns.code().paritySplits() + 1;
    if (live.size() < copies) {
      throw new FailedPreconditionException("a value of packed namespace " + ns + " waits for its"
          + " stripe as " + copies + " replicas on distinct workers, but only " + live.size()
          + " are live: add workers");
    }
    return WritePlan.inWriteDirectory(RedundancyScheme.replicated(copies), false,
        SplitPlacement.chooseDistinct(live, copies, context.random()))
        .withLayoutFields(layout -> layout.setPacked(PackedValue.getDefaultInstance()));
  }

  @Override
  public LookupResponse.Builder describe(Layout layout, Set<HostPort> live)
      throws IOException, AlluxioException {
    long id = layout.getPacked().getStripe();
    if (id == 0) {
      return larger.describe(layout, live); // its replicas, read as any replicated object
    }
    Stripe stripe = stripes.read(id);
    if (stripe == null) {
      throw new NotFoundException("'" + layout.getKey() + "' names stripe " + id + ", which is"
          + " gone: the value is lost from the cache");
    }
    return LookupResponse.newBuilder().setLayout(layout).setStripe(stripe)
        .addAllSplits(unitSplits(stripe, live));
  }

  /** The stripe's unit files as a lookup describes splits: status, worker, whether live. */
  private List<Split> unitSplits(Stripe stripe, Set<HostPort> live)
      throws IOException, AlluxioException {
    Map<String, FileInfo> files = new HashMap<>();
    for (FileInfo f : context.namespace().list(stripes.directory(stripe.getId()),
        NamespacePort.Load.NEVER)) {
      files.put(f.getPath(), f);
    }
    List<Split> splits = new ArrayList<>();
    for (int i = 0; i < stripe.getUnitsCount(); i++) {
      Split.Builder split = Split.newBuilder().setIndex(i);
      FileInfo info = files.get(stripe.getUnits(i).getPath());
      if (info != null) {
        SplitFiles.describe(split, info, live);
      } else {
        split.setPath(stripe.getUnits(i).getPath());
      }
      splits.add(split.build());
    }
    return splits;
  }

  /** Parity rows a namespace's stripes keep in the cache: P1 (hybrid), or all r (in-place). */
  private static int cachedParities(PackedNamespace ns) {
    return ns.updateMode() == PackedNamespace.UpdateMode.INPLACE ? ns.code().paritySplits() : 1;
  }

  @Override
  public void committed(Layout layout) throws IOException, AlluxioException {
    if (layout.getPacked().getStripe() != 0) {
      return;
    }
    PackedNamespace ns = namespaces.get(ObjectPaths.namespaceOf(layout.getKey()));
    if (ns == null) {
      return; // the namespace is no longer packed: the value stays replicated
    }
    List<WorkerInfo> live = context.workers().live();
    synchronized (this) {
      UnitQueues q = queues.computeIfAbsent(ns.name(),
          n -> new UnitQueues(ns.code().dataSplits(), ns.unitSize()));
      q.add(queueOf(layout.getKey(), live), new UnitQueues.Value(layout.getKey(),
          layout.getWriteId(), (int) layout.getObjectSize()));
      sealReady(ns, q, live);
    }
  }

  /** The worker whose queue a key's value joins: the key's hash over the live workers. */
  private static String queueOf(String key, List<WorkerInfo> live) {
    List<String> ids = new ArrayList<>();
    for (WorkerInfo w : live) {
      ids.add(HostPort.of(w.getAddress()).toString());
    }
    ids.sort(null);
    return ids.get(Math.floorMod(key.hashCode(), ids.size()));
  }

  /** Submits a seal for every stripe's worth of full units, while log nodes and workers allow. */
  private void sealReady(PackedNamespace ns, UnitQueues q, List<WorkerInfo> live)
      throws IOException, AlluxioException {
    int k = ns.code().dataSplits();
    int r = ns.code().paritySplits();
    int cached = cachedParities(ns);
    List<LogNodes.Node> nodes = logNodes.live(context.liveWorkerIds());
    if (nodes.size() < r - cached || live.size() < k + cached) {
      return; // the values stay replicated until enough log nodes and workers are live
    }
    Map<String, WorkerInfo> byId = new HashMap<>();
    for (WorkerInfo w : live) {
      byId.put(HostPort.of(w.getAddress()).toString(), w);
    }
    for (Optional<List<UnitQueues.Unit>> units = q.takeStripe(); units.isPresent();
        units = q.takeStripe()) {
      long id = 1 + (context.random().nextLong() >>> 2); // random, positive: never reused
      PackedSeal.Builder seal = PackedSeal.newBuilder().setStripe(id).setNamespace(ns.name())
          .setDataUnits(k).setParityUnits(r).setUnitSize(ns.unitSize())
          .setDirectory(stripes.directory(id));
      List<WorkerInfo> placed = new ArrayList<>();
      for (UnitQueues.Unit unit : units.get()) {
        SealUnit.Builder sealUnit = SealUnit.newBuilder();
        for (UnitQueues.Value v : unit.values) {
          sealUnit.addValues(SealValue.newBuilder().setKey(v.key).setWriteId(v.writeId));
        }
        seal.addUnits(sealUnit);
        WorkerInfo w = byId.get(unit.worker);
        if (w != null && !placed.contains(w)) {
          placed.add(w);
        } else {
          placed.add(null); // its worker was lost: placed below on another
        }
      }
      for (int p = 0; p < cached; p++) {
        placed.add(null); // the cached parities: P1, or all r
      }
      List<WorkerInfo> free = new ArrayList<>(live);
      free.removeAll(placed);
      List<WorkerInfo> spare = SplitPlacement.chooseDistinct(free,
          (int) placed.stream().filter(w -> w == null).count(), context.random());
      for (int i = 0, s = 0; i < placed.size(); i++) {
        WorkerInfo w = placed.get(i) != null ? placed.get(i) : spare.get(s++);
        seal.addWorkers(GrpcUtils.toProto(w.getAddress()));
      }
      for (LogNodes.Node node : SplitPlacement.chooseDistinct(nodes, r - cached,
          context.random())) {
        seal.addLogNodes(node.address());
      }
      context.submit(MaintenanceTask.newBuilder().setKind(MaintenanceTask.Kind.SEAL_STRIPE)
          .setKey("stripe:" + id).setSeal(seal).build());
    }
  }

  /**
   * A PUT of a sealed value of the same size, in a hybrid or in-place namespace, is an update
   * where the value is: the stripe is leased for it, and the writer told which units to rewrite
   * (the data unit and P1, or the data unit and every parity) and where their next version goes.
   * A full-stripe namespace's update is a new write (FSMem: appended to an open unit, the old slot
   * invalidated), as is any other PUT of a packed key.
   */
  @Override
  public boolean updatesInPlace() {
    return true;
  }

  @Override
  public Optional<AllocateResponse> beginUpdate(Layout current, long size,
      NamespacePort.Owner writer) throws IOException, AlluxioException {
    long id = current.getPacked().getStripe();
    PackedNamespace ns = namespaces.get(ObjectPaths.namespaceOf(current.getKey()));
    if (id == 0 || ns == null || ns.updateMode() == PackedNamespace.UpdateMode.FULLSTRIPE) {
      return Optional.empty();
    }
    long updateId = 1 + (context.random().nextLong() >>> 2);
    Stripe stripe;
    try {
      stripe = stripes.lease(id, Long.toString(updateId));
    } catch (AbortedException busy) {
      // Another update of the stripe: a normal wait, not an error (no failed RPC, no log line).
      return Optional.of(AllocateResponse.newBuilder().setRetryAfterMs(UPDATE_RETRY_MS).build());
    }
    PackedSlot slot = slotOf(current, stripe);
    if (slot == null || slot.getLength() != size) {
      stripes.release(id, Long.toString(updateId));
      return Optional.empty(); // another size: a new version, the old slot dead
    }
    int unit = current.getPacked().getUnit();
    int k = stripe.getDataUnits();
    PackedUpdate.Builder update = PackedUpdate.newBuilder().setUpdateId(updateId)
        .setMode(ns.updateMode() == PackedNamespace.UpdateMode.INPLACE
            ? PackedUpdate.Mode.INPLACE : PackedUpdate.Mode.HYBRID)
        .setStripe(stripe).addAllSplits(unitSplits(stripe, context.liveWorkerIds()))
        .setUnit(unit).setSlot(slot).setLeaseMs(stripes.leaseMs()).setFilesCreated(true)
        .setCapability(ByteString.copyFrom(logNodes.capability(id, updateId,
            stripe.getVersion())));
    for (int i : rewritten(stripe, unit)) {
      update.addRewrite(i).addRewritePaths(PackedUnits.path(stripes.directory(id), i, k,
          stripe.getVersion() + 1));
    }
    try {
      // The writer's, as a new write's split files are; replacing those of an update of this
      // version that never committed.
      context.createFiles("update " + updateId + " of stripe " + id,
          update.getRewritePathsList(),
          new NamespacePort.NewFile(stripe.getUnitSize(), UNIT_MODE, writer).replacing());
    } catch (IOException | AlluxioException | RuntimeException e) {
      stripes.release(id, Long.toString(updateId));
      throw e;
    }
    return Optional.of(AllocateResponse.newBuilder().setUpdate(update).build());
  }

  /** The units an update of data unit {@code unit} rewrites: it, then every cached parity. */
  private static List<Integer> rewritten(Stripe stripe, int unit) {
    List<Integer> units = new ArrayList<>();
    units.add(unit);
    for (int i = stripe.getDataUnits(); i < stripe.getUnitsCount(); i++) {
      units.add(i);
    }
    return units;
  }

  /** The slot {@code layout} points at, if it still holds that key's version; else null. */
  private static PackedSlot slotOf(Layout layout, Stripe stripe) {
    PackedValue at = layout.getPacked();
    if (at.getUnit() >= stripe.getDataUnits()
        || at.getSlot() >= stripe.getUnits(at.getUnit()).getSlotsCount()) {
      return null;
    }
    PackedSlot slot = stripe.getUnits(at.getUnit()).getSlots(at.getSlot());
    return slot.getKey().equals(layout.getKey()) && slot.getWriteId().equals(layout.getWriteId())
        ? slot : null;
  }

  /**
   * Commits an update: checks the rewritten units' next files are written whole, makes the
   * stripe's next version name them (only while the update holds the lease and the stripe is at
   * the version it leased), gives the key a new version in its slot, and retires the units'
   * previous files (readers of the previous version finish them).
   */
  @Override
  public CommitUpdateResponse commitUpdate(Layout current, CommitUpdateRequest request,
      String writer) throws IOException, AlluxioException {
    long id = current.getPacked().getStripe();
    String updateId = Long.toString(request.getUpdateId());
    Stripe before = stripes.read(id);
    if (before == null) {
      throw new NotFoundException("stripe " + id + " of '" + current.getKey() + "' is gone: PUT"
          + " it again");
    }
    List<Integer> units = rewritten(before, current.getPacked().getUnit());
    if (request.getUnitCrc32CCount() != units.size()) {
      throw new InvalidArgumentException("update " + updateId + " of '" + current.getKey()
          + "' reported " + request.getUnitCrc32CCount() + " unit checksums for " + units.size()
          + " rewritten units");
    }
    String writeId = UUID.randomUUID().toString();
    PackedValue at = current.getPacked();
    Stripe after = stripes.commit(id, updateId, next -> {
      for (int j = 0; j < units.size(); j++) {
        int i = units.get(j);
        next.getUnitsBuilder(i).setPath(PackedUnits.path(stripes.directory(id), i,
            next.getDataUnits(), next.getVersion() + 1))
            .setCrc32C(request.getUnitCrc32C(j));
      }
      next.getUnitsBuilder(at.getUnit()).getSlotsBuilder(at.getSlot()).setWriteId(writeId)
          .setCrc32C(request.getValueCrc32C());
      // So a reader can tell a log node that missed it that this update committed.
      return next.setLastUpdateCapability(ByteString.copyFrom(logNodes.capability(id,
          request.getUpdateId(), next.getVersion())));
    }, stripe -> checkWritten(stripe, units));
    context.writeLayout(current.toBuilder().setWriteId(writeId).clearCrc32C()
        .addCrc32C(request.getValueCrc32C()).setSha256(request.getSha256())
        .setCommittedAtMs(context.clock().millis()).setWriter(writer).build());
    for (int i : units) {
      // The previous version's file: readers that looked it up finish it within the grace.
      context.retire(before.getUnits(i).getPath(), "stripe-" + id + "-v" + (after.getVersion() - 1)
          + "-u" + i);
    }
    return CommitUpdateResponse.newBuilder().setVersion(after.getVersion()).build();
  }

  /** Checks the next version's files of {@code units} are written whole, before it commits. */
  private void checkWritten(Stripe next, List<Integer> units)
      throws IOException, AlluxioException {
    for (int i : units) {
      String path = next.getUnits(i).getPath();
      FileInfo info;
      try {
        info = context.namespace().status(path);
      } catch (FileDoesNotExistException e) {
        throw new FailedPreconditionException("unit " + path + " of the update was not written:"
            + " write it before committing");
      }
      if (!info.isCompleted() || info.getLength() != next.getUnitSize()) {
        throw new FailedPreconditionException("unit " + path + " of the update was not written"
            + " whole: write it before committing");
      }
    }
  }

  /** What became of update {@code updateId} of stripe {@code stripe} (a log node asks). */
  public UpdateOutcomeResponse.Outcome updateOutcome(long stripe, long updateId,
      long baseVersion) throws IOException, AlluxioException {
    return stripes.outcome(stripe, Long.toString(updateId), baseVersion);
  }

  @Override
  public void abortUpdate(Layout current, long updateId) {
    if (current.getPacked().getStripe() != 0) {
      stripes.release(current.getPacked().getStripe(), Long.toString(updateId));
    }
  }

  /** A sealed value replaced or deleted leaves a dead slot: its stripe is looked at next. */
  @Override
  public void superseded(Layout previous) {
    if (previous.hasPacked() && previous.getPacked().getStripe() != 0) {
      compactions.mark(previous.getPacked().getStripe());
    }
  }

  @Override
  public void addStats(List<Layout> committed, StatsResponse.Builder stats) {
    Map<String, PackedStats.Builder> byNamespace = new LinkedHashMap<>();
    Map<String, Set<Long>> stripesOf = new HashMap<>();
    for (String name : namespaces.keySet()) {
      byNamespace.put(name, PackedStats.newBuilder().setNamespace(name));
      stripesOf.put(name, new HashSet<>());
    }
    for (Layout layout : committed) {
      String name = ObjectPaths.namespaceOf(layout.getKey());
      PackedStats.Builder s = byNamespace.get(name);
      if (s == null || !layout.hasPacked()) {
        continue;
      }
      if (layout.getPacked().getStripe() == 0) {
        s.setWaitingValues(s.getWaitingValues() + 1).setWaitingBytes(s.getWaitingBytes()
            + layout.getObjectSize() * SchemeProtos.of(layout).splits());
      } else {
        s.setValues(s.getValues() + 1).setValueBytes(s.getValueBytes() + layout.getObjectSize());
        stripesOf.get(name).add(layout.getPacked().getStripe());
      }
    }
    for (Map.Entry<String, PackedStats.Builder> e : byNamespace.entrySet()) {
      PackedNamespace ns = namespaces.get(e.getKey());
      long stripes = stripesOf.get(e.getKey()).size();
      stats.addPacked(e.getValue().setStripes(stripes).setStripeBytes(stripes
          * (ns.code().dataSplits() + cachedParities(ns)) * ns.unitSize()));
    }
  }

  @Override
  public Optional<Boolean> applyChange(MaintenanceTask task, ApplyChangeRequest request)
      throws IOException, AlluxioException {
    switch (task.getKind()) {
      case SEAL_STRIPE:
        return Optional.of(!request.getFailed() && sealed(task.getSeal(), request.getSealed()));
      case REPAIR_STRIPE:
        return Optional.of(repairs.repaired(task.getRepair(), request));
      case COMPACT_STRIPE:
      case DROP_STRIPE:
        return Optional.of(compactions.applied(task, request));
      default:
        return Optional.empty();
    }
  }

  @Override
  public void expired(MaintenanceTask task) {
    if (task.getKind() == MaintenanceTask.Kind.REPAIR_STRIPE) {
      repairs.forget(task.getRepair().getStripe().getId());
    } else if (task.hasCompaction()) {
      compactions.forget(task.getCompaction().getStripe().getId());
    }
  }

  /** The name of the heartbeat that finds sparse and empty stripes. */
  public static final String COMPACTION_HEARTBEAT = "EcCache Packed Compaction";

  /** The name of the heartbeat that finds stripes with lost parts. */
  public static final String REPAIR_HEARTBEAT = "EcCache Packed Repair";

  @Override
  public List<Periodic> periodic() {
    return namespaces.isEmpty() ? List.of()
        : List.of(new Periodic(REPAIR_HEARTBEAT, repairs, REPAIR_PERIOD_MS),
            new Periodic(COMPACTION_HEARTBEAT, compactions, COMPACTION_PERIOD_MS));
  }

  /**
   * Scans every stripe for dead slots now and submits the compactions and drops due (tests; the
   * heartbeat scans every 30 s); how many it submitted.
   */
  public int scanForCompactions() throws IOException, AlluxioException {
    return compactions.scan();
  }

  /**
   * Scans every stripe for lost parts now and submits their repairs (tests; the heartbeat scans
   * only when the live workers or log nodes changed); how many it submitted.
   */
  public int scanForRepairs() throws IOException, AlluxioException {
    return repairs.scan(true);
  }

  /**
   * Records a stripe a maintainer sealed, then moves each value it packed from its replicas to
   * its slot, if the key still holds that version (a slot of a version replaced meanwhile is
   * dead from the start). Repeating it after a failure part-way is harmless.
   */
  private boolean sealed(PackedSeal seal, PackedSealed sealed) throws IOException, AlluxioException {
    int k = seal.getDataUnits();
    int units = seal.getWorkersCount(); // k data units and the cached parities
    if (sealed.getUnitsCount() != units) {
      throw new InvalidArgumentException("the seal of stripe " + seal.getStripe() + " reported "
          + sealed.getUnitsCount() + " units, not " + units);
    }
    for (StripeUnit unit : sealed.getUnitsList()) {
      String path = unit.getPath();
      FileInfo info;
      try {
        info = context.namespace().status(path);
      } catch (FileDoesNotExistException e) {
        throw new FailedPreconditionException("unit " + path + " of stripe " + seal.getStripe()
            + " was not written");
      }
      if (!path.startsWith(seal.getDirectory() + "/") || !info.isCompleted()
          || info.getLength() != seal.getUnitSize()) {
        throw new FailedPreconditionException("unit " + path + " of stripe " + seal.getStripe()
            + " is not a complete unit of its directory");
      }
    }
    Stripe.Builder stripe = Stripe.newBuilder().setId(seal.getStripe())
        .setNamespace(seal.getNamespace()).setDataUnits(k).setParityUnits(seal.getParityUnits())
        .setUnitSize(seal.getUnitSize()).setVersion(1).addAllUnits(sealed.getUnitsList());
    int cached = units - k;
    for (int row = cached; row < seal.getParityUnits(); row++) {
      stripe.addLogParities(LogParity.newBuilder().setRow(row)
          .setLogNode(seal.getLogNodes(row - cached)));
    }
    Stripe record = stripes.read(seal.getStripe());
    if (record == null) {
      stripes.create(stripe.build());
    } else if (!record.getUnitsList().equals(sealed.getUnitsList())) {
      throw new FailedPreconditionException("stripe " + seal.getStripe() + " was sealed with"
          + " other units already");
    }
    RedundancyScheme code = RedundancyScheme.erasureCoded(k, seal.getParityUnits());
    int packed = 0;
    for (int u = 0; u < k; u++) {
      List<PackedSlot> slots = sealed.getUnits(u).getSlotsList();
      for (int s = 0; s < slots.size(); s++) {
        if (point(slots.get(s), seal, code, u, s)) {
          packed++;
        }
      }
    }
    LOG.debug("eccache: stripe {} of {} sealed with {} values", seal.getStripe(),
        seal.getNamespace(), packed);
    return true;
  }

  /** Points a slot's key at it, if the key still holds the slot's version unpacked. */
  private boolean point(PackedSlot slot, PackedSeal seal, RedundancyScheme code, int unit,
      int index) throws IOException, AlluxioException {
    return context.lockedKey(slot.getKey(), () -> {
      Layout current = context.layoutOf(slot.getKey());
      if (current == null || !current.getWriteId().equals(slot.getWriteId())
          || current.getPacked().getStripe() != 0) {
        return false;
      }
      context.writeLayout(current.toBuilder().setScheme(SchemeProtos.toProto(code))
          .setSplitSize(seal.getUnitSize()).setCellSize(seal.getUnitSize()).clearCrc32C()
          .addCrc32C(slot.getCrc32C()).setPacked(PackedValue.newBuilder()
              .setStripe(seal.getStripe()).setUnit(unit).setSlot(index)).build());
      // Its replicas go after the grace; readers that looked them up finish them.
      context.retire(current.getDirectory(), current.getWriteId());
      return true;
    });
  }
}
