package io.eccache.coordinator.form;

import alluxio.exception.AlluxioException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.NotFoundException;
import alluxio.heartbeat.HeartbeatExecutor;
import alluxio.wire.WorkerInfo;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.ApplyChangeRequest;
import io.eccache.common.proto.CommitUpdateRequest;
import io.eccache.common.proto.CommitUpdateResponse;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.MaintenanceTask;
import io.eccache.common.proto.StatsResponse;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One way eccache stores objects, on the coordinator's side: which keys take it, how a new write of
 * it is laid out, what a lookup says of its splits, what the sweep may collect of it and what it
 * runs periodically. The write protocol (pending writes, commit, retire, delete) and the layout
 * record are shared; a form decides, the protocol carries out (as Hadoop's {@code ErasureCodec}
 * ties a scheme to its block layout and leaves the I/O to its streams).
 *
 * <p>Forms are registered once, in {@link StorageForms}; each lives in its own package. See
 * docs/design.md, "Storage forms", for how to add one.
 */
public interface StorageForm {
  /** The form's name, as docs and logs say it. */
  String name();

  /** Whether a new write of {@code key} takes this form (its namespaces, from configuration). */
  boolean takes(String key);

  /** Whether the kept layout {@code layout} is of this form. */
  boolean holds(Layout layout);

  /**
   * How a new write of {@code key} is laid out: its scheme, a worker per split and where the split
   * files go.
   *
   * @param size the object's size, or -1 when not known until the commit
   * @param asked the scheme the writer insists on, if any
   * @param tuned with {@code asked}: the coordinator chose it earlier and keeps tuning it
   * @param live the live workers
   * @throws InvalidArgumentException for a scheme this form does not store
   */
  WritePlan plan(String key, long size, Optional<RedundancyScheme> asked, boolean tuned,
      List<WorkerInfo> live) throws IOException, AlluxioException;

  /**
   * The splits of a kept layout of this form: each file's path and status, the worker caching it
   * and whether that worker is live.
   */
  LookupResponse.Builder describe(Layout layout, Set<HostPort> live)
      throws IOException, AlluxioException;

  /**
   * Whether a write's split may go to a worker holding another of its splits when no other is
   * left (a split that is also kept elsewhere, as in a region, may).
   */
  default boolean splitsMayShareWorkers() {
    return false;
  }

  /**
   * Whether the key's own name in the root under store is this form's copy, kept in step with the
   * cached version (a cache-only version removes it; a delete removes it too).
   */
  default boolean keepsCopyUnderKeyName() {
    return true;
  }

  /** Whether the coordinator re-tunes this form's redundancy from popularity and repairs it. */
  default boolean retuned() {
    return true;
  }

  /**
   * Refuses to evict {@code key} from the cache alone, with a typed error that says why, when this
   * form cannot.
   */
  default void checkEvictable(String key) throws InvalidArgumentException {}

  /** Whether a PUT of a key this form takes may be an update where the value is kept. */
  default boolean updatesInPlace() {
    return false;
  }

  /**
   * An update of the key's committed value {@code current} where it is kept, by a writer of
   * {@code size} bytes who can do one (a cache-only PUT of an array): the writer's instructions;
   * empty when this form does not, or not for this value (the PUT is then a new write). Files the
   * writer is to write belong to {@code writer}, created here as a new write's split files are
   * (the writer may not create files in eccache's directories).
   *
   * @throws alluxio.exception.status.AbortedException when the value is being changed by another
   *     update: try again
   */
  default Optional<AllocateResponse> beginUpdate(Layout current, long size,
      NamespacePort.Owner writer)
      throws IOException, AlluxioException {
    return Optional.empty();
  }

  /**
   * Commits an update {@link #beginUpdate} began, under the key's lock: records the new version
   * (the key's new layout included).
   *
   * @throws alluxio.exception.status.AbortedException when the update no longer holds its lease:
   *     nothing changed
   */
  default CommitUpdateResponse commitUpdate(Layout current, CommitUpdateRequest request,
      String writer) throws IOException, AlluxioException {
    throw new NotFoundException("'" + current.getKey() + "' is not updated in place: no update "
        + request.getUpdateId() + " to commit; PUT it again");
  }

  /** Gives up an update {@link #beginUpdate} began; nothing changed. */
  default void abortUpdate(Layout current, long updateId) throws IOException, AlluxioException {}

  /**
   * Called when a write of this form committed {@code layout} (under the key's lock, after the
   * layout was written).
   */
  default void committed(Layout layout) throws IOException, AlluxioException {}

  /**
   * Records what a maintainer did for a task of this form's own kind; empty for a task that is
   * not this form's.
   *
   * @return whether the change was applied (false: the objects changed meanwhile)
   */
  default Optional<Boolean> applyChange(MaintenanceTask task, ApplyChangeRequest request)
      throws IOException, AlluxioException {
    return Optional.empty();
  }

  /**
   * A task of this form's handed out once ({@link FormContext#submitOnce}) was not reported
   * before its lease expired (its maintainer stopped): plan it again if it is still needed.
   */
  default void expired(MaintenanceTask task) {}

  /** Adds this form's own figures to the cluster's statistics, from every committed layout. */
  default void addStats(List<Layout> committed, StatsResponse.Builder stats) {}

  /**
   * A committed version of one of this form's objects, {@code previous}, stopped being its key's
   * current one (a new version committed, or the key was deleted or evicted); under the key's
   * lock. Its files are retired by then.
   */
  default void superseded(Layout previous) {}

  /** Counts {@code reads} reads of {@code key} (one lookup, or a client's report). */
  default void recordReads(String key, long reads) {}

  /** One sweep's share of this form: removes what no version of its objects needs any more. */
  default void sweep(SweepPass pass) throws IOException, AlluxioException {}

  /** Work the primary master runs for this form every period, named as Alluxio's heartbeats are. */
  default List<Periodic> periodic() {
    return List.of();
  }

  /** A heartbeat of a form, with its period. */
  final class Periodic {
    public final String name;
    public final HeartbeatExecutor executor;
    public final long periodMs;

    public Periodic(String name, HeartbeatExecutor executor, long periodMs) {
      this.name = name;
      this.executor = executor;
      this.periodMs = periodMs;
    }
  }
}
