package io.eccache.worker;

import alluxio.exception.status.AlluxioStatusException;
import alluxio.exception.status.UnavailableException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import io.eccache.common.LogNodeCalls;
import io.eccache.common.proto.AppendDeltaRequest;
import io.eccache.common.proto.AppendDeltaResponse;
import io.eccache.common.proto.DecideAllRequest;
import io.eccache.common.proto.DecideAllResponse;
import io.eccache.common.proto.DecideRequest;
import io.eccache.common.proto.DecideResponse;
import io.eccache.common.proto.LogNodeStatusRequest;
import io.eccache.common.proto.LogNodeStatusResponse;
import io.eccache.common.proto.PutBaseRequest;
import io.eccache.common.proto.PutBaseResponse;
import io.eccache.common.proto.ReadParityRequest;
import io.eccache.common.proto.ReadParityResponse;
import io.grpc.Status;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The client of a standalone log node's plain socket. A call writes its method's byte and its
 * request, length-delimited (protobuf's own framing); the answer is a status byte (0, or gRPC's
 * code of the refusal) and the response, or the refusal's description. Refusals come back as the
 * same typed exceptions the gRPC client throws. Thread-safe: each call borrows a connection of its
 * node (opened on demand, kept for the next call).
 */
public final class LogNodeSocketClient implements LogNodeCalls {
  static final int PUT_BASE = 1;
  static final int APPEND_DELTA = 2;
  static final int DECIDE = 3;
  static final int READ_PARITY = 4;
  static final int DROP_STRIPE = 5;
  static final int STATUS = 6;
  static final int DECIDE_ALL = 7;

  private final int timeoutMs;
  /** host:port -> idle connections. */
  private final Map<String, Queue<Connection>> idle = new ConcurrentHashMap<>();

  /** @param timeoutMs the longest one call waits for its answer */
  public LogNodeSocketClient(int timeoutMs) {
    this.timeoutMs = timeoutMs;
  }

  @Override
  public void putBase(String node, PutBaseRequest request) throws AlluxioStatusException {
    call(node, PUT_BASE, request, PutBaseResponse.parser());
  }

  @Override
  public void appendDelta(String node, AppendDeltaRequest request)
      throws AlluxioStatusException {
    call(node, APPEND_DELTA, request, AppendDeltaResponse.parser());
  }

  @Override
  public boolean decide(String node, DecideRequest request) throws AlluxioStatusException {
    return call(node, DECIDE, request, DecideResponse.parser()).getChanged();
  }

  @Override
  public int decideAll(String node, DecideAllRequest request) throws AlluxioStatusException {
    return call(node, DECIDE_ALL, request, DecideAllResponse.parser()).getChanged();
  }

  @Override
  public ReadParityResponse readParity(String node, ReadParityRequest request)
      throws AlluxioStatusException {
    return call(node, READ_PARITY, request, ReadParityResponse.parser());
  }

  @Override
  public LogNodeStatusResponse status(String node) throws AlluxioStatusException {
    return call(node, STATUS, LogNodeStatusRequest.getDefaultInstance(),
        LogNodeStatusResponse.parser());
  }

  private <T extends MessageLite> T call(String node, int method, MessageLite request,
      Parser<T> parser) throws AlluxioStatusException {
    Queue<Connection> pool = idle.computeIfAbsent(node, n -> new ConcurrentLinkedQueue<>());
    Connection c = pool.poll();
    int status;
    T response = null;
    String refusal = null;
    try {
      if (c == null) {
        c = Connection.open(node, timeoutMs);
      }
      c.out.write(method);
      request.writeDelimitedTo(c.out);
      c.out.flush();
      status = c.in.readUnsignedByte();
      if (status == 0) {
        response = parser.parseDelimitedFrom(c.in);
        if (response == null) {
          throw new java.io.EOFException("the node closed the connection mid-answer");
        }
      } else {
        refusal = c.in.readUTF();
      }
    } catch (IOException e) {
      if (c != null) {
        c.close(); // a broken connection is not returned to the pool
      }
      throw new UnavailableException("log node " + node + ": " + e.getMessage(), e);
    }
    pool.add(c);
    if (status != 0) {
      throw AlluxioStatusException.from(Status.fromCodeValue(status)
          .withDescription("log node " + node + ": " + refusal));
    }
    return response;
  }

  @Override
  public void close() {
    idle.values().forEach(pool -> pool.forEach(Connection::close));
    idle.clear();
  }

  /** One open connection to a node. */
  private static final class Connection {
    final Socket socket;
    final OutputStream out;
    final DataInputStream in;

    private Connection(Socket socket) throws IOException {
      this.socket = socket;
      this.out = new BufferedOutputStream(socket.getOutputStream());
      this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
    }

    static Connection open(String node, int timeoutMs) throws IOException {
      int colon = node.lastIndexOf(':');
      if (colon < 0) {
        throw new IOException("'" + node + "' is not host:port");
      }
      Socket socket = new Socket();
      try {
        socket.connect(new InetSocketAddress(node.substring(0, colon),
            Integer.parseInt(node.substring(colon + 1))), timeoutMs);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(timeoutMs);
        return new Connection(socket);
      } catch (IOException | NumberFormatException e) {
        socket.close();
        throw e instanceof IOException ? (IOException) e : new IOException(e.getMessage());
      }
    }

    void close() {
      try {
        socket.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
  }
}
