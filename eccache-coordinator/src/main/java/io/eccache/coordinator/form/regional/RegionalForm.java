package io.eccache.coordinator.form.regional;

import alluxio.exception.AlluxioException;
import alluxio.exception.FileDoesNotExistException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.UnavailableException;
import alluxio.heartbeat.HeartbeatExecutor;
import alluxio.wire.FileInfo;
import alluxio.wire.WorkerInfo;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.RegionMounts;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import io.eccache.coordinator.form.FormContext;
import io.eccache.coordinator.form.HostPort;
import io.eccache.coordinator.form.NamespacePort;
import io.eccache.coordinator.form.SplitFiles;
import io.eccache.coordinator.form.StorageForm;
import io.eccache.coordinator.form.SweepPass;
import io.eccache.coordinator.form.WritePlan;
import io.eccache.policy.SplitPlacement;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Agar's regional objects (docs/agar.md): erasure coded with one code, split i written through to
 * region i mod regions, flat in its bucket, and read from there unless the cache holds it; which
 * splits the cache holds is the {@link RegionalCache}'s choice. The regions are their store: no
 * copy under the key's own name, no re-tuning, no eviction from the cache alone.
 */
public final class RegionalForm implements StorageForm {
  private static final Logger LOG = LoggerFactory.getLogger(RegionalForm.class);
  /** The name of the regional cache's heartbeat. */
  public static final String CACHE_HEARTBEAT = "EcCache Regional Cache";

  private final FormContext context;
  private final NamespacePort ns;
  private final RegionalNamespaces regional;
  private final RegionalCache cache;
  private final long periodMs;

  /**
   * @param regions the regions, in the order splits are dealt to them
   * @param namespaces the regional namespaces, comma-separated
   * @param scheme the regional objects' code, e.g. rs-9-3
   * @param policySpec which splits the cache holds: agar, lfu-C, lru-C or none
   * @param capacitySplits the most splits the cache holds
   * @param periodMs how often the cache is reconfigured; 0: only when a test says so
   * @throws IllegalArgumentException for a bad scheme, policy, or namespaces without regions
   */
  public RegionalForm(FormContext context, RegionMounts regions, String namespaces,
      String scheme, String policySpec, int capacitySplits, long periodMs) {
    this.context = context;
    this.ns = context.namespace();
    this.regional = new RegionalNamespaces(regions, namespaces, scheme);
    this.cache = new RegionalCache(context, this, regional, policySpec, capacitySplits);
    this.periodMs = periodMs;
  }

  @Override
  public String name() {
    return "regional";
  }

  @Override
  public boolean takes(String key) {
    return regional.isRegional(key);
  }

  @Override
  public boolean holds(Layout layout) {
    return layout.getSplitPathsCount() > 0;
  }

  /** Split i in region i mod regions, each through a live worker (distinct while there are). */
  @Override
  public WritePlan plan(String key, long size, Optional<RedundancyScheme> asked, boolean tuned,
      List<WorkerInfo> live) throws InvalidArgumentException, UnavailableException {
    RedundancyScheme scheme = regional.scheme();
    if (asked.isPresent() && !asked.get().equals(scheme)) {
      throw new InvalidArgumentException("'" + key + "' is in a regional namespace, whose objects"
          + " are stored as " + scheme.describe() + " across the regions: PUT it without a"
          + " scheme, or under another namespace");
    }
    if (live.isEmpty()) {
      throw new UnavailableException("no live worker to write '" + key + "' through to its"
          + " regions: start workers, then PUT again");
    }
    int n = scheme.splits();
    List<WorkerInfo> chosen = new ArrayList<>(
        SplitPlacement.chooseDistinct(live, Math.min(n, live.size()), context.random()));
    while (chosen.size() < n) {
      chosen.add(live.get(context.random().nextInt(live.size())));
    }
    return WritePlan.writtenThrough(scheme, chosen, new WritePlan.ThroughPaths() {
      @Override
      public String path(int index, String writeId) {
        return regional.regions().splitPath(index, key, writeId, scheme.splitName(index));
      }

      @Override
      public String region(int index) {
        return regional.regions().forSplit(index).name();
      }
    });
  }

