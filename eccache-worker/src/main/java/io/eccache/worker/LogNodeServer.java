package io.eccache.worker;

import alluxio.grpc.GrpcServer;
import alluxio.grpc.GrpcServerAddress;
import alluxio.grpc.GrpcServerBuilder;
import alluxio.grpc.GrpcService;
import alluxio.grpc.ServiceType;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A log node's logs served on their own port: the {@link LogNodeHost}, its gRPC service, and the
 * timer that flushes and merges them. A worker's plugin adds the announcer and the resolver of
 * undecided deltas; a standalone node runs it as is.
 */
final class LogNodeServer implements AutoCloseable {
  final LogNodeHost host;
  final LogNodeService service;
  /** The node's one timer thread, also lent to the worker's announcer. */
  final ScheduledExecutorService timer;
  private final GrpcServer server;

  private LogNodeServer(LogNodeHost host, LogNodeService service, ScheduledExecutorService timer,
      GrpcServer server) {
    this.host = host;
    this.service = service;
    this.timer = timer;
    this.server = server;
  }

  /** Serves {@code settings}' logs on {@code hostName} and the settings' port (0: a free one). */
  static LogNodeServer start(String hostName, LogNodeSettings settings) throws IOException {
    LogNodeHost host = new LogNodeHost(settings);
    LogNodeService service = new LogNodeService(host, settings);
    GrpcServer server;
    try {
      InetSocketAddress bind = new InetSocketAddress(hostName, settings.port);
      server = GrpcServerBuilder.forAddress(GrpcServerAddress.create(hostName, bind),
              settings.conf)
          .addService(ServiceType.UNKNOWN_SERVICE, new GrpcService(service.bindService()))
          .build().start();
    } catch (IOException | RuntimeException e) {
      host.close();
      throw e;
    }
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
        new ThreadFactoryBuilder().setDaemon(true).setNameFormat("eccache-lognode-" + hostName)
            .build());
    long stepMs = Math.max(20, Math.min(1000, settings.flushInterval.toMillis() / 4));
    timer.scheduleWithFixedDelay(host::maintain, stepMs, stepMs, TimeUnit.MILLISECONDS);
    return new LogNodeServer(host, service, timer, server);
  }

  int port() {
    return server.getBindPort();
  }

  /** Stops the timer, then the server, then closes the logs (flushing what they buffer). */
  @Override
  public void close() {
    timer.shutdownNow();
    server.shutdown();
    host.close();
  }
}
