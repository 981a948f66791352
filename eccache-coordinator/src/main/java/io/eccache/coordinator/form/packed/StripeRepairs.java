package io.eccache.coordinator.form.packed;

import alluxio.exception.AlluxioException;
import alluxio.exception.FileDoesNotExistException;
import alluxio.exception.status.FailedPreconditionException;
import alluxio.grpc.GrpcUtils;
import alluxio.heartbeat.HeartbeatExecutor;
import alluxio.wire.FileInfo;
import alluxio.wire.WorkerInfo;
import alluxio.wire.WorkerNetAddress;
import io.eccache.common.PackedUnits;
import io.eccache.common.proto.ApplyChangeRequest;
import io.eccache.common.proto.LogParity;
import io.eccache.common.proto.MaintenanceTask;
import io.eccache.common.proto.PackedRepair;
import io.eccache.common.proto.Split;
import io.eccache.common.proto.Stripe;
import io.eccache.coordinator.form.FormContext;
import io.eccache.coordinator.form.HostPort;
import io.eccache.coordinator.form.NamespacePort;
import io.eccache.coordinator.form.SplitFiles;
import io.eccache.policy.SplitPlacement;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds packed stripes with parts lost (a unit whose worker is lost, a log parity whose node is)
 * and has maintainers rebuild them (REPAIR_STRIPE): a lost unit from the stripe's other units and
 * parities, the log nodes' included when the cached ones are too few (LogECMem's log-assisted
 * repair); a lost log parity from the data units, onto another log node. A repair changes no byte,
 * so the stripe keeps its version; it is recorded only if no update held the stripe meanwhile
 * ({@link StripeStore#relocate}). A scan runs when the live workers or log nodes changed since the
 * last one, or a repair was not done or not recorded.
 */
final class StripeRepairs implements HeartbeatExecutor {
  private static final Logger LOG = LoggerFactory.getLogger(StripeRepairs.class);

  private final FormContext context;
  private final StripeStore stripes;
  private final LogNodes logNodes;
  /** stripe id -> the version its submitted repair read; guarded by itself. */
  private final Map<Long, Long> submitted = new ConcurrentHashMap<>();
  private Set<String> lastSeen = Set.of();
  /** A repair was not done or not recorded: the next heartbeat scans again. */
  private volatile boolean rescan;

  StripeRepairs(FormContext context, StripeStore stripes, LogNodes logNodes) {
    this.context = context;
    this.stripes = stripes;
    this.logNodes = logNodes;
  }

  @Override
  public void heartbeat(long timeLimitMs) {
    try {
      scan(false);
    } catch (IOException | AlluxioException | RuntimeException e) {
      LOG.warn("eccache: the scan for lost parts of packed stripes failed: {}", e.toString());
    }
  }

  /**
   * Submits a repair for every stripe with a lost part that has none under way; {@code always}
   * scans even when nothing changed (tests). Returns how many it submitted.
   */
  int scan(boolean always) throws IOException, AlluxioException {
    Set<HostPort> live = context.liveWorkerIds();
    List<LogNodes.Node> nodes = logNodes.live(live);
    Set<String> seen = new HashSet<>();
    live.forEach(w -> seen.add(w.toString()));
    nodes.forEach(n -> seen.add("log:" + n.address()));
    synchronized (this) {
      if (!always && seen.equals(lastSeen) && !rescan) {
        return 0;
      }
      lastSeen = seen;
      rescan = false;
    }
    int planned = 0;
    for (long id : stripes.ids()) {
      if (submitted.containsKey(id)) {
        continue;
      }
      Stripe stripe = stripes.read(id);
      if (stripe != null && plan(stripe, live, nodes)) {
        planned++;
      }
    }
    return planned;
  }

  /** Submits the repair of {@code stripe} if it lost a part and can be repaired now. */
  private boolean plan(Stripe stripe, Set<HostPort> live, List<LogNodes.Node> nodes)
      throws IOException, AlluxioException {
    Map<String, FileInfo> files = new HashMap<>();
    for (FileInfo f : context.namespace().list(stripes.directory(stripe.getId()),
        NamespacePort.Load.NEVER)) {
      files.put(f.getPath(), f);
    }
    List<Integer> lostUnits = new ArrayList<>();
    List<Split> splits = new ArrayList<>();
    Set<HostPort> holding = new HashSet<>();
    for (int i = 0; i < stripe.getUnitsCount(); i++) {
      FileInfo info = files.get(stripe.getUnits(i).getPath());
      WorkerNetAddress where = info == null ? null : SplitFiles.location(info);
      Split.Builder split = Split.newBuilder().setIndex(i);
      if (info != null) {
        SplitFiles.describe(split, info, live);
      }
      splits.add(split.build());
      if (where == null || !live.contains(HostPort.of(where))) {
        lostUnits.add(i);
      } else {
        holding.add(HostPort.of(where));
      }
    }
    Set<String> nodeAddresses = new HashSet<>();
    nodes.forEach(n -> nodeAddresses.add(n.address()));
    List<Integer> lostRows = new ArrayList<>();
    Set<String> used = new HashSet<>();
    for (LogParity p : stripe.getLogParitiesList()) {
      if (nodeAddresses.contains(p.getLogNode())) {
        used.add(p.getLogNode());
      } else {
        lostRows.add(p.getRow());
      }
    }
    if (lostUnits.isEmpty() && lostRows.isEmpty()) {
      return false;
    }
    int k = stripe.getDataUnits();
    int left = stripe.getUnitsCount() - lostUnits.size() + stripe.getLogParitiesCount()
        - lostRows.size();
    if (left < k) {
      LOG.error("eccache: stripe {} of {} lost {} units and {} log parities; {} parts are left,"
          + " fewer than k = {}: its values are lost from the cache", stripe.getId(),
          stripe.getNamespace(), lostUnits.size(), lostRows.size(), left, k);
      return false;
    }
    List<WorkerInfo> free = new ArrayList<>();
    for (WorkerInfo w : context.workers().live()) {
      if (!holding.contains(HostPort.of(w.getAddress()))) {
        free.add(w);
      }
    }
    List<LogNodes.Node> freeNodes = new ArrayList<>();
    for (LogNodes.Node n : nodes) {
      if (!used.contains(n.address())) {
        freeNodes.add(n);
      }
    }
    if (free.size() < lostUnits.size() || freeNodes.size() < lostRows.size()) {
      LOG.warn("eccache: stripe {} waits for its repair: {} workers and {} log nodes are free for"
          + " {} lost units and {} lost log parities", stripe.getId(), free.size(),
          freeNodes.size(), lostUnits.size(), lostRows.size());
      return false;
    }
    long repair = 1 + (context.random().nextLong() >>> 2);
    PackedRepair.Builder task = PackedRepair.newBuilder().setStripe(stripe).addAllSplits(splits)
        .addAllLostUnits(lostUnits).addAllLostRows(lostRows);
    List<WorkerInfo> targets = SplitPlacement.chooseDistinct(free, lostUnits.size(),
        context.random());
    for (int j = 0; j < lostUnits.size(); j++) {
      task.addUnitWorkers(GrpcUtils.toProto(targets.get(j).getAddress()))
          .addUnitPaths(PackedUnits.repairedPath(stripes.directory(stripe.getId()),
              lostUnits.get(j), k, stripe.getVersion(), repair));
    }
    for (LogNodes.Node n : SplitPlacement.chooseDistinct(freeNodes, lostRows.size(),
        context.random())) {
      task.addRowNodes(n.address());
    }
    submitted.put(stripe.getId(), stripe.getVersion());
    context.submitOnce(MaintenanceTask.newBuilder().setKind(MaintenanceTask.Kind.REPAIR_STRIPE)
        .setKey("stripe:" + stripe.getId()).setRepair(task).build());
    return true;
  }

  /**
   * Records a repair a maintainer did, if the stripe is still at the version it read and no
   * update holds it; returns whether it was recorded (if not, the next scan plans it again).
   */
  boolean repaired(PackedRepair repair, ApplyChangeRequest request)
      throws IOException, AlluxioException {
    Stripe planned = repair.getStripe();
    long id = planned.getId();
    submitted.remove(id);
    if (request.getFailed()) {
      rescan = true;
      return false;
    }
    boolean recorded = stripes.relocate(id, planned.getVersion(), next -> {
      for (int j = 0; j < repair.getLostUnitsCount(); j++) {
        next.getUnitsBuilder(repair.getLostUnits(j)).setPath(repair.getUnitPaths(j))
            .setWorker(repair.getUnitWorkers(j));
      }
      for (int j = 0; j < repair.getLostRowsCount(); j++) {
        for (LogParity.Builder p : next.getLogParitiesBuilderList()) {
          if (p.getRow() == repair.getLostRows(j)) {
            p.setLogNode(repair.getRowNodes(j));
          }
        }
      }
      return next;
    }, next -> {
      for (String path : repair.getUnitPathsList()) {
        FileInfo info;
        try {
          info = context.namespace().status(path);
        } catch (FileDoesNotExistException e) {
          throw new FailedPreconditionException("repaired unit " + path + " was not written");
        }
        if (!info.isCompleted() || info.getLength() != next.getUnitSize()) {
          throw new FailedPreconditionException("repaired unit " + path + " is incomplete");
        }
      }
    });
    if (recorded) {
      for (int i : repair.getLostUnitsList()) {
        context.retire(planned.getUnits(i).getPath(), "stripe-" + id + "-lost-u" + i);
      }
    } else {
      rescan = true;
      for (String path : repair.getUnitPathsList()) {
        context.retire(path, "stripe-" + id + "-unused-repair");
      }
    }
    return recorded;
  }

  /** The repair of stripe {@code id} was not done (its maintainer stopped): plan it again. */
  void forget(long id) {
    submitted.remove(id);
    rescan = true;
  }

  @Override
  public void close() {}
}
