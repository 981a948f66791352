package io.eccache.coordinator;

import alluxio.exception.AlluxioException;
import alluxio.exception.status.UnavailableException;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.MaintenanceTask;
import io.eccache.coordinator.form.FormContext;
import io.eccache.coordinator.form.HostPort;
import io.eccache.coordinator.form.NamespacePort;
import io.eccache.coordinator.form.WorkersPort;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What the storage forms may use of the coordinator. The layout store is made after the forms (it
 * asks them how to describe each layout), so it is reached through a supplier, asked only once the
 * coordinator runs.
 */
final class CoordinatorFormContext implements FormContext {
  private final NamespacePort namespace;
  private final WorkersPort workers;
  private final Random random;
  private final Supplier<LayoutStore> layouts;
  private final Consumer<List<MaintenanceTask>> caching;

  /** @param caching takes a form's caching tasks (the maintenance queue's refill) */
  CoordinatorFormContext(NamespacePort namespace, WorkersPort workers, Random random,
      Supplier<LayoutStore> layouts, Consumer<List<MaintenanceTask>> caching) {
    this.namespace = namespace;
    this.workers = workers;
    this.random = random;
    this.layouts = layouts;
    this.caching = caching;
  }

  @Override
  public NamespacePort namespace() {
    return namespace;
  }

  @Override
  public WorkersPort workers() {
    return workers;
  }

  @Override
  public Set<HostPort> liveWorkerIds() throws UnavailableException {
    return layouts.get().liveWorkerIds();
  }

  @Override
  public List<Layout> committed() throws IOException, AlluxioException {
    return layouts.get().list("").getObjectsList();
  }

  @Override
  public void refillCaching(List<MaintenanceTask> tasks) {
    caching.accept(tasks);
  }

  @Override
  public Random random() {
    return random;
  }
}
