package io.eccache.coordinator;

import alluxio.exception.AlluxioException;
import alluxio.grpc.GrpcUtils;
import alluxio.heartbeat.HeartbeatExecutor;
import alluxio.wire.WorkerNetAddress;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.MaintenanceTask;
import io.eccache.common.proto.SchemeStats;
import io.eccache.coordinator.form.striped.SchemeChooser;
import io.eccache.policy.PopularityTracker;
import io.eccache.policy.RedundancyPlanner;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Popularity-driven redundancy, one planning pass per heartbeat: folds the popularity period if it is
 * over, recomputes every object's target redundancy under the budget ({@link RedundancyPlanner}),
 * drops surplus parities and copies (metadata only), and refills the {@link MaintenanceQueue} with
 * the repairs and additions for maintainers.
 *
 * <p>An Alluxio {@link HeartbeatExecutor}: the primary master runs it in a {@code HeartbeatThread}
 * every {@code alluxio.master.eccache.retune.interval}, and once more when a worker is lost. Time (the
 * popularity period, the request rate) comes from the injected clock only, so a test advances that
 * clock and calls {@link #heartbeat} itself instead of sleeping.
 */
final class Retuner implements HeartbeatExecutor {
  private static final Logger LOG = LoggerFactory.getLogger(Retuner.class);

  /** One committed object and, per split index, the live worker holding it (null: not readable). */
  static final class Placed {
    final Layout layout;
    final List<WorkerNetAddress> locations;

    Placed(Layout layout, List<WorkerNetAddress> locations) {
      this.layout = layout;
      this.locations = locations;
    }
  }

  /** What a pass reads from and changes in the namespace ({@link LayoutStore} in a master). */
  interface Namespace {
    List<WorkerNetAddress> liveWorkers() throws IOException, AlluxioException;

    List<Placed> objects() throws IOException, AlluxioException;

    /** Drops surplus splits if the object is still as planned; returns how many went. */
    int drop(RedundancyPlanner.Drop drop) throws IOException, AlluxioException;
  }

  private final Namespace namespace;
  private final PopularityTracker popularity;
  private final SchemeChooser chooser;
  private final RedundancyPlanner planner;
  private final MaintenanceQueue queue;
  private final CoordinatorMetrics metrics;
  private final Clock clock;
  private final long periodMs;
  private final Random random;
  /** Guarded by {@code this}. */
  private long lastRollMs;
  private long lastPassMs;
  private long lookupsAtLastPass;
  private volatile Map<String, RedundancyScheme> targets = Map.of();

  /**
   * @param metrics where passes are counted; its lookups give the request rate
   * @param periodMs how long one popularity period lasts
   */
  Retuner(Namespace namespace, PopularityTracker popularity, SchemeChooser chooser,
      RedundancyPlanner planner, MaintenanceQueue queue, CoordinatorMetrics metrics,
      Clock clock, long periodMs, Random random) {
    this.namespace = namespace;
    this.popularity = popularity;
    this.chooser = chooser;
    this.planner = planner;
    this.queue = queue;
    this.metrics = metrics;
    this.clock = clock;
    this.periodMs = periodMs;
    this.random = random;
    this.lastRollMs = clock.millis();
    this.lastPassMs = lastRollMs;
  }

  /** Counts one read of {@code key} in the current popularity period. */
  void recordAccess(String key) {
    popularity.record(key);
  }

  /** Counts {@code reads} reads of {@code key} (served from a client's cached layout). */
  void recordAccesses(String key, long reads) {
    popularity.record(key, reads);
  }

  /** {@code key}'s average reads per period as of the last fold. */
  double popularity(String key) {
    return popularity.popularity(key);
  }

  /** The redundancy the last pass chose for {@code key}, or null if it chose none. */
  RedundancyScheme target(String key) {
    return targets.get(key);
  }

  /** One pass; a failure is logged and the next heartbeat retries. */
  @Override
  public void heartbeat(long timeLimitMs) {
    try {
      retune();
    } catch (IOException | AlluxioException | RuntimeException e) {
      LOG.warn("eccache: re-tuning pass failed; the next one retries: {}", e.toString());
    }
  }

  /** Nothing to release: a master promoted again runs this executor in a new thread. */
  @Override
  public void close() {}

  /**
   * One planning pass. Holds the queue's lock throughout, as the master's lock once did: a
   * maintainer's {@code Plan} waits for a pass in progress rather than take a task of the plan
   * being replaced.
   */
  synchronized void retune() throws IOException, AlluxioException {
    synchronized (queue) {
      long now = clock.millis();
      if (now - lastRollMs >= periodMs) {
        popularity.roll();
        lastRollMs = now;
      }
      // Reads served from clients' cached layouts are requests too, reported instead of looked up.
      long seenLookups = metrics.lookups.get() + metrics.readsReported.get();
      double rate = (seenLookups - lookupsAtLastPass) * 1000.0 / Math.max(1, now - lastPassMs);
      lookupsAtLastPass = seenLookups;
      lastPassMs = now;
      // The planner is pure policy over worker ids; it hands back the ids it chose.
      Map<String, WorkerNetAddress> workers = new HashMap<>();
      for (WorkerNetAddress w : namespace.liveWorkers()) {
        workers.put(id(w), w);
      }
      List<RedundancyPlanner.ObjectState> states = new ArrayList<>();
      for (Placed object : namespace.objects()) {
        Layout layout = object.layout;
        RedundancyScheme scheme = SchemeProtos.of(layout);
        List<String> locations = new ArrayList<>();
        for (WorkerNetAddress w : object.locations) {
          locations.add(w == null ? null : id(w));
        }
        states.add(new RedundancyPlanner.ObjectState(layout.getKey(), layout.getWriteId(), scheme,
            layout.getObjectSize(), layout.getSplitSize(), layout.getTuned(),
            layout.getPersisted(), locations, popularity.popularity(layout.getKey()),
            chooser.base(layout.getKey(), scheme)));
      }
      RedundancyPlanner.Result plan = planner.plan(states, new ArrayList<>(workers.keySet()),
          rate, random);
      targets = Map.copyOf(plan.targets);
      Map<RedundancyScheme.Kind, SchemeStats> stats = new EnumMap<>(RedundancyScheme.Kind.class);
      plan.totals.forEach((kind, t) -> stats.put(kind, SchemeStats.newBuilder()
          .setKind(SchemeProtos.toProto(kind)).setObjects(t.objects).setObjectBytes(t.objectBytes)
          .setCachedBytes(t.cachedBytes).setBudgetBytes(t.budgetBytes).build()));
      metrics.setSchemeStats(stats);
      for (RedundancyPlanner.Drop drop : plan.drops) {
        metrics.splitsDropped.addAndGet(namespace.drop(drop));
      }
      List<MaintenanceTask> tasks = new ArrayList<>();
      for (RedundancyPlanner.Task task : plan.tasks) {
        tasks.add(toProto(task, workers));
      }
      queue.refill(tasks);
      metrics.retunePasses.incrementAndGet();
    }
  }

  /** A worker's id for the planner: its host and RPC port. */
  static String id(WorkerNetAddress w) {
    return w.getHost() + ":" + w.getRpcPort();
  }

  private static MaintenanceTask toProto(RedundancyPlanner.Task task,
      Map<String, WorkerNetAddress> workers) {
    MaintenanceTask.Builder t = MaintenanceTask.newBuilder()
        .setKind(MaintenanceTask.Kind.valueOf(task.kind.name())).setKey(task.key)
        .setWriteId(task.writeId).addAllSplits(task.splits)
        .setTarget(SchemeProtos.toProto(task.target));
    for (String id : task.workers) {
      t.addWorkers(GrpcUtils.toProto(workers.get(id)));
    }
    return t.build();
  }
}