  /**
   * Each split file's status (one getFileInfo each: they are flat in their regions' buckets,
   * among every other object's), live where a live worker caches it, and its region with the
   * latency the region is configured with now.
   */
  @Override
  public LookupResponse.Builder describe(Layout layout, Set<HostPort> live)
      throws IOException, AlluxioException {
    LookupResponse.Builder response = LookupResponse.newBuilder().setLayout(layout);
    for (int i = 0; i < layout.getSplitPathsCount(); i++) {
      String path = layout.getSplitPaths(i);
      Split.Builder split = Split.newBuilder().setIndex(i).setPath(path)
          .setRegion(layout.getSplitRegions(i));
      RegionMounts.Region region = regional.regions().byName(layout.getSplitRegions(i));
      // A region no longer configured is still readable; it is asked last.
      split.setRegionLatencyMicros(region == null ? Long.MAX_VALUE
          : region.latency().toNanos() / 1000);
      try {
        SplitFiles.describe(split, ns.status(path), live);
      } catch (FileDoesNotExistException lost) {
        // removed from its region behind eccache's back: not readable, the others stand in
      }
      response.addSplits(split);
    }
    return response;
  }

  @Override
  public boolean splitsMayShareWorkers() {
    return true; // a regional split is written through to its region: any live worker carries it
  }

  @Override
  public boolean keepsCopyUnderKeyName() {
    return false;
  }

  @Override
  public boolean retuned() {
    return false; // its regions keep every split: nothing to repair or re-tune
  }

  @Override
  public void checkEvictable(String key) throws InvalidArgumentException {
    throw new InvalidArgumentException("'" + key + "' is a regional object: the regions keep it"
        + " and the cache holds what its policy chooses, so it cannot be evicted alone; delete"
        + " it (from the regions too) or leave it");
  }

  @Override
  public void recordReads(String key, long reads) {
    cache.recordReads(key, reads);
  }

  /**
   * Removes regional split files, from Alluxio and their region, of writes that are neither the
   * key's committed version, nor pending, nor retired and still in their grace, once they are
   * older than the allocation timeout: replaced and deleted versions, and abandoned PUTs. A write
   * that is neither pending nor committed can never be committed, so no lock is needed; the check
   * for pending comes first, as a commit writes the layout before it stops being pending. A file
   * named by a long key's hash ({@link RegionMounts#splitPath}) names no key: its write is dead
   * unless some regional object holds it.
   */
  @Override
  public void sweep(SweepPass pass) throws IOException, AlluxioException {
    Map<String, String> committed = new HashMap<>(); // key -> its committed write id ("" none)
    Set<String> committedWrites = null; // every key's, for names that hold a long key's hash
    for (RegionMounts.Region region : regional.regions().regions()) {
      List<FileInfo> files;
      try {
        files = ns.list(region.path(), NamespacePort.Load.NEVER);
      } catch (FileDoesNotExistException notMounted) {
        continue;
      }
      for (FileInfo file : files) {
        RegionMounts.ChunkName chunk = RegionMounts.parseChunkName(file.getName());
        if (chunk == null || file.isFolder() || pass.pending(chunk.writeId)
            || pass.inGrace(chunk.writeId) || !pass.isOld(file)) {
          continue;
        }
        boolean dead;
        if (chunk.key == null) {
          // A long key's hashed name: its write is dead unless some key holds it (write ids are
          // unique). Asked again on a miss, after the pending check: a write committed since the
          // set was made is in it then.
          if (committedWrites == null || !committedWrites.contains(chunk.writeId)) {
            committedWrites = committedWriteIds();
          }
          dead = !committedWrites.contains(chunk.writeId);
        } else {
          String current = committed.get(chunk.key);
          if (current == null) {
            current = pass.committedWriteId(chunk.key);
            committed.put(chunk.key, current);
          }
          dead = !current.equals(chunk.writeId);
        }
        if (dead) {
          try {
            ns.delete(file.getPath(), NamespacePort.Removal.EVERYWHERE);
          } catch (IOException | AlluxioException e) {
            LOG.warn("eccache: could not remove regional split {}: {}", file.getPath(),
                e.toString());
          }
        }
      }
    }
  }

  /** The write ids the regional objects hold now. */
  private Set<String> committedWriteIds() throws IOException, AlluxioException {
    Set<String> ids = new HashSet<>();
    for (Layout layout : context.committed()) {
      if (holds(layout)) {
        ids.add(layout.getWriteId());
      }
    }
    return ids;
  }

  @Override
  public List<Periodic> periodic() {
    return periodMs > 0 ? List.of(new Periodic(CACHE_HEARTBEAT, cache, periodMs)) : List.of();
  }

  /** The regional cache's period, for tests to run one synchronously. */
  public HeartbeatExecutor cache() {
    return cache;
  }

  /**
   * Replaces the regional cache's policy, as if the master had started with it, with no
   * popularity yet; what is cached now is freed at the next period unless the new policy wants it.
   *
   * @throws IllegalArgumentException for a policy spec the cache does not take
   */
  public void usePolicy(String policySpec, int capacitySplits) {
    cache.use(policySpec, capacitySplits);
  }
}
