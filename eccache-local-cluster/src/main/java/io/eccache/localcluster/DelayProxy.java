package io.eccache.localcluster;

import com.google.common.util.concurrent.RateLimiter;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A user-space TCP relay that delays every byte by a fixed one-way time, like {@code tc netem delay}
 * (which this machine's kernel lacks): it listens on a loopback address and port and forwards each
 * connection to a target. Every chunk read from either side is stamped on arrival and written to the
 * other side no earlier than one delay later, in arrival order, so a request and its response cost at
 * least twice the delay. Each direction may also be rate limited (bytes per second).
 *
 * <p>{@link #setDown(boolean) Down} plays an outage: every open connection is closed at once and
 * new ones are refused (the listening socket is closed, so connects get a reset); up listens again on
 * the same address and port.
 *
 * <p>Memory is bounded: a direction stops reading from its source while {@link #MAX_PENDING_BYTES}
 * wait in its queue, so TCP's own flow control pushes back on the sender. Each connection runs four
 * daemon threads (a reader and a writer per direction) on blocking sockets; {@link #close()} closes
 * every socket and stops every thread.
 */
public final class DelayProxy implements AutoCloseable {
  /** Bytes one direction of one connection may hold before it stops reading from its source. */
  public static final int MAX_PENDING_BYTES = 1 << 20;

  private static final Logger LOG = LoggerFactory.getLogger(DelayProxy.class);
  private static final int CHUNK = 64 << 10;
  private static final long CLOSE_TIMEOUT_MS = 10_000;

  private volatile InetSocketAddress listen; // the bound port once started
  private final InetSocketAddress target;
  private final long delayNanos;
  private final long bytesPerSecond;
  private final ThreadPoolExecutor threads;
  private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
  // One limiter per direction for all connections: the rate is the link's, as with HTB.
  private final RateLimiter toTargetRate;
  private final RateLimiter toClientRate;
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong writesToTarget = new AtomicLong();
  private final Object lock = new Object();
  private ServerSocket server; // null while down or closed
  private Future<?> acceptor; // the thread accepting on server
  private boolean down;
  private boolean closed;

  private DelayProxy(InetSocketAddress listen, InetSocketAddress target, Duration oneWayDelay,
      long bytesPerSecond) {
    this.listen = listen;
    this.target = target;
    this.delayNanos = oneWayDelay.toNanos();
    this.bytesPerSecond = bytesPerSecond;
    this.toTargetRate = bytesPerSecond == 0 ? null : RateLimiter.create(bytesPerSecond);
    this.toClientRate = bytesPerSecond == 0 ? null : RateLimiter.create(bytesPerSecond);
    this.threads = (ThreadPoolExecutor) Executors.newCachedThreadPool(new ThreadFactoryBuilder()
        .setDaemon(true).setNameFormat("delay-proxy-" + listen.getHostString() + "-%d").build());
  }

  /**
   * Starts a relay listening on {@code listen} (a loopback address and port; port 0 picks a free
   * one) that forwards to {@code target}, delaying each direction by {@code oneWayDelay} and limiting
   * it to {@code bytesPerSecond} (0: unlimited).
   *
   * @throws IllegalArgumentException for a negative delay or rate, or an unresolved address
   * @throws IOException when the address cannot be bound
   */
  public static DelayProxy start(InetSocketAddress listen, InetSocketAddress target,
      Duration oneWayDelay, long bytesPerSecond) throws IOException {
    Objects.requireNonNull(listen, "listen");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(oneWayDelay, "oneWayDelay");
    if (oneWayDelay.isNegative()) {
      throw new IllegalArgumentException("the one-way delay must not be negative: " + oneWayDelay);
    }
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("bytesPerSecond must be >= 0 (0: unlimited), not "
          + bytesPerSecond);
    }
    if (listen.isUnresolved() || target.isUnresolved()) {
      throw new IllegalArgumentException("unresolved address: " + listen + " -> " + target);
    }
    DelayProxy proxy = new DelayProxy(listen, target, oneWayDelay, bytesPerSecond);
    synchronized (proxy.lock) {
      try {
        proxy.listen(listen);
      } catch (IOException | RuntimeException e) {
        proxy.threads.shutdownNow();
        throw e;
      }
    }
    LOG.info("delay proxy {} -> {}: {} one way, {} B/s", proxy.address(), target, oneWayDelay,
        bytesPerSecond == 0 ? "unlimited" : bytesPerSecond);
    return proxy;
  }

  /** Binds (under {@link #lock}) and starts accepting on {@code address}. */
  private void listen(InetSocketAddress address) throws IOException {
    ServerSocket s = new ServerSocket();
    try {
      s.setReuseAddress(true);
      s.bind(address, 128);
    } catch (IOException e) {
      s.close();
      throw new IOException("delay proxy cannot listen on " + address + ": " + e.getMessage(), e);
    }
    server = s;
    listen = new InetSocketAddress(address.getAddress(), s.getLocalPort());
    acceptor = threads.submit(() -> accept(s));
  }

  private void accept(ServerSocket s) {
    while (true) {
      Socket client;
      try {
        client = s.accept();
      } catch (IOException e) {
        return; // closed: down or close()
      }
      Socket upstream = null;
      try {
        client.setTcpNoDelay(true);
        upstream = new Socket();
        upstream.setTcpNoDelay(true);
        upstream.connect(target, 10_000);
        Connection c = new Connection(client, upstream);
        synchronized (lock) {
          if (closed || down || server != s) {
            c.close();
            continue;
          }
          connections.add(c);
          accepted.incrementAndGet();
        }
        c.start();
      } catch (IOException | RuntimeException e) {
        LOG.debug("delay proxy {}: connection to {} failed: {}", address(), target, e.toString());
        closeQuietly(client);
        closeQuietly(upstream);
      }
    }
  }

  /** Where it listens (the port chosen when 0 was asked for). */
  public InetSocketAddress address() {
    return listen;
  }

  /** Where it forwards to. */
  public InetSocketAddress target() {
    return target;
  }

  /** The fixed delay of each direction. */
  public Duration oneWayDelay() {
    return Duration.ofNanos(delayNanos);
  }

  /** Connections accepted and relayed since the start. */
  public long acceptedConnections() {
    return accepted.get();
  }

  /**
   * Bursts of bytes relayed to the target since the start: each is what one read from a client
   * returned, so a small HTTP request is usually one (a rough count of requests, for tests).
   */
  public long writesToTarget() {
    return writesToTarget.get();
  }

  /** Threads at work right now (the accept loop and four per connection), for tests. */
  int busyThreads() {
    return threads.getActiveCount();
  }

  /** Whether every thread has ended (after {@link #close()}), for tests. */
  boolean terminated() {
    return threads.isTerminated();
  }

  /** Connections open right now. */
  public int openConnections() {
    return connections.size();
  }

  /** Whether the relay is down ({@link #setDown(boolean)}). */
  public boolean isDown() {
    synchronized (lock) {
      return down;
    }
  }

  /**
   * Down closes every open connection and stops listening (connects are refused); up listens again
   * on the same address and port.
   *
   * @throws IOException when coming up and the port cannot be bound again
   * @throws IllegalStateException after {@link #close()}
   */
  public void setDown(boolean down) throws IOException {
    Future<?> stopped = null;
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("delay proxy " + listen + " is closed");
      }
      if (down == this.down) {
        return;
      }
      this.down = down;
      if (down) {
        stopped = stopListening();
        closeConnections();
      } else {
        listen(listen);
      }
    }
    if (stopped != null) {
      awaitEnd(stopped);
    }
    LOG.info("delay proxy {} -> {} is {}", listen, target, down ? "down" : "up");
  }

  /** Closes the listening socket (under {@link #lock}); returns its accept loop. */
  private Future<?> stopListening() {
    closeQuietly(server);
    server = null;
    return acceptor;
  }

  /**
   * Waits (bounded, outside {@link #lock}, which the loop may be waiting for) for an accept loop to
   * end: only then is the port closed in the kernel, so a connect that follows is surely refused.
   */
  private void awaitEnd(Future<?> loop) {
    try {
      loop.get(CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      LOG.warn("delay proxy {}: accept loop did not end: {}", listen, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void closeConnections() {
    for (Connection c : connections) {
      c.close();
    }
    connections.clear();
  }

  /** Closes the listening socket and every connection and stops every thread (bounded wait). */
  @Override
  public void close() {
    Future<?> stopped;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      stopped = stopListening();
      closeConnections();
    }
    if (stopped != null) {
      awaitEnd(stopped);
    }
    threads.shutdownNow();
    try {
      if (!threads.awaitTermination(CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
        LOG.warn("delay proxy {}: threads still running {} ms after close", listen,
            CLOSE_TIMEOUT_MS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "DelayProxy[" + listen + " -> " + target + ", " + oneWayDelay() + " one way]";
  }

  /** One relayed connection: two directions, closed together. */
  private final class Connection {
    private final Socket client;
    private final Socket upstream;
    private final Direction toUpstream;
    private final Direction toClient;

    Connection(Socket client, Socket upstream) {
      this.client = client;
      this.upstream = upstream;
      this.toUpstream = new Direction(this, client, upstream, true);
      this.toClient = new Direction(this, upstream, client, false);
    }

    void start() {
      toUpstream.start();
      toClient.start();
    }

    /** Called when a direction has delivered its end of stream. */
    void directionDone() {
      if (toUpstream.done && toClient.done) {
        close();
      }
    }

    /** Closes both sockets and ends both directions' threads (idempotent). */
    void close() {
      closeQuietly(client);
      closeQuietly(upstream);
      connections.remove(this);
      toUpstream.abort();
      toClient.abort();
    }
  }

  /** Tells a writer its connection is closed. */
  private static final Chunk ABORT = new Chunk(new byte[0], 0);

  /** A chunk of bytes and when it may leave; {@code data == null} is the end of stream. */
  private static final class Chunk {
    final byte[] data;
    final long dueNanos;

    Chunk(byte[] data, long dueNanos) {
      this.data = data;
      this.dueNanos = dueNanos;
    }
  }

  /** One direction: a reader that stamps and queues chunks, a writer that sends them when due. */
  private final class Direction {
    private final Connection connection;
    private final Socket from;
    private final Socket to;
    private final boolean toTarget;
    private final LinkedBlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
    private final Semaphore room = new Semaphore(MAX_PENDING_BYTES);
    private final RateLimiter limiter;
    private volatile boolean done;

    Direction(Connection connection, Socket from, Socket to, boolean toTarget) {
      this.connection = connection;
      this.from = from;
      this.to = to;
      this.toTarget = toTarget;
      this.limiter = toTarget ? toTargetRate : toClientRate;
    }

    void start() {
      threads.execute(this::read);
      threads.execute(this::write);
    }

    /**
     * Ends both threads of a closed connection: the writer may wait for a chunk that will never
     * come, the reader for room that the writer will never free.
     */
    void abort() {
      queue.offer(ABORT);
      room.release(MAX_PENDING_BYTES);
    }

    private void read() {
      byte[] buf = new byte[CHUNK];
      try {
        // Not closed here: closing a socket's stream closes the socket, and the other direction
        // may still be sending.
        InputStream in = from.getInputStream();
        while (true) {
          // Take room before reading, so at most MAX_PENDING_BYTES wait per direction.
          room.acquire(CHUNK);
          int n = in.read(buf);
          long now = System.nanoTime();
          if (n < 0) {
            room.release(CHUNK);
            queue.put(new Chunk(null, now + delayNanos));
            return;
          }
          room.release(CHUNK - n);
          queue.put(new Chunk(Arrays.copyOf(buf, n), now + delayNanos));
        }
      } catch (IOException | InterruptedException e) {
        connection.close(); // a reset, a close or close(): the whole connection goes
      }
    }

    private void write() {
      try {
        OutputStream out = to.getOutputStream();
        while (true) {
          Chunk chunk = queue.take();
          if (chunk == ABORT) {
            return;
          }
          long wait = chunk.dueNanos - System.nanoTime();
          if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
          }
          if (chunk.data == null) {
            if (!to.isClosed()) {
              to.shutdownOutput();
            }
            done = true;
            connection.directionDone();
            return;
          }
          if (limiter != null) {
            limiter.acquire(chunk.data.length);
          }
          out.write(chunk.data);
          out.flush();
          if (toTarget) {
            writesToTarget.incrementAndGet();
          }
          room.release(chunk.data.length);
        }
      } catch (IOException | InterruptedException e) {
        connection.close();
      }
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (Exception e) {
      // closing: nothing to do
    }
  }
}
