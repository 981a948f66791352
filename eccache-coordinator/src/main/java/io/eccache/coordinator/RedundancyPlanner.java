package io.eccache.coordinator;

import alluxio.grpc.GrpcUtils;
import alluxio.wire.WorkerNetAddress;
import io.eccache.common.ObjectPaths;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.MaintenanceTask;
import io.eccache.common.proto.SchemeStats;
import io.eccache.policy.Allocation;
import io.eccache.policy.ObjectDemand;
import io.eccache.policy.ParityAllocator;
import io.eccache.policy.PartitionAllocator;
import io.eccache.policy.ReplicaAllocator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns the state of every committed object (layout, where its splits live, popularity) into what
 * should change: a target redundancy per object (the allocators, one budget per scheme group), the
 * parities or copies to drop, and the maintenance tasks clients carry out (repair lost splits, add
 * parities or copies, repartition). Pure logic: the coordinator gathers the state and applies the
 * result.
 */
final class RedundancyPlanner {
  private final double overhead;
  private final int baseParities;
  private final double partitionBandwidth;

  /** One committed object as the planner sees it. */
  static final class ObjectState {
    final Layout layout;
    /** Per split index: the live worker holding it, or null when it is not readable. */
    final List<WorkerNetAddress> locations;
    final double popularity;

    ObjectState(Layout layout, List<WorkerNetAddress> locations, double popularity) {
      this.layout = layout;
      this.locations = locations;
      this.popularity = popularity;
    }

    int liveSplits() {
      int n = 0;
      for (WorkerNetAddress w : locations) {
        n += w == null ? 0 : 1;
      }
      return n;
    }
  }

  /** Parities or copies to remove from an object: metadata only, no data moves. */
  static final class Drop {
    final String key;
    final String writeId;
    final int toR;

    Drop(String key, String writeId, int toR) {
      this.key = key;
      this.writeId = writeId;
      this.toR = toR;
    }
  }

  /** What one planning pass decided. */
  static final class Result {
    /** Per key: target r ("ec", "replica") or k ("partition"). */
    final Map<String, Integer> targets = new HashMap<>();
    final List<Drop> drops = new ArrayList<>();
    /** Without leases; repairs first, then the most popular objects' changes. */
    final List<MaintenanceTask> tasks = new ArrayList<>();
    final Map<String, SchemeStats> schemes = new TreeMap<>();
  }

  /**
   * @param overhead redundancy budget as a fraction of the objects' bytes (0.15)
   * @param baseParities parities every tuned erasure-coded object keeps (1)
   * @param partitionBandwidth one worker's bytes per second, for SP-Cache's latency model
   */
  RedundancyPlanner(double overhead, int baseParities, double partitionBandwidth) {
    if (overhead < 0 || baseParities < 0 || partitionBandwidth <= 0) {
      throw new IllegalArgumentException("invalid planner settings: overhead " + overhead
          + ", base parities " + baseParities + ", bandwidth " + partitionBandwidth);
    }
    this.overhead = overhead;
    this.baseParities = baseParities;
    this.partitionBandwidth = partitionBandwidth;
  }

  /**
   * @param live the workers registered now
   * @param requestRate lookups per second lately (SP-Cache's model needs absolute rates)
   */
  Result plan(List<ObjectState> objects, List<WorkerNetAddress> live, double requestRate,
      Random random) {
    Result result = new Result();
    int workers = live.size();
    // Tuned objects are allocated per group: one budget per scheme (and per k for "ec").
    Map<String, List<ObjectState>> groups = new TreeMap<>();
    for (ObjectState o : objects) {
      Layout l = o.layout;
      if (l.getTuned()) {
        String group = l.getScheme() + (ObjectPaths.SCHEME_EC.equals(l.getScheme())
            ? "/" + l.getK() : "");
        groups.computeIfAbsent(group, g -> new ArrayList<>()).add(o);
      }
      result.targets.put(l.getKey(), current(l));
      addStats(result.schemes, l);
    }
    double allPopularity = 0;
    for (ObjectState o : objects) {
      allPopularity += o.popularity;
    }
    for (List<ObjectState> group : groups.values()) {
      double groupPopularity = 0;
      for (ObjectState o : group) {
        groupPopularity += o.popularity;
      }
      // The group's share of the measured request rate (SP-Cache's model needs absolute rates).
      double groupRate = allPopularity == 0 ? 0 : requestRate * groupPopularity / allPopularity;
      allocate(group, workers, groupRate, result.targets);
    }
    List<ObjectState> byPopularity = new ArrayList<>(objects);
    byPopularity.sort(Comparator.comparingDouble((ObjectState o) -> -o.popularity)
        .thenComparing(o -> o.layout.getKey()));
    List<MaintenanceTask> repairs = new ArrayList<>();
    List<MaintenanceTask> changes = new ArrayList<>();
    for (ObjectState o : byPopularity) {
      planObject(o, result.targets.get(o.layout.getKey()), live, random, repairs, changes,
          result.drops);
    }
    result.tasks.addAll(repairs);
    result.tasks.addAll(changes);
    return result;
  }

  /** The redundancy a layout has now, in the units of its scheme. */
  static int current(Layout l) {
    return ObjectPaths.SCHEME_PARTITION.equals(l.getScheme()) ? l.getK() : l.getR();
  }

