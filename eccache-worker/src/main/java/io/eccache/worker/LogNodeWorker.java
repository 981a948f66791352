package io.eccache.worker;

import alluxio.Server;
import alluxio.grpc.GrpcServer;
import alluxio.grpc.GrpcServerAddress;
import alluxio.grpc.GrpcServerBuilder;
import alluxio.grpc.GrpcService;
import alluxio.grpc.GrpcUtils;
import alluxio.grpc.ServiceType;
import alluxio.wire.WorkerNetAddress;
import alluxio.worker.Worker;
import alluxio.worker.block.BlockWorker;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
  private LogNodeHost host;
  private GrpcServer server;
  private ScheduledExecutorService timer;
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
    host = new LogNodeHost(settings);
    InetSocketAddress bind = new InetSocketAddress(address.getHost(), settings.port);
    LogNodeService service = new LogNodeService(host, settings);
    server = GrpcServerBuilder.forAddress(GrpcServerAddress.create(address.getHost(), bind),
            settings.conf)
        .addService(ServiceType.UNKNOWN_SERVICE, new GrpcService(service.bindService()))
        .build().start();
    int port = server.getBindPort();
    timer = Executors.newSingleThreadScheduledExecutor(new ThreadFactoryBuilder().setDaemon(true)
        .setNameFormat("eccache-lognode-" + address.getHost()).build());
    long stepMs = Math.max(20, Math.min(1000, settings.flushInterval.toMillis() / 4));
    timer.scheduleWithFixedDelay(host::maintain, stepMs, stepMs, TimeUnit.MILLISECONDS);
    new Announcer(settings.conf, GrpcUtils.toProto(address), port, timer, service::updateKey)
        .start();
    resolver = new UndecidedResolver(settings, host, address.getHost());
    resolver.start();
    LOG.info("eccache log node of worker {} serves on {}:{} ({}, {})", address.getHost(),
        address.getHost(), port, settings.directory, settings.scheme);
  }

  @Override
  public synchronized void stop() {
    // Never throws: the worker stops the block worker after this.
    if (timer != null) {
      timer.shutdownNow();
      timer = null;
    }
    if (resolver != null) {
      resolver.close();
      resolver = null;
    }
    if (server != null) {
      server.shutdown();
      server = null;
    }
    if (host != null) {
      host.close();
      host = null;
    }
  }

  @Override
  public void close() {
    stop();
  }
}
