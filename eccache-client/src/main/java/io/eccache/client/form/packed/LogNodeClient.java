package io.eccache.client.form.packed;

import alluxio.ClientContext;
import alluxio.exception.status.AlluxioStatusException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.grpc.GrpcChannel;
import alluxio.grpc.GrpcChannelBuilder;
import alluxio.grpc.GrpcServerAddress;
import io.eccache.common.LogNodeCalls;
import io.eccache.common.proto.AppendDeltaRequest;
import io.eccache.common.proto.DecideAllRequest;
import io.eccache.common.proto.DecideRequest;
import io.eccache.common.proto.DropStripeRequest;
import io.eccache.common.proto.LogNodeServiceGrpc;
import io.eccache.common.proto.LogNodeStatusRequest;
import io.eccache.common.proto.LogNodeStatusResponse;
import io.eccache.common.proto.PutBaseRequest;
import io.eccache.common.proto.ReadParityRequest;
import io.eccache.common.proto.ReadParityResponse;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Calls log nodes (lognode.proto) over Alluxio's authenticated gRPC channels, one per node, each
 * call bounded by the client's I/O timeout. A failed call throws Alluxio's typed exception for its
 * status, its message naming the node; a node that cannot be reached gets a new channel on the
 * next call. Thread-safe.
 */
public final class LogNodeClient implements LogNodeCalls {
  private final ClientContext context;
  private final long timeoutMs;
  /** host:port -> its channel. */
  private final Map<String, GrpcChannel> channels = new ConcurrentHashMap<>();
  private final AtomicLong deltasSent = new AtomicLong();

  /**
   * @param context the Alluxio client context whose user and configuration the channels use
   * @param timeoutMs the longest one call waits
   */
  public LogNodeClient(ClientContext context, long timeoutMs) {
    this.context = context;
    this.timeoutMs = timeoutMs;
  }

  /** Sets a stripe's parity row at a version (a seal or a rebuild; maintainers only). */
  @Override
  public void putBase(String node, PutBaseRequest request) throws AlluxioStatusException {
    call(node, "PutBase", stub -> stub.putBase(request));
  }

  /** Appends an update's data delta; returns once the node has buffered it (its ack). */
  @Override
  public void appendDelta(String node, AppendDeltaRequest request)
      throws AlluxioStatusException {
    deltasSent.incrementAndGet();
    call(node, "AppendDelta", stub -> stub.appendDelta(request));
  }

  /** Deltas sent so far (each to one node), for tests' counts. */
  public long deltasSent() {
    return deltasSent.get();
  }

  /** Tells the node an update's outcome; whether that changed anything there. */
  @Override
  public boolean decide(String node, DecideRequest request) throws AlluxioStatusException {
    return call(node, "Decide", stub -> stub.decide(request)).getChanged();
  }

  @Override
  public int decideAll(String node, DecideAllRequest request) throws AlluxioStatusException {
    return call(node, "DecideAll", stub -> stub.decideAll(request)).getChanged();
  }

  /** A stripe's parity row at a version, or what version the node holds instead. */
  @Override
  public ReadParityResponse readParity(String node, ReadParityRequest request)
      throws AlluxioStatusException {
    return call(node, "ReadParity", stub -> stub.readParity(request));
  }

  /** Forgets a stripe (maintainers only); whether the node held it. */
  public boolean dropStripe(String node, DropStripeRequest request)
      throws AlluxioStatusException {
    return call(node, "DropStripe", stub -> stub.dropStripe(request)).getHeld();
  }

  /** The node's logs and their counters. */
  @Override
  public LogNodeStatusResponse status(String node) throws AlluxioStatusException {
    return call(node, "Status", stub -> stub.status(LogNodeStatusRequest.getDefaultInstance()));
  }

  private <T> T call(String node, String name,
      Function<LogNodeServiceGrpc.LogNodeServiceBlockingStub, T> rpc)
      throws AlluxioStatusException {
    GrpcChannel channel = channel(node);
    try {
      return rpc.apply(LogNodeServiceGrpc.newBlockingStub(channel)
          .withDeadlineAfter(timeoutMs, TimeUnit.MILLISECONDS));
    } catch (StatusRuntimeException e) {
      Status.Code code = e.getStatus().getCode();
      if (code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED) {
        if (channels.remove(node, channel)) {
          channel.shutdown();
        }
      }
      String detail = e.getStatus().getDescription();
      Status status = e.getStatus().withDescription("log node " + node + ", " + name + ": "
          + (code == Status.Code.DEADLINE_EXCEEDED ? "no answer within " + timeoutMs
              + " ms (alluxio.user.eccache.io.timeout)" : detail == null ? code.name() : detail));
      throw AlluxioStatusException.fromStatusRuntimeException(status.asRuntimeException());
    }
  }

  private GrpcChannel channel(String node) throws AlluxioStatusException {
    GrpcChannel open = channels.get(node);
    if (open != null) {
      return open;
    }
    // host:port, or host:port@boot as stripe records name a node.
    String address = node.contains("@") ? node.substring(0, node.indexOf('@')) : node;
    int colon = address.lastIndexOf(':');
    int port;
    try {
      port = Integer.parseInt(address.substring(colon + 1));
    } catch (NumberFormatException | IndexOutOfBoundsException e) {
      throw new InvalidArgumentException("'" + node + "' is not a log node's host:port");
    }
    String host = address.substring(0, colon);
    GrpcChannel made = GrpcChannelBuilder.newBuilder(
        GrpcServerAddress.create(host, new InetSocketAddress(host, port)),
        context.getClusterConf()).setSubject(context.getSubject()).build();
    GrpcChannel raced = channels.putIfAbsent(node, made);
    if (raced != null) {
      made.shutdown();
      return raced;
    }
    return made;
  }

  @Override
  public void close() {
    channels.values().forEach(GrpcChannel::shutdown);
    channels.clear();
  }
}
