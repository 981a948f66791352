package io.eccache.worker;

import alluxio.conf.Configuration;
import alluxio.underfs.UfsManager;
import alluxio.worker.Worker;
import alluxio.worker.WorkerFactory;
import alluxio.worker.WorkerRegistry;
import io.eccache.common.EcCacheKeys;
import io.eccache.common.WorkerKeys;

/**
 * Found by a stock Alluxio worker's own ServiceLoader through
 * {@code META-INF/services/alluxio.worker.WorkerFactory} when this jar is on its classpath
 * ({@code ALLUXIO_CLASSPATH}); every worker process (and every in-process test worker) makes its
 * own. Creates the worker's log node when {@code alluxio.worker.eccache.lognode.enabled}.
 */
public final class LogNodeWorkerFactory implements WorkerFactory {
  /** For ServiceLoader; registers eccache's keys, which Alluxio read before the plugin loaded. */
  public LogNodeWorkerFactory() {
    EcCacheKeys.registerAll();
  }

  @Override
  public boolean isEnabled() {
    return Configuration.getBoolean(WorkerKeys.LOG_NODE_ENABLED);
  }

  @Override
  public Worker create(WorkerRegistry registry, UfsManager ufsManager) {
    // Read now: an in-process cluster's global configuration names the next worker later.
    LogNodeWorker worker = new LogNodeWorker(LogNodeSettings.from(Configuration.copyGlobal()));
    registry.add(LogNodeWorker.class, worker);
    return worker;
  }
}
