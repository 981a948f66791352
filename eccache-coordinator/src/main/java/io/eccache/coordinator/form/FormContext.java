package io.eccache.coordinator.form;

import alluxio.exception.AlluxioException;
import alluxio.exception.status.UnavailableException;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.MaintenanceTask;
import java.io.IOException;
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
}
