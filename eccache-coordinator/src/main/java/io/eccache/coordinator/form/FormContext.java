package io.eccache.coordinator.form;

import alluxio.exception.AlluxioException;
import alluxio.exception.status.UnavailableException;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.MaintenanceTask;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Random;
import java.util.Set;

/** What a storage form may use of the coordinator beyond its own state. */
public interface FormContext {
  /** Alluxio's namespace, as the master. */
  NamespacePort namespace();

  /** The workers. */
  WorkersPort workers();

  /** The live workers' ids, from a view kept across lookups. */
  Set<HostPort> liveWorkerIds() throws UnavailableException;

  /** The committed layouts of every form. */
  List<Layout> committed() throws IOException, AlluxioException;

  /**
   * Replaces the caching tasks maintainers are handed (a form's periodic loads and removals); the
   * re-tuning passes' tasks are kept.
   */
  void refillCaching(List<MaintenanceTask> tasks);

  /** The coordinator's random source, for placement. */
  Random random();

  /** The coordinator's clock. */
  Clock clock();

  /** eccache's root directory in Alluxio's namespace; a form keeps its own under it. */
  String root();

  /**
   * Creates the files at {@code paths} with {@code options} all at once (their journal entries
   * in one flush), within a bound.
   *
   * @param what what the files are for, as errors name it
   */
  void createFiles(String what, List<String> paths, NamespacePort.NewFile options)
      throws IOException, AlluxioException;

  /** A step that may fail as a namespace call does. */
  interface LayoutCall<T> {
    T call() throws IOException, AlluxioException;
  }

  /** Runs {@code call} holding {@code key}'s lock, which every change of its layout takes. */
  <T> T lockedKey(String key, LayoutCall<T> call) throws IOException, AlluxioException;

  /** {@code key}'s committed layout, or null; under its lock when it is to be changed. */
  Layout layoutOf(String key) throws IOException, AlluxioException;

  /** Replaces the committed layout of {@code layout}'s key; under the key's lock. */
  void writeLayout(Layout layout) throws IOException, AlluxioException;

  /** Retires a version's write directory: removed after the grace, readable until then. */
  void retire(String writeDirectory, String writeId) throws IOException, AlluxioException;

  /**
   * Queues a task of the form's for maintainers, kept until one reports it done (planned again
   * when its lease expires or it fails), unlike the re-tuning passes' plans.
   */
  void submit(MaintenanceTask task);

  /**
   * Queues a task of the form's for maintainers once: if it fails or its lease expires, the form
   * hears of it ({@link StorageForm#applyChange} with a failed report, or {@link
   * StorageForm#expired}) and plans again itself.
   */
  void submitOnce(MaintenanceTask task);
}