  private void allocate(List<ObjectState> group, int workers, double requestRate,
      Map<String, Integer> targets) {
    Layout first = group.get(0).layout;
    List<ObjectDemand> demands = new ArrayList<>();
    for (ObjectState o : group) {
      demands.add(new ObjectDemand(o.layout.getKey(), o.layout.getObjectSize(), o.popularity));
    }
    switch (first.getScheme()) {
      case ObjectPaths.SCHEME_EC: {
        int k = first.getK();
        if (workers < k + baseParities) {
          return; // cannot even keep the base: leave every object as it is
        }
        Allocation a = new ParityAllocator(k, baseParities, overhead, workers).allocate(demands);
        for (ObjectState o : group) {
          targets.put(o.layout.getKey(), a.unitsOf(o.layout.getKey()));
        }
        break;
      }
      case ObjectPaths.SCHEME_REPLICA: {
        if (workers < 1) {
          return;
        }
        Allocation a = new ReplicaAllocator(1, overhead, workers).allocate(demands);
        for (ObjectState o : group) {
          targets.put(o.layout.getKey(), a.unitsOf(o.layout.getKey()) - 1);
        }
        break;
      }
      case ObjectPaths.SCHEME_PARTITION: {
        if (workers < 1 || requestRate <= 0) {
          return; // no reads of this group measured yet: nothing to balance
        }
        Allocation a = new PartitionAllocator(workers, partitionBandwidth, requestRate, 1)
            .allocate(demands);
        for (ObjectState o : group) {
          targets.put(o.layout.getKey(), a.unitsOf(o.layout.getKey()));
        }
        break;
      }
      default:
        break;
    }
  }

  private static void planObject(ObjectState o, int target, List<WorkerNetAddress> live,
      Random random, List<MaintenanceTask> repairs, List<MaintenanceTask> changes,
      List<Drop> drops) {
    Layout l = o.layout;
    boolean partition = ObjectPaths.SCHEME_PARTITION.equals(l.getScheme());
    int k = l.getK();
    int n = k + l.getR();
    // Splits about to be dropped are not worth repairing.
    int keep = partition ? n : k + Math.min(l.getR(), target);
    List<Integer> lost = new ArrayList<>();
    for (int i = 0; i < keep; i++) {
      if (o.locations.get(i) == null) {
        lost.add(i);
      }
    }
    int needed = ObjectPaths.SCHEME_REPLICA.equals(l.getScheme()) ? 1 : k;
    if (!partition && target < l.getR()) {
      // Drop first, lost splits or not: it frees workers a repair may need.
      drops.add(new Drop(l.getKey(), l.getWriteId(), target));
    }
    if (!lost.isEmpty()) {
      if (o.liveSplits() < needed && !l.getPersisted()) {
        return; // lost from the cache and not in S3: nothing can rebuild it
      }
      List<WorkerNetAddress> free = freeWorkers(o, live, random);
      if (o.liveSplits() < needed) {
        // Not decodable from the cache: the maintainer re-reads it from S3 and stores it anew.
        repairs.add(task(MaintenanceTask.Kind.REPAIR, l, List.of(), List.of(), current(l)));
        return;
      }
      int count = Math.min(lost.size(), free.size());
      if (count > 0) {
        repairs.add(task(MaintenanceTask.Kind.REPAIR, l, lost.subList(0, count),
            free.subList(0, count), current(l)));
      }
      return;
    }
    if (partition) {
      // Repartitioning rewrites the whole object: only for a real change, not the jitter of a
      // noisy latency bound from pass to pass (SP-Cache itself repartitions every 12 hours).
      if (Math.abs(target - k) >= Math.max(2, k / 4)) {
        changes.add(task(MaintenanceTask.Kind.REPARTITION, l, List.of(), List.of(), target));
      }
      return;
    }
    if (target > l.getR()) {
      List<WorkerNetAddress> free = freeWorkers(o, live, random);
      int add = Math.min(target - l.getR(), free.size());
      if (add > 0) {
        List<Integer> indexes = new ArrayList<>();
        for (int i = 0; i < add; i++) {
          indexes.add(n + i);
        }
        changes.add(task(MaintenanceTask.Kind.ADD_SPLITS, l, indexes, free.subList(0, add),
            l.getR() + add));
      }
    }
  }

  /** Live workers holding no split of the object, in random order (uniform placement). */
  private static List<WorkerNetAddress> freeWorkers(ObjectState o, List<WorkerNetAddress> live,
      Random random) {
    Set<String> holders = new HashSet<>();
    for (WorkerNetAddress w : o.locations) {
      if (w != null) {
        holders.add(w.getHost() + ":" + w.getRpcPort());
      }
    }
    List<WorkerNetAddress> free = new ArrayList<>();
    for (WorkerNetAddress w : live) {
      if (!holders.contains(w.getHost() + ":" + w.getRpcPort())) {
        free.add(w);
      }
    }
    Collections.shuffle(free, random);
    return free;
  }

  private static MaintenanceTask task(MaintenanceTask.Kind kind, Layout l, List<Integer> splits,
      List<WorkerNetAddress> workers, int target) {
    MaintenanceTask.Builder t = MaintenanceTask.newBuilder().setKind(kind).setKey(l.getKey())
        .setWriteId(l.getWriteId()).addAllSplits(splits).setTarget(target);
    for (WorkerNetAddress w : workers) {
      t.addWorkers(GrpcUtils.toProto(w));
    }
    return t.build();
  }

  private void addStats(Map<String, SchemeStats> schemes, Layout l) {
    SchemeStats s = schemes.getOrDefault(l.getScheme(),
        SchemeStats.newBuilder().setScheme(l.getScheme()).build());
    long size = l.getObjectSize();
    long cached = (long) (l.getK() + l.getR()) * Math.max(0, l.getSplitSize());
    schemes.put(l.getScheme(), s.toBuilder().setObjects(s.getObjects() + 1)
        .setObjectBytes(s.getObjectBytes() + size).setCachedBytes(s.getCachedBytes() + cached)
        .setBudgetBytes(s.getBudgetBytes() + (long) Math.floor(overhead * size)).build());
  }
}
