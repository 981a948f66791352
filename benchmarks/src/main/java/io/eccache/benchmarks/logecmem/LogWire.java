package io.eccache.benchmarks.logecmem;

import alluxio.ClientContext;
import io.eccache.client.form.packed.LogNodeClient;
import io.eccache.common.proto.AppendDeltaRequest;
import io.eccache.common.proto.DecideRequest;
import io.eccache.common.proto.LogNodeStatusResponse;
import io.eccache.common.proto.PutBaseRequest;
import io.eccache.common.proto.ReadParityRequest;
import io.eccache.common.proto.ReadParityResponse;
import io.eccache.worker.LogNodeSocketClient;
import java.io.IOException;

/**
 * How the proxy reaches the log nodes: their plain socket (a loopback round trip, as memcached's
 * protocol costs; the testbed's default) or their gRPC face (the product's; here about five times
 * a memcached call, measured in docs/benchmarks.md).
 */
enum LogWire {
  SOCKET, GRPC;

  /** The calls the proxy makes, over this wire. */
  interface Calls extends AutoCloseable {
    void putBase(String node, PutBaseRequest request) throws IOException;

    void appendDelta(String node, AppendDeltaRequest request) throws IOException;

    boolean decide(String node, DecideRequest request) throws IOException;

    ReadParityResponse readParity(String node, ReadParityRequest request) throws IOException;

    LogNodeStatusResponse status(String node) throws IOException;

    @Override
    void close();
  }

  Calls open() {
    if (this == SOCKET) {
      LogNodeSocketClient c = new LogNodeSocketClient(10_000);
      return new Calls() {
        @Override
        public void putBase(String node, PutBaseRequest request) throws IOException {
          c.putBase(node, request);
        }

        @Override
        public void appendDelta(String node, AppendDeltaRequest request) throws IOException {
          c.appendDelta(node, request);
        }

        @Override
        public boolean decide(String node, DecideRequest request) throws IOException {
          return c.decide(node, request);
        }

        @Override
        public ReadParityResponse readParity(String node, ReadParityRequest request)
            throws IOException {
          return c.readParity(node, request);
        }

        @Override
        public LogNodeStatusResponse status(String node) throws IOException {
          return c.status(node);
        }

        @Override
        public void close() {
          c.close();
        }
      };
    }
    LogNodeClient c = new LogNodeClient(ClientContext.create(LogNodeFleet.conf()), 10_000);
    return new Calls() {
      @Override
      public void putBase(String node, PutBaseRequest request) throws IOException {
        c.putBase(node, request);
      }

      @Override
      public void appendDelta(String node, AppendDeltaRequest request) throws IOException {
        c.appendDelta(node, request);
      }

      @Override
      public boolean decide(String node, DecideRequest request) throws IOException {
        return c.decide(node, request);
      }

      @Override
      public ReadParityResponse readParity(String node, ReadParityRequest request)
          throws IOException {
        return c.readParity(node, request);
      }

      @Override
      public LogNodeStatusResponse status(String node) throws IOException {
        return c.status(node);
      }

      @Override
      public void close() {
        c.close();
      }
    };
  }
}
