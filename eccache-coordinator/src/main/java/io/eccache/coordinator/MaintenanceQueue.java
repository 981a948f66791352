package io.eccache.coordinator;

import alluxio.exception.AlluxioException;
import alluxio.exception.status.FailedPreconditionException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.NotFoundException;
import alluxio.wire.FileInfo;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.ApplyChangeRequest;
import io.eccache.common.proto.ApplyChangeResponse;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.MaintenanceTask;
import io.eccache.common.proto.PlanResponse;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The work re-tuning passes plan for maintainers (repair lost splits, add parities or copies,
 * repartition): queued until a maintainer asks ({@code Plan}), then handed out under a lease, at most
 * one task per object at a time, until the maintainer reports it ({@code ApplyChange}) or the lease
 * expires (the next pass plans it again). Reports of added splits become one layout update.
 */
final class MaintenanceQueue {
  private static final Logger LOG = LoggerFactory.getLogger(MaintenanceQueue.class);

  private final LayoutStore layouts;
  private final CoordinatorMetrics metrics;
  private final Clock clock;
  private final long leaseMs;
  /** Guarded by {@code this}: the last pass's plan and the tasks handed out. */
  private final Deque<MaintenanceTask> queued = new ArrayDeque<>();
  /** Guarded by {@code this}: the regional cache's last period's loads. */
  private final Deque<MaintenanceTask> caching = new ArrayDeque<>();
  /** Guarded by {@code this}: the forms' own tasks, kept until reported done. */
  private final Deque<MaintenanceTask> submitted = new ArrayDeque<>();
  /** Guarded by {@code this}: the forms' own tasks handed out once (the form plans them again). */
  private final Deque<MaintenanceTask> submittedOnce = new ArrayDeque<>();
  private final Map<String, Lease> leases = new HashMap<>();
  private final Set<String> leasedKeys = new HashSet<>();

  /**
   * @param layouts where reported splits are checked and recorded; only
   *     {@link #applyChange} of an {@code ADD_SPLITS} task uses them
   */
  MaintenanceQueue(LayoutStore layouts, CoordinatorMetrics metrics, Clock clock, long leaseMs) {
    this.layouts = layouts;
    this.metrics = metrics;
    this.clock = clock;
    this.leaseMs = leaseMs;
  }

  /** The tasks queued or handed out. */
  synchronized int pending() {
    return queued.size() + caching.size() + submitted.size() + submittedOnce.size()
        + leases.size();
  }

  /**
   * Queues a form's own task ({@link io.eccache.coordinator.form.FormContext#submit}): unlike a
   * pass's plan it stays until a maintainer reports it done, and comes back when its lease
   * expires or the maintainer reports it failed.
   */
  synchronized void submit(MaintenanceTask task, boolean kept) {
    (kept ? submitted : submittedOnce).add(task);
  }

  /**
   * Replaces the queue with a pass's plan: expired leases are given up first, and a task for an
   * object whose task is still leased waits for the next pass.
   */
  synchronized void refill(List<MaintenanceTask> tasks) {
    expireLeases(clock.millis());
    queued.clear();
    for (MaintenanceTask task : tasks) {
      if (!leasedKeys.contains(task.getKey())) {
        queued.add(task);
      }
    }
  }

  /**
   * Replaces the regional cache's loads and removals with a period's ({@link RegionalCache}); the
   * re-tuning passes' tasks are kept, and a task for an object whose task is still leased waits.
   */
  synchronized void refillCaching(List<MaintenanceTask> tasks) {
    expireLeases(clock.millis());
    caching.clear();
    for (MaintenanceTask task : tasks) {
      if (!leasedKeys.contains(task.getKey())) {
        caching.add(task);
      }
    }
  }

  /** Hands out up to {@code max} maintenance tasks, at most one per object, each under a lease. */
  synchronized PlanResponse plan(int max) {
    expireLeases(clock.millis());
    PlanResponse.Builder response = PlanResponse.newBuilder();
    for (Deque<MaintenanceTask> source : List.of(submitted, submittedOnce, queued, caching)) {
      for (var it = source.iterator(); it.hasNext() && response.getTasksCount() < max; ) {
        MaintenanceTask task = it.next();
        it.remove();
        if (!leasedKeys.add(task.getKey())) {
          continue;
        }
        String id = UUID.randomUUID().toString();
        leases.put(id, new Lease(task, clock.millis() + leaseMs, source == submitted,
            source == submittedOnce));
        response.addTasks(task.toBuilder().setLease(id));
      }
    }
    return response.build();
  }

  private void expireLeases(long now) {
    for (var it = leases.values().iterator(); it.hasNext(); ) {
      Lease lease = it.next();
      if (lease.deadlineMs < now) {
        it.remove();
        leasedKeys.remove(lease.task.getKey());
        if (lease.kept) {
          submitted.add(lease.task);
        } else if (lease.once && layouts != null) {
          layouts.forms().expired(lease.task); // its form plans it again
        }
      }
    }
  }

