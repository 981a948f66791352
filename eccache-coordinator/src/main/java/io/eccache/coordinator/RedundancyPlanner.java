package io.eccache.coordinator;

import alluxio.grpc.GrpcUtils;
import alluxio.wire.WorkerNetAddress;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.RedundancyScheme.Kind;
import io.eccache.common.SchemeProtos;
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
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;

/**
 * Turns the state of every committed object (layout, where its splits live, popularity) into what
 * should change: a target scheme per object (the allocators, one budget per group of like tuned
 * objects), the parities or copies to drop, and the maintenance tasks clients carry out (repair lost
 * splits, add parities or copies, repartition). Pure logic: the coordinator gathers the state and
 * applies the result.
 */
final class RedundancyPlanner {
  private final double overhead;
  private final double partitionBandwidth;

  /** One committed object as the planner sees it. */
  static final class ObjectState {
    final Layout layout;
    final RedundancyScheme scheme;
    /** Per split index: the live worker holding it, or null when it is not readable. */
    final List<WorkerNetAddress> locations;
    final double popularity;
    /** The redundancy a tuned object never goes below (see {@link SchemeChooser#base}). */
    final int base;

    ObjectState(Layout layout, List<WorkerNetAddress> locations, double popularity, int base) {
      this.layout = layout;
      this.scheme = SchemeProtos.of(layout);
      this.locations = locations;
      this.popularity = popularity;
      this.base = base;
    }

    int liveSplits() {
      int n = 0;
      for (WorkerNetAddress w : locations) {
        n += w == null ? 0 : 1;
      }
      return n;
    }

    /** Tuned objects share one budget with others of the same kind, k and base. */
    Group group() {
      return new Group(scheme.kind(), scheme.kind() == Kind.PARTITIONED ? 0 : scheme.dataSplits(),
          base);
    }
  }

  /** Tuned objects allocated under one budget: like with like. */
  private static final class Group {
    final Kind kind;
    final int dataSplits;
    final int base;

    Group(Kind kind, int dataSplits, int base) {
      this.kind = kind;
      this.dataSplits = dataSplits;
      this.base = base;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Group && ((Group) o).kind == kind && ((Group) o).dataSplits == dataSplits
          && ((Group) o).base == base;
    }

    @Override
    public int hashCode() {
      return Objects.hash(kind, dataSplits, base);
    }
  }

  /** Parities or copies to remove from an object: metadata only, no data moves. */
  static final class Drop {
    final String key;
    final String writeId;
    final RedundancyScheme to;

    Drop(String key, String writeId, RedundancyScheme to) {
      this.key = key;
      this.writeId = writeId;
      this.to = to;
    }
  }

  /** What one planning pass decided. */
  static final class Result {
    /** Per key: the scheme it should have. */
    final Map<String, RedundancyScheme> targets = new HashMap<>();
    final List<Drop> drops = new ArrayList<>();
    /** Without leases; repairs first, then the most popular objects' changes. */
    final List<MaintenanceTask> tasks = new ArrayList<>();
    final Map<Kind, SchemeStats> schemes = new EnumMap<>(Kind.class);
  }

