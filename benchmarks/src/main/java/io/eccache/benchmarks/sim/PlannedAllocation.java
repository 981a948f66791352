package io.eccache.benchmarks.sim;

import io.eccache.benchmarks.ComparedScheme;
import io.eccache.common.RedundancyScheme;
import io.eccache.policy.Allocation;
import io.eccache.policy.ObjectDemand;
import io.eccache.policy.ParityAllocator;
import io.eccache.policy.PartitionAllocator;
import io.eccache.policy.RedundancyPlanner;
import io.eccache.policy.ReplicaAllocator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Each object's units (parities for EC, copies for SR, partitions for SP) as the coordinator would plan
 * them: through its own {@link RedundancyPlanner}, given every object of the scheme as one group of tuned
 * objects with the popularity the simulation was given, so the simulator allocates exactly as the
 * coordinator does from the same input.
 *
 * <p>The coordinator caps an object at {@link RedundancyScheme#MAX_SPLITS} splits (ISA-L's GF(2^8)
 * codes), which a cluster of more servers may want to exceed (SP-Cache over 1000 servers); there the
 * allocators are called directly, without the cap, and {@link #source} says so.
 */
final class PlannedAllocation {
  /** How allocations were made, for reports. */
  static final String PLANNER = "the coordinator's RedundancyPlanner";
  /** How allocations were made beyond the coordinator's split cap. */
  static final String DIRECT = "the allocators directly (more servers than the coordinator's "
      + RedundancyScheme.MAX_SPLITS + "-split cap)";

  private PlannedAllocation() {}

  /** @return how {@link #units} allocates for this configuration */
  static String source(SimulationConfig config) {
    return config.servers() > RedundancyScheme.MAX_SPLITS ? DIRECT : PLANNER;
  }

  /**
   * @param config the configuration (servers, overhead, k, base parities, bandwidth)
   * @param scheme the scheme
   * @param popularity by object rank
   * @param spRequestRate SP-Cache's total request rate (ignored for other schemes)
   * @return per object rank, the scheme's units
   * @throws IllegalArgumentException if the scheme cannot be set up on so few servers
   */
  static int[] units(SimulationConfig config, ComparedScheme scheme, double[] popularity,
      double spRequestRate) {
    int objects = popularity.length;
    if (scheme == ComparedScheme.SINGLE) {
      int[] one = new int[objects];
      Arrays.fill(one, 1);
      return one;
    }
    if (scheme == ComparedScheme.EC && config.servers() < config.k() + config.baseParities()) {
      throw new IllegalArgumentException("EC needs servers >= k + baseParities = "
          + (config.k() + config.baseParities()) + " but servers was " + config.servers());
    }
    return source(config) == DIRECT ? direct(config, scheme, popularity, spRequestRate)
        : planned(config, scheme, popularity, spRequestRate);
  }

  private static int[] planned(SimulationConfig config, ComparedScheme scheme, double[] popularity,
      double spRequestRate) {
    RedundancyScheme start;
    int base;
    switch (scheme) {
      case EC:
        start = RedundancyScheme.erasureCoded(config.k(), config.baseParities());
        base = config.baseParities();
        break;
      case SR:
        start = RedundancyScheme.replicated(1);
        base = 1;
        break;
      default:
        start = RedundancyScheme.partitioned(1);
        base = 1;
        break;
    }
    List<String> workers = new ArrayList<>(config.servers());
    for (int s = 0; s < config.servers(); s++) {
      workers.add("server-" + s);
    }
    long size = config.objectSizeBytes();
    long splitSize = start.unitBytes(size);
    List<RedundancyPlanner.ObjectState> states = new ArrayList<>(popularity.length);
    for (int i = 0; i < popularity.length; i++) {
      // Where the splits are does not change the targets, only the tasks to reach them.
      List<String> locations = new ArrayList<>(start.splits());
      for (int j = 0; j < start.splits(); j++) {
        locations.add(workers.get((i + j) % workers.size()));
      }
      states.add(new RedundancyPlanner.ObjectState(key(i), "sim", start, size, splitSize, true, true,
          locations, popularity[i], base));
    }
    RedundancyPlanner planner = new RedundancyPlanner(config.memoryOverhead(),
        config.serverBandwidthBytesPerSec());
    RedundancyPlanner.Result plan = planner.plan(states, workers,
        scheme == ComparedScheme.SP ? spRequestRate : 0, new Random(config.seed()));
    int[] units = new int[popularity.length];
    for (int i = 0; i < units.length; i++) {
      units[i] = plan.targets.get(key(i)).redundancy();
    }
    return units;
  }

  private static int[] direct(SimulationConfig config, ComparedScheme scheme, double[] popularity,
      double spRequestRate) {
    List<ObjectDemand> demands = new ArrayList<>(popularity.length);
    for (int i = 0; i < popularity.length; i++) {
      demands.add(new ObjectDemand(key(i), config.objectSizeBytes(), popularity[i]));
    }
    Allocation a;
    switch (scheme) {
      case EC:
        a = new ParityAllocator(config.k(), config.baseParities(), config.memoryOverhead(),
            config.servers()).allocate(demands);
        break;
      case SR:
        a = new ReplicaAllocator(1, config.memoryOverhead(), config.servers()).allocate(demands);
        break;
      default:
        // Seed 1, as the planner gives it.
        a = new PartitionAllocator(config.servers(), config.serverBandwidthBytesPerSec(), spRequestRate, 1)
            .allocate(demands);
        break;
    }
    int[] units = new int[popularity.length];
    for (int i = 0; i < units.length; i++) {
      units[i] = a.unitsOf(key(i));
    }
    return units;
  }

  /** Zero-padded so key order is rank order, which keeps allocator tie-breaks aligned with rank. */
  static String key(int rank) {
    return String.format("obj-%07d", rank);
  }
}
