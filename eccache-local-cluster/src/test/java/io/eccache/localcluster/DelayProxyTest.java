package io.eccache.localcluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class DelayProxyTest {
  private static ServerSocket echo;
  private static ExecutorService echoThreads;

  /** A plain echo server: the target behind every proxy here. */
  @BeforeAll
  static void startEcho() throws IOException {
    echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    echoThreads = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "echo");
      t.setDaemon(true);
      return t;
    });
    echoThreads.execute(() -> {
      while (true) {
        Socket s;
        try {
          s = echo.accept();
        } catch (IOException closed) {
          return;
        }
        echoThreads.execute(() -> {
          try (s) {
            s.getInputStream().transferTo(s.getOutputStream());
          } catch (IOException ignored) {
            // the peer went away
          }
        });
      }
    });
  }

  @AfterAll
  static void stopEcho() throws IOException {
    echo.close();
    echoThreads.shutdownNow();
  }

  private static DelayProxy proxy(String host, Duration delay, long rate) throws IOException {
    return DelayProxy.start(new InetSocketAddress(host, 0),
        new InetSocketAddress(InetAddress.getLoopbackAddress(), echo.getLocalPort()), delay, rate);
  }

  private static Socket connect(DelayProxy p) throws IOException {
    Socket s = new Socket();
    s.connect(p.address(), 5000);
    s.setSoTimeout(30_000);
    return s;
  }

  /** Writes {@code data} on one thread while reading as many bytes back. */
  private static byte[] echoThrough(Socket s, byte[] data) throws Exception {
    CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
      try {
        OutputStream out = s.getOutputStream();
        out.write(data);
        out.flush();
      } catch (IOException e) {
        throw new RuntimeException(e);
      }
    });
    byte[] back = s.getInputStream().readNBytes(data.length);
    writer.get(30, TimeUnit.SECONDS);
    return back;
  }

  /** Waits until {@code n} threads are busy (1: only the accept loop; 0: down). */
  private static void awaitBusyThreads(DelayProxy p, int n) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 5000;
    while (p.busyThreads() != n) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError(p.busyThreads() + " threads busy after 5 s, not " + n);
      }
      Thread.sleep(20);
    }
  }

  @Test
  void bytesArriveIntactBothWays() throws Exception {
    byte[] data = new byte[4 << 20];
    new Random(1).nextBytes(data);
    try (DelayProxy p = proxy("127.0.0.21", Duration.ofMillis(20), 0); Socket s = connect(p)) {
      assertArrayEquals(data, echoThrough(s, data));
      // Closing our side ends both directions: the proxy closes the connection.
      s.shutdownOutput();
      assertEquals(-1, s.getInputStream().read());
      // The connection's four threads end with it; the accept loop stays.
      awaitBusyThreads(p, 1);
      assertEquals(0, p.openConnections());
    }
  }

  @Test
  void aRoundTripCostsTwiceTheDelay() throws Exception {
    Duration delay = Duration.ofMillis(100);
    try (DelayProxy p = proxy("127.0.0.22", delay, 0); Socket s = connect(p)) {
      for (int i = 0; i < 3; i++) {
        long start = System.nanoTime();
        byte[] back = echoThrough(s, new byte[] {(byte) i});
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertEquals(i, back[0]);
        assertTrue(tookMs >= 2 * delay.toMillis(), "round trip took " + tookMs + " ms");
      }
    }
  }

  @Test
  void theRateLimitsEachDirection() throws Exception {
    // 1.5 MiB at 512 KiB/s: at least 1 s even with the limiter's one-second burst and free first
    // chunk (Guava RateLimiter).
    byte[] data = new byte[3 << 19];
    new Random(2).nextBytes(data);
    try (DelayProxy p = proxy("127.0.0.23", Duration.ZERO, 512 << 10); Socket s = connect(p)) {
      long start = System.nanoTime();
      assertArrayEquals(data, echoThrough(s, data));
      long tookMs = (System.nanoTime() - start) / 1_000_000;
      assertTrue(tookMs >= 1000, "1.5 MiB at 512 KiB/s took " + tookMs + " ms");
    }
  }

  @Test
  void downClosesConnectionsAndRefusesNewOnesUntilUp() throws Exception {
    try (DelayProxy p = proxy("127.0.0.24", Duration.ofMillis(20), 0)) {
      Socket open = connect(p);
      assertEquals(7, echoThrough(open, new byte[] {7})[0]);
      assertEquals(1, p.openConnections());

      p.setDown(true);
      assertTrue(p.isDown());
      assertEquals(0, p.openConnections());
      // The open connection ends (end of stream or a reset), well before the 30 s read timeout.
      try (open) {
        assertEquals(-1, open.getInputStream().read());
      } catch (IOException reset) {
        // also an end
      }
      assertThrows(ConnectException.class, () -> connect(p).close());
      // Down, the relay runs no thread at all: not the accept loop, not a connection's.
      awaitBusyThreads(p, 0);

      p.setDown(false);
      try (Socket again = connect(p)) {
        assertEquals(9, echoThrough(again, new byte[] {9})[0]);
      }
    }
  }

  @Test
  void aTargetThatDoesNotReadStopsTheSender() throws Exception {
    // Without backpressure the relay would take all 64 MiB into its queue and the write would end;
    // with it, the sender blocks once the queue (1 MiB) and the sockets' buffers are full.
    try (ServerSocket sink = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        DelayProxy p = DelayProxy.start(new InetSocketAddress("127.0.0.27", 0),
            new InetSocketAddress(InetAddress.getLoopbackAddress(), sink.getLocalPort()),
            Duration.ofMillis(5), 0);
        Socket s = connect(p)) {
      Socket held = sink.accept(); // never read
      CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
        try {
          s.getOutputStream().write(new byte[64 << 20]);
        } catch (IOException e) {
          // closed at the end of the test
        }
      });
      Thread.sleep(2000);
      assertFalse(writer.isDone(), "64 MiB went into a relay whose target reads nothing");
      held.close();
    }
  }

  @Test
  void closeReleasesEveryThreadAndSocket() throws Exception {
    DelayProxy p = proxy("127.0.0.25", Duration.ofMillis(10), 1 << 20);
    Socket s = connect(p);
    echoThrough(s, new byte[] {1});
    InetSocketAddress address = p.address();
    p.close();
    s.setSoTimeout(5000);
    try (s) {
      assertEquals(-1, s.getInputStream().read());
    } catch (IOException reset) {
      // also an end
    }
    assertThrows(ConnectException.class, () -> new Socket(address.getAddress(), address.getPort()));
    assertTrue(p.terminated(), "threads left after close");
    assertThrows(IllegalStateException.class, () -> p.setDown(true));
  }

  @Test
  void badArgumentsAreRefusedBeforeListening() {
    InetSocketAddress a = new InetSocketAddress("127.0.0.26", 0);
    assertThrows(IllegalArgumentException.class,
        () -> DelayProxy.start(a, a, Duration.ofMillis(-1), 0));
    assertThrows(IllegalArgumentException.class,
        () -> DelayProxy.start(a, a, Duration.ZERO, -1));
    assertThrows(IllegalArgumentException.class,
        () -> DelayProxy.start(InetSocketAddress.createUnresolved("nowhere", 1), a, Duration.ZERO, 0));
  }
}