  /**
   * @param overhead redundancy budget as a fraction of the objects' bytes (0.15)
   * @param partitionBandwidth one worker's bytes per second, for SP-Cache's latency model
   */
  RedundancyPlanner(double overhead, double partitionBandwidth) {
    if (overhead < 0 || partitionBandwidth <= 0) {
      throw new IllegalArgumentException("invalid planner settings: overhead " + overhead
          + ", bandwidth " + partitionBandwidth);
    }
    this.overhead = overhead;
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
    Map<Group, List<ObjectState>> groups = new HashMap<>();
    for (ObjectState o : objects) {
      if (o.layout.getTuned()) {
        groups.computeIfAbsent(o.group(), g -> new ArrayList<>()).add(o);
      }
      result.targets.put(o.layout.getKey(), o.scheme);
      addStats(result.schemes, o);
    }
    double allPopularity = 0;
    for (ObjectState o : objects) {
      allPopularity += o.popularity;
    }
    for (Map.Entry<Group, List<ObjectState>> group : groups.entrySet()) {
      double groupPopularity = 0;
      for (ObjectState o : group.getValue()) {
        groupPopularity += o.popularity;
      }
      // The group's share of the measured request rate (SP-Cache's model needs absolute rates).
      double groupRate = allPopularity == 0 ? 0 : requestRate * groupPopularity / allPopularity;
      allocate(group.getKey(), group.getValue(), workers, groupRate, result.targets);
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

  private void allocate(Group group, List<ObjectState> objects, int workers, double requestRate,
      Map<String, RedundancyScheme> targets) {
    List<ObjectDemand> demands = new ArrayList<>();
    for (ObjectState o : objects) {
      demands.add(new ObjectDemand(o.layout.getKey(), o.layout.getObjectSize(), o.popularity));
    }
    Allocation a;
    switch (group.kind) {
      case ERASURE_CODED:
        if (workers < group.dataSplits + group.base) {
          return; // cannot even keep the base: leave every object as it is
        }
        a = new ParityAllocator(group.dataSplits, group.base, overhead, workers).allocate(demands);
        break;
      case REPLICATED:
        if (workers < group.base) {
          return;
        }
        a = new ReplicaAllocator(group.base, overhead, workers).allocate(demands);
        break;
      default:
        if (workers < 1 || requestRate <= 0) {
          return; // no reads of this group measured yet: nothing to balance
        }
        a = new PartitionAllocator(workers, partitionBandwidth, requestRate, 1).allocate(demands);
        break;
    }
    for (ObjectState o : objects) {
      targets.put(o.layout.getKey(), o.scheme.withRedundancy(a.unitsOf(o.layout.getKey())));
    }
  }

  private static void planObject(ObjectState o, RedundancyScheme target,
      List<WorkerNetAddress> live, Random random, List<MaintenanceTask> repairs,
      List<MaintenanceTask> changes, List<Drop> drops) {
    Layout l = o.layout;
    RedundancyScheme scheme = o.scheme;
    boolean partition = scheme.kind() == Kind.PARTITIONED;
    int n = scheme.splits();
    int surplus = partition ? 0 : Math.max(0, scheme.redundancy() - target.redundancy());
    // Splits about to be dropped are not worth repairing.
    int keep = n - surplus;
    List<Integer> lost = new ArrayList<>();
    for (int i = 0; i < keep; i++) {
      if (o.locations.get(i) == null) {
        lost.add(i);
      }
    }
    if (surplus > 0) {
      // Drop first, lost splits or not: it frees workers a repair may need.
      drops.add(new Drop(l.getKey(), l.getWriteId(), target));
    }
    if (!lost.isEmpty()) {
      int needed = scheme.splitsToRead();
      if (o.liveSplits() < needed && !l.getPersisted()) {
        return; // lost from the cache and not in S3: nothing can rebuild it
      }
      if (o.liveSplits() < needed) {
        // Not decodable from the cache: the maintainer re-reads it from S3 and stores it anew.
        repairs.add(task(MaintenanceTask.Kind.REPAIR, l, List.of(), List.of(), scheme));
        return;
      }
      List<WorkerNetAddress> free = freeWorkers(o, live, random);
      int count = Math.min(lost.size(), free.size());
      if (count > 0) {
        repairs.add(task(MaintenanceTask.Kind.REPAIR, l, lost.subList(0, count),
            free.subList(0, count), scheme));
      }
      return;
    }
    if (partition) {
      // Repartitioning rewrites the whole object: only for a real change, not the jitter of a
      // noisy latency bound from pass to pass (SP-Cache itself repartitions every 12 hours).
      int k = scheme.dataSplits();
      if (Math.abs(target.dataSplits() - k) >= Math.max(2, k / 4)) {
        changes.add(task(MaintenanceTask.Kind.REPARTITION, l, List.of(), List.of(), target));
      }
      return;
    }
    if (target.redundancy() > scheme.redundancy()) {
      List<WorkerNetAddress> free = freeWorkers(o, live, random);
      int add = Math.min(target.redundancy() - scheme.redundancy(), free.size());
      if (add > 0) {
        List<Integer> indexes = new ArrayList<>();
        for (int i = 0; i < add; i++) {
          indexes.add(n + i);
        }
        changes.add(task(MaintenanceTask.Kind.ADD_SPLITS, l, indexes, free.subList(0, add),
            scheme.withRedundancy(scheme.redundancy() + add)));
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
      List<WorkerNetAddress> workers, RedundancyScheme target) {
    MaintenanceTask.Builder t = MaintenanceTask.newBuilder().setKind(kind).setKey(l.getKey())
        .setWriteId(l.getWriteId()).addAllSplits(splits).setTarget(SchemeProtos.toProto(target));
    for (WorkerNetAddress w : workers) {
      t.addWorkers(GrpcUtils.toProto(w));
    }
    return t.build();
  }

  private void addStats(Map<Kind, SchemeStats> schemes, ObjectState o) {
    Layout l = o.layout;
    SchemeStats s = schemes.getOrDefault(o.scheme.kind(),
        SchemeStats.newBuilder().setKind(SchemeProtos.toProto(o.scheme.kind())).build());
    long size = l.getObjectSize();
    long cached = (long) o.scheme.splits() * Math.max(0, l.getSplitSize());
    schemes.put(o.scheme.kind(), s.toBuilder().setObjects(s.getObjects() + 1)
        .setObjectBytes(s.getObjectBytes() + size).setCachedBytes(s.getCachedBytes() + cached)
        .setBudgetBytes(s.getBudgetBytes() + (long) Math.floor(overhead * size)).build());
  }
}
