package io.eccache.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** tc per-host classes on loopback: the cap holds and the kernel's byte counters are per host. */
class LoopbackShaperTest {
  @Test
  void capsEachHostAndCountsWhatItSent() throws Exception {
    assumeTrue(LoopbackShaper.isAvailable(), "tc cannot shape loopback here (needs root and HTB)");
    Map<String, Integer> caps = new TreeMap<>();
    caps.put("127.0.0.91", 8_000); // 1 MB/s
    caps.put("127.0.0.92", 800_000);
    try (LoopbackShaper shaper = LoopbackShaper.limitEach(caps);
        ServerSocket sink = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread drain = new Thread(() -> {
        for (int i = 0; i < 2; i++) {
          try (Socket s = sink.accept(); InputStream in = s.getInputStream()) {
            in.transferTo(OutputStream.nullOutputStream());
          } catch (Exception ignored) {
            return;
          }
        }
      });
      drain.start();
      long slowMs = send("127.0.0.91", sink.getLocalPort(), 1 << 20);
      long fastMs = send("127.0.0.92", sink.getLocalPort(), 1 << 20);
      drain.join(10_000);
      assertTrue(slowMs >= 700, "1 MiB at 1 MB/s took only " + slowMs + " ms");
      assertTrue(fastMs < slowMs / 4, "the faster class: " + fastMs + " ms vs " + slowMs);
      Map<String, Long> sent = shaper.bytesSent();
      assertEquals(caps.keySet(), sent.keySet());
      for (long bytes : sent.values()) {
        // the payload plus TCP/IP headers
        assertTrue(bytes >= 1 << 20 && bytes < (1 << 20) * 1.2, sent.toString());
      }
    }
  }

  private static long send(String from, int port, int bytes) throws Exception {
    long start = System.nanoTime();
    try (Socket s = new Socket()) {
      s.bind(new InetSocketAddress(from, 0));
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      s.getOutputStream().write(new byte[bytes]);
      s.shutdownOutput();
      s.getInputStream().read(); // returns when the sink has read everything and closed
    }
    return (System.nanoTime() - start) / 1_000_000;
  }
}
