package io.eccache.coordinator;

import alluxio.exception.AlluxioException;
import alluxio.exception.status.UnavailableException;
import io.eccache.common.ObjectPaths;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.MaintenanceTask;
import io.eccache.coordinator.form.FormContext;
import io.eccache.coordinator.form.HostPort;
import io.eccache.coordinator.form.NamespacePort;
import io.eccache.coordinator.form.WorkersPort;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
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
  private final Clock clock;
  private final ObjectPaths paths;
  private final Supplier<LayoutStore> layouts;
  private final Supplier<MaintenanceQueue> queue;
  private final Supplier<NamespaceSweeper> sweeper;
  private final FileCreator files;

  CoordinatorFormContext(NamespacePort namespace, WorkersPort workers, Random random, Clock clock,
      ObjectPaths paths, Supplier<LayoutStore> layouts, Supplier<MaintenanceQueue> queue,
      Supplier<NamespaceSweeper> sweeper, Supplier<ExecutorService> executor) {
    this.files = new FileCreator(namespace, executor);
    this.paths = paths;
    this.namespace = namespace;
    this.workers = workers;
    this.random = random;
    this.clock = clock;
    this.layouts = layouts;
    this.queue = queue;
    this.sweeper = sweeper;
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
    queue.get().refillCaching(tasks);
  }

  @Override
  public Random random() {
    return random;
  }

  @Override
  public Clock clock() {
    return clock;
  }

  @Override
  public String root() {
    return paths.rootDirectory();
  }

  @Override
  public void createFiles(String what, List<String> paths, NamespacePort.NewFile options)
      throws IOException, AlluxioException {
    files.create(what, paths, options, null);
  }

  @Override
  public <T> T lockedKey(String key, LayoutCall<T> call) throws IOException, AlluxioException {
    return layouts.get().locked(key, call::call);
  }

  @Override
  public Layout layoutOf(String key) throws IOException, AlluxioException {
    return layouts.get().readIfPresent(paths.objectDirectory(key));
  }

  @Override
  public void writeLayout(Layout layout) throws IOException, AlluxioException {
    layouts.get().write(paths.objectDirectory(layout.getKey()), layout);
  }

  @Override
  public void retire(String writeDirectory, String writeId) throws IOException, AlluxioException {
    sweeper.get().retire(writeDirectory, writeId, clock.millis());
  }

  @Override
  public void submit(MaintenanceTask task) {
    queue.get().submit(task, true);
  }

  @Override
  public void submitOnce(MaintenanceTask task) {
    queue.get().submit(task, false);
  }
}
