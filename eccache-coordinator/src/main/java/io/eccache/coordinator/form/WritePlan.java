package io.eccache.coordinator.form;

import alluxio.wire.WorkerInfo;
import io.eccache.common.RedundancyScheme;
import java.util.List;

/**
 * How a new write is laid out, as its form chose: the scheme, a worker per split, and whether the
 * split files are the master's to create in the write's private directory or the writer's to
 * create elsewhere and write through to their under store (a region).
 */
public final class WritePlan {
  public final RedundancyScheme scheme;
  /** Whether the coordinator chose the scheme and keeps tuning it. */
  public final boolean tuned;
  /** One per split. */
  public final List<WorkerInfo> workers;
  /** Where each split file goes when the writer makes it elsewhere; null: the write's directory. */
  public final ThroughPaths throughPaths;

  /** Split files the writer creates outside the write's directory and writes through. */
  public interface ThroughPaths {
    /** The file of split {@code index} of write {@code writeId}. */
    String path(int index, String writeId);

    /** The region split {@code index} lives in. */
    String region(int index);
  }

  private WritePlan(RedundancyScheme scheme, boolean tuned, List<WorkerInfo> workers,
      ThroughPaths throughPaths) {
    this.scheme = scheme;
    this.tuned = tuned;
    this.workers = List.copyOf(workers);
    this.throughPaths = throughPaths;
  }

  /** Split files in the write's directory, created by the master, cached only. */
  public static WritePlan inWriteDirectory(RedundancyScheme scheme, boolean tuned,
      List<WorkerInfo> workers) {
    return new WritePlan(scheme, tuned, workers, null);
  }

  /**
   * Split files where {@code paths} says, created by the writer and written through to the under
   * store each lives in.
   */
  public static WritePlan writtenThrough(RedundancyScheme scheme, List<WorkerInfo> workers,
      ThroughPaths paths) {
    return new WritePlan(scheme, false, workers, paths);
  }

  /** Whether the writer creates the split files and writes them through. */
  public boolean writeThrough() {
    return throughPaths != null;
  }
}
