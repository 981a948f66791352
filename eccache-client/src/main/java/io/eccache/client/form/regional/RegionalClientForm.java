package io.eccache.client.form.regional;

import alluxio.client.file.URIStatus;
import alluxio.exception.status.DeadlineExceededException;
import alluxio.grpc.GrpcUtils;
import io.eccache.client.form.ClientForm;
import io.eccache.client.form.MaintenanceStep;
import io.eccache.client.form.Maintainer;
import io.eccache.client.form.SplitOrder;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.ApplyChangeRequest;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.MaintenanceTask;
import io.eccache.common.proto.Split;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Agar's regional objects on the client's side (docs/agar.md): the splits a live worker caches are
 * read first, then the others from their regions, nearest first; and the regional cache's tasks,
 * loading splits into workers' caches from their regions and removing them again.
 */
public final class RegionalClientForm implements ClientForm {
  @Override
  public boolean holds(Layout layout) {
    return layout.getSplitPathsCount() > 0;
  }

  /**
   * The cached splits first, in random order, then the others from their regions, nearest first
   * (ties by index): the k read are the cached ones and the nearest of the rest, and a failed read
   * is replaced by the next nearest.
   */
  @Override
  public Optional<SplitOrder> readOrder() {
    return Optional.of((lookup, k, random) -> {
      List<Split> cached = new ArrayList<>();
      List<Split> regional = new ArrayList<>();
      for (Split s : lookup.getSplitsList()) {
        if (s.hasStatus()) {
          (s.getLive() ? cached : regional).add(s);
        }
      }
      Collections.shuffle(cached, random);
      regional.sort(Comparator.comparingLong(Split::getRegionLatencyMicros)
          .thenComparingInt(Split::getIndex));
      cached.addAll(regional);
      return cached;
    });
  }

  @Override
  public Map<MaintenanceTask.Kind, MaintenanceStep> maintenance() {
    return Map.of(MaintenanceTask.Kind.CACHE_SPLITS, RegionalClientForm::cacheSplits,
        MaintenanceTask.Kind.UNCACHE_SPLITS, RegionalClientForm::uncacheSplits);
  }

  /**
   * Loads the task's splits from their regions into the chosen workers' caches; the regions keep
   * them, and nothing in the layout changes.
   */
  private static long cacheSplits(MaintenanceTask task, Maintainer maintainer,
      ApplyChangeRequest.Builder report) throws IOException {
    LookupResponse lookup = maintainer.lookupPlanned(task);
    // All at once, each on an I/O thread: every load waits a round trip to a distant region.
    List<Future<Long>> loads = new ArrayList<>();
    for (int j = 0; j < task.getSplitsCount(); j++) {
      Split split = lookup.getSplits(task.getSplits(j));
      if (!split.hasStatus()) {
        throw new IOException("split " + split.getPath() + " of '" + task.getKey()
            + "' is missing from its region");
      }
      URIStatus status = new URIStatus(GrpcUtils.fromProto(split.getStatus()));
      maintainer.acquireBandwidth(Math.max(1, status.getLength()));
      alluxio.grpc.WorkerNetAddress worker = task.getWorkers(j);
      loads.add(maintainer.io().submit(() -> maintainer.cacheOn(status, worker)));
    }
    long moved = 0;
    IOException failure = null;
    long timeoutMs = maintainer.ioTimeoutMs();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    for (Future<Long> load : loads) {
      try {
        moved += load.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        load.cancel(true);
        failure = failure != null ? failure : new DeadlineExceededException("loading a split of '"
            + task.getKey() + "' into a worker took more than " + timeoutMs
            + " ms (alluxio.user.eccache.io.timeout): check its region and the worker");
      } catch (ExecutionException e) {
        failure = failure != null ? failure : new IOException("loading a split of '"
            + task.getKey() + "' failed: " + e.getCause(), e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while loading splits of '" + task.getKey() + "'", e);
      }
    }
    if (failure != null) {
      throw failure;
    }
    return moved;
  }

  /**
   * Removes the task's splits from the workers caching them. The coordinator freed them already;
   * Alluxio 2.9.6's free often leaves the block on its worker, so the worker is asked directly
   * (Alluxio's RemoveBlock). A block gone already is fine.
   */
  private static long uncacheSplits(MaintenanceTask task, Maintainer maintainer,
      ApplyChangeRequest.Builder report) throws IOException {
    LookupResponse lookup = maintainer.lookupPlanned(task);
    for (int j = 0; j < task.getSplitsCount(); j++) {
      Split split = lookup.getSplits(task.getSplits(j));
      if (split.hasStatus()) {
        maintainer.uncacheOn(new URIStatus(GrpcUtils.fromProto(split.getStatus())),
            task.getWorkers(j));
      }
    }
    return 0;
  }
}
