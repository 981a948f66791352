package io.eccache.policy;

import io.eccache.common.RedundancyScheme;
import io.eccache.common.RedundancyScheme.Kind;
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
 * Turns the state of every committed object (scheme, where its splits live, popularity) into what
 * should change: a target scheme per object (the allocators, one budget per group of like tuned
 * objects), the parities or copies to drop, and the maintenance tasks clients carry out (repair lost
 * splits, add parities or copies, repartition). Pure logic over plain values, no Alluxio: the
 * coordinator gathers the state and applies the result, and a simulator can drive it alike. Workers
 * are opaque ids (the coordinator uses "host:port").
 */
public final class RedundancyPlanner {
  private final double overhead;
  private final double partitionBandwidth;

  /** One committed object as the planner sees it. */
  public static final class ObjectState {
    final String key;
    final String writeId;
    final RedundancyScheme scheme;
    final long objectSize;
    final long splitSize;
    final boolean tuned;
    final boolean persisted;
    /** Per split index: the live worker holding it, or null when it is not readable. */
    final List<String> locations;
    final double popularity;
    /** The redundancy a tuned object never goes below. */
    final int base;

    /**
     * @param splitSize bytes per split (for memory totals)
     * @param tuned whether the coordinator tunes this object's redundancy
     * @param persisted whether the under store holds this version (so it can be stored again)
     * @param locations per split index, the live worker holding it, or null
     * @param base the redundancy a tuned object keeps whatever its popularity
     */
    public ObjectState(String key, String writeId, RedundancyScheme scheme, long objectSize,
        long splitSize, boolean tuned, boolean persisted, List<String> locations,
        double popularity, int base) {
      if (locations.size() != scheme.splits()) {
        throw new IllegalArgumentException(key + ": " + locations.size() + " locations for "
            + scheme.splits() + " splits of " + scheme);
      }
      this.key = key;
      this.writeId = writeId;
      this.scheme = scheme;
      this.objectSize = objectSize;
      this.splitSize = splitSize;
      this.tuned = tuned;
      this.persisted = persisted;
      this.locations = locations;
      this.popularity = popularity;
      this.base = base;
    }

