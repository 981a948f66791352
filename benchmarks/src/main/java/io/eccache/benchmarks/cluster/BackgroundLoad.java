package io.eccache.benchmarks.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Background network imbalance as in the paper's section 6.3: shuffle-like TCP flows sent from some
 * workers' addresses, so they share those workers' (shaped) links with the cache traffic. Each flow
 * is a socket bound to the worker's loopback address streaming to a sink on 127.0.0.1 until closed.
 */
public final class BackgroundLoad implements AutoCloseable {
  private final ServerSocket sink;
  private final AtomicBoolean stop = new AtomicBoolean();
  private final List<Thread> threads = new ArrayList<>();
  private final Map<String, AtomicLong> sent = new ConcurrentHashMap<>();

  /**
   * Starts {@code flowsByHost.get(h)} flows from each host h (a worker's address).
   */
  public BackgroundLoad(Map<String, Integer> flowsByHost) throws IOException {
    sink = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "background-sink");
    acceptor.setDaemon(true);
    acceptor.start();
    threads.add(acceptor);
    for (Map.Entry<String, Integer> e : flowsByHost.entrySet()) {
      AtomicLong counter = sent.computeIfAbsent(e.getKey(), h -> new AtomicLong());
      for (int i = 0; i < e.getValue(); i++) {
        Thread t = new Thread(() -> send(e.getKey(), counter), "background-" + e.getKey());
        t.setDaemon(true);
        t.start();
        threads.add(t);
      }
    }
  }

  /** Bytes the flows have sent from each host so far. */
  public Map<String, Long> bytesSent() {
    Map<String, Long> out = new TreeMap<>();
    sent.forEach((h, n) -> out.put(h, n.get()));
    return out;
  }

  private void accept() {
    while (!stop.get()) {
      try {
        Socket s = sink.accept();
        Thread drain = new Thread(() -> {
          try (s; InputStream in = s.getInputStream()) {
            in.transferTo(OutputStream.nullOutputStream());
          } catch (IOException ignored) {
            // the flow ended
          }
        }, "background-drain");
        drain.setDaemon(true);
        drain.start();
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void send(String host, AtomicLong counter) {
    byte[] chunk = new byte[64 << 10];
    try (Socket s = new Socket()) {
      s.bind(new InetSocketAddress(host, 0));
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), sink.getLocalPort()));
      OutputStream out = s.getOutputStream();
      while (!stop.get()) {
        out.write(chunk);
        counter.addAndGet(chunk.length);
      }
    } catch (IOException ignored) {
      // stopped
    }
  }

  @Override
  public void close() throws IOException {
    stop.set(true);
    sink.close();
    for (Thread t : threads) {
      t.interrupt();
    }
  }
}
