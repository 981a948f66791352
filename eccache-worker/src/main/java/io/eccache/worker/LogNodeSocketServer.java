package io.eccache.worker;

import com.google.protobuf.MessageLite;
import io.eccache.common.proto.AppendDeltaRequest;
import io.eccache.common.proto.DecideAllRequest;
import io.eccache.common.proto.DecideRequest;
import io.eccache.common.proto.DropStripeRequest;
import io.eccache.common.proto.LogNodeStatusRequest;
import io.eccache.common.proto.PutBaseRequest;
import io.eccache.common.proto.ReadParityRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A standalone log node's plain-socket face ({@link LogNodeSocketClient} has the protocol): the
 * same {@link LogNodeService} calls as its gRPC face, a thread per connection reading a request and
 * writing its answer in turn, so a call costs one loopback round trip and no thread hand-off. For
 * LogECMem's testbed, whose DRAM nodes answer memcached's protocol at that cost.
 */
final class LogNodeSocketServer implements AutoCloseable {
  private final LogNodeService service;
  private final ServerSocket socket;
  private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
  private final Thread acceptor;

  LogNodeSocketServer(String host, LogNodeService service) throws IOException {
    this.service = service;
    this.socket = new ServerSocket();
    socket.bind(new InetSocketAddress(host, 0));
    acceptor = new Thread(this::accept, "eccache-lognode-socket-" + host);
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return socket.getLocalPort();
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket connection = socket.accept();
        connection.setTcpNoDelay(true);
        connections.add(connection);
        Thread serving = new Thread(() -> serve(connection), "eccache-lognode-conn");
        serving.setDaemon(true);
        serving.start();
      } catch (IOException closed) {
        return;
      }
    }
  }

  private void serve(Socket connection) {
    try (Socket c = connection;
        InputStream in = new BufferedInputStream(c.getInputStream());
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(
            c.getOutputStream()))) {
      while (true) {
        int method = in.read();
        if (method < 0) {
          return;
        }
        Captured answer = new Captured();
        dispatch(method, in, answer);
        if (answer.error == null) {
          out.writeByte(0);
          answer.response.writeDelimitedTo(out);
        } else {
          out.writeByte(answer.error.getCode().value());
          String description = answer.error.getDescription();
          out.writeUTF(description == null ? answer.error.getCode().name() : description);
        }
        out.flush();
      }
    } catch (EOFException | java.net.SocketException gone) {
      // the client closed its connection
    } catch (IOException e) {
      // a broken connection: the client sees its call fail
    } finally {
      connections.remove(connection);
    }
  }

  private void dispatch(int method, InputStream in, Captured answer) throws IOException {
    switch (method) {
      case LogNodeSocketClient.PUT_BASE:
        service.putBase(PutBaseRequest.parseDelimitedFrom(in), answer.typed());
        break;
      case LogNodeSocketClient.APPEND_DELTA:
        service.appendDelta(AppendDeltaRequest.parseDelimitedFrom(in), answer.typed());
        break;
      case LogNodeSocketClient.DECIDE:
        service.decide(DecideRequest.parseDelimitedFrom(in), answer.typed());
        break;
      case LogNodeSocketClient.DECIDE_ALL:
        service.decideAll(DecideAllRequest.parseDelimitedFrom(in), answer.typed());
        break;
      case LogNodeSocketClient.READ_PARITY:
        service.readParity(ReadParityRequest.parseDelimitedFrom(in), answer.typed());
        break;
      case LogNodeSocketClient.DROP_STRIPE:
        service.dropStripe(DropStripeRequest.parseDelimitedFrom(in), answer.typed());
        break;
      case LogNodeSocketClient.STATUS:
        service.status(LogNodeStatusRequest.parseDelimitedFrom(in), answer.typed());
        break;
      default:
        throw new IOException("no method " + method); // the connection closes
    }
  }

  /** The one answer of a call, as the service gives it to its observer. */
  private static final class Captured implements StreamObserver<MessageLite> {
    MessageLite response;
    Status error;

    @SuppressWarnings("unchecked")
    <T> StreamObserver<T> typed() {
      return (StreamObserver<T>) (StreamObserver<?>) this;
    }

    @Override
    public void onNext(MessageLite value) {
      response = value;
    }

    @Override
    public void onError(Throwable t) {
      error = t instanceof StatusRuntimeException ? ((StatusRuntimeException) t).getStatus()
          : Status.INTERNAL.withDescription(t.toString());
    }

    @Override
    public void onCompleted() {
      // the answer is complete with onNext
    }
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // closing anyway
    }
    for (Socket c : connections) {
      try {
        c.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
  }
}
