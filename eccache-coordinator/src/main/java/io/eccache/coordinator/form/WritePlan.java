package io.eccache.coordinator.form;

import alluxio.wire.WorkerInfo;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.proto.Layout;
import java.util.List;
import java.util.function.UnaryOperator;

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
  /** What the form adds to the write's layout record (its own fields). */
  public final UnaryOperator<Layout.Builder> layoutFields;

  /** Split files the writer creates outside the write's directory and writes through. */
  public interface ThroughPaths {
    /** The file of split {@code index} of write {@code writeId}. */
    String path(int index, String writeId);

    /** The region split {@code index} lives in. */
    String region(int index);
  }

  private WritePlan(RedundancyScheme scheme, boolean tuned, List<WorkerInfo> workers,
      ThroughPaths throughPaths, UnaryOperator<Layout.Builder> layoutFields) {
    this.scheme = scheme;
    this.tuned = tuned;
    this.workers = List.copyOf(workers);
    this.throughPaths = throughPaths;
    this.layoutFields = layoutFields;
  }

  /** This plan, its layout record given the form's own fields by {@code fields}. */
  public WritePlan withLayoutFields(UnaryOperator<Layout.Builder> fields) {
    return new WritePlan(scheme, tuned, workers, throughPaths, fields);
  }

  /** Split files in the write's directory, created by the master, cached only. */
  public static WritePlan inWriteDirectory(RedundancyScheme scheme, boolean tuned,
      List<WorkerInfo> workers) {
    return new WritePlan(scheme, tuned, workers, null, UnaryOperator.identity());
  }

  /**
   * Split files where {@code paths} says, created by the writer and written through to the under
   * store each lives in.
   */
  public static WritePlan writtenThrough(RedundancyScheme scheme, List<WorkerInfo> workers,
      ThroughPaths paths) {
    return new WritePlan(scheme, false, workers, paths, UnaryOperator.identity());
  }

  /** Whether the writer creates the split files and writes them through. */
  public boolean writeThrough() {
    return throughPaths != null;
  }
}
