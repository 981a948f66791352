package io.eccache.benchmarks.logecmem;

import alluxio.ClientContext;
import io.eccache.client.form.packed.LogNodeClient;
import io.eccache.common.LogNodeCalls;
import io.eccache.worker.LogNodeSocketClient;

/**
 * How the proxy reaches the log nodes: their plain socket (a loopback round trip, as memcached's
 * protocol costs; the testbed's default) or their gRPC face (the product's; here about five times
 * a memcached call, measured in docs/lognode.md).
 */
enum LogWire {
  SOCKET, GRPC;

  /** A client of the log nodes over this wire. */
  LogNodeCalls open() {
    return this == SOCKET ? new LogNodeSocketClient(10_000)
        : new LogNodeClient(ClientContext.create(LogNodeFleet.conf()), 10_000);
  }
}
