package io.eccache.worker;

import alluxio.ClientContext;
import alluxio.conf.AlluxioConfiguration;
import alluxio.master.MasterClientContext;
import io.eccache.common.CoordinatorClient;
import io.eccache.common.proto.RegisterLogNodeResponse;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Announces a log node to the coordinator, at once and then again whenever the coordinator asks
 * (a restarted master, or a new primary, learns the node within that period); an announcement
 * that fails is tried again a second later. Runs on the node's timer thread.
 */
final class Announcer {
  private static final Logger LOG = LoggerFactory.getLogger(Announcer.class);
  private static final long RETRY_MS = 1000;

  private final AlluxioConfiguration conf;
  private final alluxio.grpc.WorkerNetAddress worker;
  private final int port;
  /** This start of the node: a restarted node is another boot, without the old one's buffer. */
  private final String boot = java.util.UUID.randomUUID().toString();
  private final ScheduledExecutorService timer;
  /** Gets the coordinator's key of update capabilities from each registration. */
  private final Consumer<byte[]> updateKeys;
  private CoordinatorClient client;
  private boolean warned;

  Announcer(AlluxioConfiguration conf, alluxio.grpc.WorkerNetAddress worker, int port,
      ScheduledExecutorService timer, Consumer<byte[]> updateKeys) {
    this.updateKeys = updateKeys;
    this.conf = conf;
    this.worker = worker;
    this.port = port;
    this.timer = timer;
  }

  void start() {
    schedule(0);
  }

  private void schedule(long delayMs) {
    try {
      timer.schedule(this::announce, delayMs, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException stopping) {
      close();
    }
  }

  private void announce() {
    long next;
    try {
      if (client == null) {
        client = new CoordinatorClient(MasterClientContext.newBuilder(ClientContext.create(conf))
            .build());
      }
      RegisterLogNodeResponse registered = client.registerLogNode(worker, port, boot);
      updateKeys.accept(registered.getUpdateKey().toByteArray());
      next = registered.getReregisterMs();
      if (warned) {
        LOG.info("eccache log node {}:{} announced to the coordinator", worker.getHost(), port);
        warned = false;
      }
    } catch (Exception e) {
      if (!warned) {
        LOG.warn("eccache log node {}:{} could not announce itself to the coordinator (trying"
            + " again every {} ms): {}", worker.getHost(), port, RETRY_MS, e.toString());
        warned = true;
      }
      next = RETRY_MS;
    }
    if (Thread.currentThread().isInterrupted()) {
      close();
      return;
    }
    schedule(next);
  }

  private void close() {
    if (client != null) {
      try {
        client.close();
      } catch (Exception e) {
        LOG.debug("closing the coordinator client", e);
      }
      client = null;
    }
  }
}