    int liveSplits() {
      int n = 0;
      for (String w : locations) {
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
  public static final class Drop {
    public final String key;
    public final String writeId;
    public final RedundancyScheme to;

    Drop(String key, String writeId, RedundancyScheme to) {
      this.key = key;
      this.writeId = writeId;
      this.to = to;
    }
  }

  /** What a maintenance task does. */
  public enum TaskKind {
    /** Rebuild the given lost splits on the given workers (none given: store it again from S3). */
    REPAIR,
    /** Write new parity splits or copies at the given indexes. */
    ADD_SPLITS,
    /** Store the object again with the target partitions (SP-Cache). */
    REPARTITION
  }

  /** Work for a maintainer: which splits of which version go to which workers. */
  public static final class Task {
    public final TaskKind kind;
    public final String key;
    public final String writeId;
    /** Split indexes to write, one worker each. */
    public final List<Integer> splits;
    public final List<String> workers;
    /** The object's scheme once the task is done. */
    public final RedundancyScheme target;

    Task(TaskKind kind, String key, String writeId, List<Integer> splits, List<String> workers,
        RedundancyScheme target) {
      this.kind = kind;
      this.key = key;
      this.writeId = writeId;
      this.splits = List.copyOf(splits);
      this.workers = List.copyOf(workers);
      this.target = target;
    }
  }

  /** Memory of one kind of scheme, for statistics. */
  public static final class Totals {
    public long objects;
    /** One copy of every object. */
    public long objectBytes;
    /** Every split or copy. */
    public long cachedBytes;
    /** What the redundancy budget allows beyond {@link #objectBytes}. */
    public long budgetBytes;
  }

  /** What one planning pass decided. */
  public static final class Result {
    /** Per key: the scheme it should have. */
    public final Map<String, RedundancyScheme> targets = new HashMap<>();
    public final List<Drop> drops = new ArrayList<>();
    /** Repairs first, then the most popular objects' changes. */
    public final List<Task> tasks = new ArrayList<>();
    public final Map<Kind, Totals> totals = new EnumMap<>(Kind.class);
  }

  /**
   * @param overhead redundancy budget as a fraction of the objects' bytes (0.15)
   * @param partitionBandwidth one worker's bytes per second, for SP-Cache's latency model
   */
  public RedundancyPlanner(double overhead, double partitionBandwidth) {
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
  public Result plan(List<ObjectState> objects, List<String> live, double requestRate,
      Random random) {
    Result result = new Result();
    int workers = live.size();
    Map<Group, List<ObjectState>> groups = new HashMap<>();
    for (ObjectState o : objects) {
      if (o.tuned) {
        groups.computeIfAbsent(o.group(), g -> new ArrayList<>()).add(o);
      }
      result.targets.put(o.key, o.scheme);
      addTotals(result.totals, o);
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
        .thenComparing(o -> o.key));
    List<Task> repairs = new ArrayList<>();
    List<Task> changes = new ArrayList<>();
    for (ObjectState o : byPopularity) {
      planObject(o, result.targets.get(o.key), live, random, repairs, changes, result.drops);
    }
    result.tasks.addAll(repairs);
    result.tasks.addAll(changes);
    return result;
  }

  private void allocate(Group group, List<ObjectState> objects, int workers, double requestRate,
      Map<String, RedundancyScheme> targets) {
    List<ObjectDemand> demands = new ArrayList<>();
    for (ObjectState o : objects) {
      demands.add(new ObjectDemand(o.key, o.objectSize, o.popularity));
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
      targets.put(o.key, o.scheme.withRedundancy(a.unitsOf(o.key)));
    }
  }

  private static void planObject(ObjectState o, RedundancyScheme target, List<String> live,
      Random random, List<Task> repairs, List<Task> changes, List<Drop> drops) {
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
      drops.add(new Drop(o.key, o.writeId, target));
    }
    if (!lost.isEmpty()) {
      int needed = scheme.splitsToRead();
      if (o.liveSplits() < needed && !o.persisted) {
        return; // lost from the cache and not in S3: nothing can rebuild it
      }
      if (o.liveSplits() < needed) {
        // Not decodable from the cache: the maintainer re-reads it from S3 and stores it anew.
        repairs.add(new Task(TaskKind.REPAIR, o.key, o.writeId, List.of(), List.of(), scheme));
        return;
      }
      List<String> free = freeWorkers(o, live, random);
      int count = Math.min(lost.size(), free.size());
      if (count > 0) {
        repairs.add(new Task(TaskKind.REPAIR, o.key, o.writeId, lost.subList(0, count),
            free.subList(0, count), scheme));
      }
      return;
    }
    if (partition) {
      if (repartitions(scheme.dataSplits(), target.dataSplits())) {
        changes.add(new Task(TaskKind.REPARTITION, o.key, o.writeId, List.of(), List.of(),
            target));
      }
      return;
    }
    if (target.redundancy() > scheme.redundancy()) {
      List<String> free = freeWorkers(o, live, random);
      int add = Math.min(target.redundancy() - scheme.redundancy(), free.size());
      if (add > 0) {
        List<Integer> indexes = new ArrayList<>();
        for (int i = 0; i < add; i++) {
          indexes.add(n + i);
        }
        changes.add(new Task(TaskKind.ADD_SPLITS, o.key, o.writeId, indexes,
            free.subList(0, add), scheme.withRedundancy(scheme.redundancy() + add)));
      }
    }
  }

  /**
   * Whether SP-Cache rewrites an object of {@code from} partitions into {@code to}. Repartitioning
   * rewrites the whole object, so only for a real change, not the jitter of a noisy latency bound
   * from pass to pass (SP-Cache itself repartitions every 12 hours): growing by a quarter of the
   * partitions, at least one (a warm object's first split from 1 into 2 halves each read);
   * shrinking by a quarter and at least two. The margins differ so that a target jittering
   * between neighbouring counts never rewrites an object back and forth; more partitions than
   * needed cost no memory.
   */
  public static boolean repartitions(int from, int to) {
    int quarter = (from + 3) / 4;
    return to > from ? to - from >= Math.max(1, quarter) : from - to >= Math.max(2, quarter);
  }

  /** Live workers holding no split of the object, in random order (uniform placement). */
  private static List<String> freeWorkers(ObjectState o, List<String> live, Random random) {
    Set<String> holders = new HashSet<>(o.locations);
    List<String> free = new ArrayList<>();
    for (String w : live) {
      if (!holders.contains(w)) {
        free.add(w);
      }
    }
    Collections.shuffle(free, random);
    return free;
  }

  private void addTotals(Map<Kind, Totals> totals, ObjectState o) {
    Totals t = totals.computeIfAbsent(o.scheme.kind(), k -> new Totals());
    t.objects++;
    t.objectBytes += o.objectSize;
    t.cachedBytes += (long) o.scheme.splits() * Math.max(0, o.splitSize);
    t.budgetBytes += (long) Math.floor(overhead * o.objectSize);
  }
}
