package io.eccache.common;

import alluxio.exception.status.AlluxioStatusException;
import io.eccache.common.proto.AppendDeltaRequest;
import io.eccache.common.proto.DecideAllRequest;
import io.eccache.common.proto.DecideRequest;
import io.eccache.common.proto.LogNodeStatusResponse;
import io.eccache.common.proto.PutBaseRequest;
import io.eccache.common.proto.ReadParityRequest;
import io.eccache.common.proto.ReadParityResponse;

/**
 * The calls a log node answers ({@code lognode.proto}), whatever carries them: gRPC on Alluxio's
 * authenticated channels (the client's {@code LogNodeClient}) or a standalone node's plain socket
 * ({@code LogNodeSocketClient}). A node is named {@code host:port}; a refusal comes back as
 * Alluxio's typed exception of its status.
 */
public interface LogNodeCalls extends AutoCloseable {
  /** Sets a stripe's parity row at a version (a seal or a rebuild; maintainers only). */
  void putBase(String node, PutBaseRequest request) throws AlluxioStatusException;

  /** Appends an update's data delta; returns once the node has buffered it (its ack). */
  void appendDelta(String node, AppendDeltaRequest request) throws AlluxioStatusException;

  /** Tells the node an update's outcome; whether that changed anything there. */
  boolean decide(String node, DecideRequest request) throws AlluxioStatusException;

  /**
   * Tells the node several outcomes in one call (each checked as {@link #decide} checks it; all
   * refused, none applied, if one is refused); how many changed anything.
   */
  int decideAll(String node, DecideAllRequest request) throws AlluxioStatusException;

  /** A stripe's parity row at a version, or what version the node holds instead. */
  ReadParityResponse readParity(String node, ReadParityRequest request)
      throws AlluxioStatusException;

  /** The node's logs and their counters. */
  LogNodeStatusResponse status(String node) throws AlluxioStatusException;

  /** Closes the connections; never throws. */
  @Override
  void close();
}
