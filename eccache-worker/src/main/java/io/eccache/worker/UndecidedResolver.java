package io.eccache.worker;

import alluxio.ClientContext;
import alluxio.master.MasterClientContext;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import io.eccache.common.CoordinatorClient;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides the deltas a log node holds without their update's outcome, by asking the coordinator
 * (UpdateOutcome): a writer that died between its delta and its commit, or whose notice was lost,
 * would otherwise leave its delta in the buffer (and the node behind the stripe) until the
 * stripe's next update or a reader's notice. On a thread of its own, so a slow coordinator never
 * delays a flush.
 */
final class UndecidedResolver implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(UndecidedResolver.class);
  /** How often it looks, and how long a delta waits for its writer's notice first. */
  static final Duration PERIOD = Duration.ofSeconds(5);

  private final LogNodeSettings settings;
  private final LogNodeHost host;
  private final ScheduledExecutorService thread;
  private CoordinatorClient coordinator;

  UndecidedResolver(LogNodeSettings settings, LogNodeHost host, String name) {
    this.settings = settings;
    this.host = host;
    this.thread = Executors.newSingleThreadScheduledExecutor(new ThreadFactoryBuilder()
        .setDaemon(true).setNameFormat("eccache-lognode-outcomes-" + name).build());
  }

  void start() {
    thread.scheduleWithFixedDelay(this::resolve, PERIOD.toMillis(), PERIOD.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  private void resolve() {
    try {
      if (coordinator == null) {
        coordinator = new CoordinatorClient(MasterClientContext.newBuilder(
            ClientContext.create(settings.conf)).build());
      }
      int decided = host.resolveUndecided(PERIOD, coordinator::updateOutcome);
      if (decided > 0) {
        LOG.info("eccache log node: decided {} update(s) their writers never told it of",
            decided);
      }
    } catch (RuntimeException e) {
      LOG.debug("eccache log node: asking the coordinator about undecided updates: {}",
          e.toString());
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
    try {
      thread.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (coordinator != null) {
      try {
        coordinator.close();
      } catch (Exception e) {
        LOG.debug("closing the coordinator client", e);
      }
    }
  }
}
