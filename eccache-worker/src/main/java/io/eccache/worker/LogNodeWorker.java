package io.eccache.worker;

import alluxio.Server;
import alluxio.grpc.GrpcService;
import alluxio.grpc.GrpcUtils;
import alluxio.grpc.ServiceType;
import alluxio.wire.WorkerNetAddress;
import alluxio.worker.Worker;
import alluxio.worker.block.BlockWorker;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A log node inside an Alluxio worker: its logs ({@link LogNodeHost}) served by
 * {@link LogNodeService} on a gRPC server of its own (the worker serves no plugin's services on
 * its port), on the worker's host, with Alluxio's authentication; maintained on a timer and
 * announced to the coordinator ({@link Announcer}). Starts after the block worker, stops before
 * it. Alluxio never calls {@link #close()} on a worker's servers, so {@link #stop()} releases all.
 */
final class LogNodeWorker implements Worker {
  private static final Logger LOG = LoggerFactory.getLogger(LogNodeWorker.class);

  private final LogNodeSettings settings;
  private LogNodeServer server;
  private UndecidedResolver resolver;

  LogNodeWorker(LogNodeSettings settings) {
    this.settings = settings;
  }

  @Override
  public Set<Class<? extends Server>> getDependencies() {
    return Set.of(BlockWorker.class);
  }

  @Override
  public String getName() {
    return "EcCacheLogNode";
  }

  @Override
  public Map<ServiceType, GrpcService> getServices() {
    return Map.of(); // served on the node's own port: the worker's data server takes no services
  }

  @Override
  public synchronized void start(WorkerNetAddress address) throws IOException {
    server = LogNodeServer.start(address.getHost(), settings);
    new Announcer(settings.conf, GrpcUtils.toProto(address), server.port(), server.timer,
        server.service::updateKey).start();
    resolver = new UndecidedResolver(settings, server.host, address.getHost());
    resolver.start();
    LOG.info("eccache log node of worker {} serves on {}:{} ({}, {})", address.getHost(),
        address.getHost(), server.port(), settings.directory, settings.scheme);
  }

  @Override
  public synchronized void stop() {
    // Never throws: the worker stops the block worker after this.
    if (resolver != null) {
      resolver.close();
      resolver = null;
    }
    if (server != null) {
      server.close();
      server = null;
    }
  }

  @Override
  public void close() {
    stop();
  }
}