  /** A maintainer reports a task done (or failed); records what it changed. */
  ApplyChangeResponse applyChange(ApplyChangeRequest request)
      throws IOException, AlluxioException {
    Lease lease;
    synchronized (this) {
      lease = leases.remove(request.getLease());
      if (lease != null) {
        leasedKeys.remove(lease.task.getKey());
      }
    }
    if (lease == null) {
      throw new NotFoundException("no maintenance task with lease " + request.getLease()
          + ": it expired after " + leaseMs / 1000 + " s and will be planned again");
    }
    metrics.maintenanceBytes.addAndGet(request.getBytes());
    MaintenanceTask task = lease.task;
    if (request.getFailed()) {
      metrics.tasksFailed.incrementAndGet();
      if (lease.kept) {
        submit(task, true);
      } else if (lease.once) {
        layouts.forms().applyChange(task, request); // its form hears of the failure
      }
      LOG.warn("eccache: {} of '{}' failed in a maintainer: {}", task.getKind(), task.getKey(),
          request.getError());
      return ApplyChangeResponse.newBuilder().setApplied(false).build();
    }
    switch (task.getKind()) {
      case ADD_SPLITS:
        return ApplyChangeResponse.newBuilder().setApplied(addSplits(task, request)).build();
      case REPAIR:
        metrics.splitsRepaired.addAndGet(Math.max(1, task.getSplitsCount()));
        return ApplyChangeResponse.newBuilder().setApplied(true).build();
      case REPARTITION:
        metrics.repartitions.incrementAndGet();
        return ApplyChangeResponse.newBuilder().setApplied(true).build();
      case CACHE_SPLITS:
      case UNCACHE_SPLITS:
        // Nothing to record: where a regional split is cached is where Alluxio says its block is.
        return ApplyChangeResponse.newBuilder().setApplied(true).build();
      default:
        // A kind only one storage form has (a packed stripe's seal).
        try {
          return ApplyChangeResponse.newBuilder().setApplied(layouts.forms()
              .applyChange(task, request).orElseThrow(() -> new InvalidArgumentException(
                  "unknown task kind " + task.getKind()))).build();
        } catch (IOException | AlluxioException | RuntimeException e) {
          if (lease.kept) {
            submit(task, true); // not recorded: to be done again
          }
          throw e;
        }
    }
  }

  /** Records parities (or copies) a maintainer wrote: one layout update, after checking them. */
  private boolean addSplits(MaintenanceTask task, ApplyChangeRequest request)
      throws IOException, AlluxioException {
    String objectDir = layouts.paths().objectDirectory(task.getKey());
    return layouts.locked(task.getKey(), () -> {
      Layout current = layouts.read(objectDir);
      int added = task.getSplitsCount();
      RedundancyScheme target = SchemeProtos.fromProto(task.getTarget());
      RedundancyScheme scheme = current == null ? null : SchemeProtos.of(current);
      if (current == null || !current.getWriteId().equals(task.getWriteId())
          || scheme.kind() != target.kind() || scheme.splits() != target.splits() - added) {
        return false; // replaced, deleted or re-tuned meanwhile: the new files stay unused
      }
      StripeGeometry g = StripeGeometry.of(current);
      if (request.getCrc32CCount() != g.checksums(added)) {
        throw new InvalidArgumentException("ADD_SPLITS of '" + task.getKey() + "' reported "
            + request.getCrc32CCount() + " checksums for " + added + " splits of "
            + g.stripes() + " stripes");
      }
      for (int index : task.getSplitsList()) {
        String split = current.getDirectory() + "/" + scheme.splitName(index);
        FileInfo info = layouts.namespace().status(split);
        if (!info.isCompleted() || info.getLength() != current.getSplitSize()) {
          throw new FailedPreconditionException("new split " + split + " is incomplete");
        }
      }
      layouts.write(objectDir, current.toBuilder().setScheme(task.getTarget())
          .addAllCrc32C(request.getCrc32CList()).build());
      metrics.splitsAdded.addAndGet(added);
      return true;
    });
  }

  /** A task handed to a maintainer and when it is given up on. */
  private static final class Lease {
    final MaintenanceTask task;
    final long deadlineMs;
    /** A form's submitted task: queued again if it is not done. */
    final boolean kept;
    /** A form's task handed out once: its form hears if it is not done. */
    final boolean once;

    Lease(MaintenanceTask task, long deadlineMs, boolean kept, boolean once) {
      this.task = task;
      this.deadlineMs = deadlineMs;
      this.kept = kept;
      this.once = once;
    }
  }
}
