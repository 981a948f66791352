package io.eccache.coordinator.form.regional;

import alluxio.exception.AlluxioException;
import alluxio.exception.FileDoesNotExistException;
import alluxio.grpc.GrpcUtils;
import alluxio.heartbeat.HeartbeatExecutor;
import alluxio.wire.WorkerInfo;
import alluxio.wire.WorkerNetAddress;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.RegionMounts;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.MaintenanceTask;
import io.eccache.common.proto.Split;
import io.eccache.coordinator.form.FormContext;
import io.eccache.coordinator.form.HostPort;
import io.eccache.policy.agar.AgarPolicy;
import io.eccache.policy.agar.ChunkCachePolicy;
import io.eccache.policy.agar.ChunkLayout;
import io.eccache.policy.agar.LfuChunkPolicy;
import io.eccache.policy.agar.LruChunkPolicy;
import io.eccache.policy.agar.Region;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cache's share of regional objects (Agar, docs/agar.md): a {@link ChunkCachePolicy} counts
 * their reads and, once per period (this heartbeat), says which splits of which objects to hold.
 * The heartbeat then frees the splits held beyond that (Alluxio's free: the regions keep them),
 * plans {@code UNCACHE_SPLITS} tasks for maintainers to remove them from their workers too (the
 * free alone often leaves them there), and {@code CACHE_SPLITS} tasks to load the missing ones,
 * each on a live worker holding no other split of the object. The layout never changes: whether
 * a split is cached is where Alluxio says its block is.
 */
final class RegionalCache implements HeartbeatExecutor {
  private static final Logger LOG = LoggerFactory.getLogger(RegionalCache.class);
  /** What the policies take a read from the cache to cost (loopback or one rack: next to none). */
  static final Duration CACHE_READ_LATENCY = Duration.ofMillis(1);

  private final FormContext context;
  private final RegionalForm form;
  private final RegionalNamespaces regional;
  /** Null when the policy is {@code none} or the cache holds no split. */
  private volatile ChunkCachePolicy policy;

  RegionalCache(FormContext context, RegionalForm form, RegionalNamespaces regional,
      String policySpec, int capacitySplits) {
    this.context = context;
    this.form = form;
    this.regional = regional;
    this.policy = policy(policySpec, regional, capacitySplits);
  }

  /**
   * The policy {@code spec} names: agar, lfu-C, lru-C or none.
   *
   * @throws IllegalArgumentException for any other spec, or C outside 1..k
   */
  static ChunkCachePolicy policy(String spec, RegionalNamespaces regional, int capacitySplits) {
    String s = spec.trim().toLowerCase(Locale.ROOT);
    if (s.equals("none") || capacitySplits <= 0 || regional.regions().isEmpty()) {
      if (!s.equals("none") && !s.equals("agar") && !s.matches("l[fr]u-\\d{1,3}")) {
        throw new IllegalArgumentException("unknown regional policy '" + spec + "': use agar,"
            + " lfu-C, lru-C (C splits per cached object) or none");
      }
      return null;
    }
    RedundancyScheme scheme = regional.scheme();
    List<Region> regions = new ArrayList<>();
    for (RegionMounts.Region r : regional.regions().regions()) {
      regions.add(new Region(r.name(), r.latency()));
    }
    ChunkLayout layout = new ChunkLayout(scheme.dataSplits(), scheme.paritySplits(), regions,
        CACHE_READ_LATENCY);
    if (s.equals("agar")) {
      return new AgarPolicy(layout, capacitySplits);
    }
    if (s.matches("l[fr]u-\\d{1,3}")) {
      int c = Integer.parseInt(s.substring(4));
      if (c < 1 || c > scheme.dataSplits()) {
        throw new IllegalArgumentException("regional policy '" + spec + "': C must be 1.."
            + scheme.dataSplits() + " (k)");
      }
      return s.startsWith("lfu") ? new LfuChunkPolicy(layout, capacitySplits, c,
          AgarPolicy.DEFAULT_ALPHA) : new LruChunkPolicy(layout, capacitySplits, c);
    }
    throw new IllegalArgumentException("unknown regional policy '" + spec + "': use agar,"
        + " lfu-C, lru-C (C splits per cached object) or none");
  }

  /**
   * Replaces the policy with a fresh one (no popularity, nothing chosen) and drops the loads the
   * old one planned; what is cached stays until the next period frees it.
   *
   * @throws IllegalArgumentException for a policy spec {@link #policy} does not take
   */
  synchronized void use(String policySpec, int capacitySplits) {
    policy = policy(policySpec, regional, capacitySplits);
    context.refillCaching(List.of()); // the old policy's loads are not the new one's
  }

  /** Counts {@code reads} reads of {@code key} when it is regional. */
  void recordReads(String key, long reads) {
    ChunkCachePolicy p = policy;
    if (p != null && regional.isRegional(key)) {
      for (long i = 0; i < reads; i++) {
        p.recordRead(key);
      }
    }
  }

  /**
   * One period: the policy reconfigures, surplus splits are freed and missing ones planned. A
   * failure is logged and the next period tries again.
   */
  @Override
  public synchronized void heartbeat(long timeLimitMs) {
    ChunkCachePolicy p = policy;
    if (p == null) {
      return;
    }
    try {
      p.tick();
      context.refillCaching(reconcile(p));
    } catch (IOException | AlluxioException | RuntimeException e) {
      LOG.warn("eccache: reconfiguring the regional cache failed; the next period retries: {}",
          e.toString());
    }
  }

  /**
   * Frees what the policy no longer holds; returns the tasks for maintainers: splits to remove
   * from the workers still holding them, and the loads it misses.
   */
  private List<MaintenanceTask> reconcile(ChunkCachePolicy policy)
      throws IOException, AlluxioException {
    Set<HostPort> live = context.liveWorkerIds();
    List<WorkerNetAddress> liveWorkers = new ArrayList<>();
    for (WorkerInfo w : context.workers().live()) {
      liveWorkers.add(w.getAddress());
    }
    List<MaintenanceTask> tasks = new ArrayList<>();
    for (Layout layout : context.committed()) {
      if (!form.holds(layout)) {
        continue;
      }
      LookupResponse described;
      try {
        described = form.describe(layout, live).build();
      } catch (FileDoesNotExistException replacedMeanwhile) {
        continue;
      }
      Set<Integer> wanted = new HashSet<>(policy.cachedChunks(layout.getKey()));
      Set<String> holding = new HashSet<>(); // workers holding a split of it that stays
      List<Integer> missing = new ArrayList<>();
      MaintenanceTask.Builder drops = MaintenanceTask.newBuilder()
          .setKind(MaintenanceTask.Kind.UNCACHE_SPLITS).setKey(layout.getKey())
          .setWriteId(layout.getWriteId()).setTarget(layout.getScheme());
      for (Split split : described.getSplitsList()) {
        boolean cached = split.hasWorker();
        if (cached && !wanted.contains(split.getIndex())) {
          // Alluxio 2.9.6's free often leaves the block on its worker (docs/agar.md): a
          // maintainer also asks that worker to remove it.
          free(split.getPath());
          drops.addSplits(split.getIndex()).addWorkers(split.getWorker());
        } else if (cached && split.getLive()) {
          holding.add(split.getWorker().getHost() + ":" + split.getWorker().getRpcPort());
        } else if (!cached && wanted.contains(split.getIndex()) && split.hasStatus()) {
          missing.add(split.getIndex());
        }
      }
      if (drops.getSplitsCount() > 0) {
        // An object only gains or only loses splits in a period (a policy's options for it are
        // nested), so its one task at a time is this one.
        tasks.add(drops.build());
      }
      if (missing.isEmpty()) {
        continue;
      }
      List<WorkerNetAddress> free = new ArrayList<>();
      for (WorkerNetAddress w : liveWorkers) {
        if (!holding.contains(w.getHost() + ":" + w.getRpcPort())) {
          free.add(w);
        }
      }
      Collections.shuffle(free, context.random());
      MaintenanceTask.Builder task = MaintenanceTask.newBuilder()
          .setKind(MaintenanceTask.Kind.CACHE_SPLITS).setKey(layout.getKey())
          .setWriteId(layout.getWriteId()).setTarget(layout.getScheme());
      for (int j = 0; j < missing.size() && !free.isEmpty(); j++) {
        // Distinct workers while there are enough; then any, as a split's region still has it.
        WorkerNetAddress w = free.get(j % free.size());
        task.addSplits(missing.get(j)).addWorkers(GrpcUtils.toProto(w));
      }
      if (task.getSplitsCount() > 0) {
        tasks.add(task.build());
      }
    }
    return tasks;
  }

  private void free(String path) {
    try {
      context.namespace().free(path);
    } catch (IOException | AlluxioException e) {
      LOG.warn("eccache: could not free regional split {}: {}", path, e.toString());
    }
  }

  @Override
  public void close() {}
}
