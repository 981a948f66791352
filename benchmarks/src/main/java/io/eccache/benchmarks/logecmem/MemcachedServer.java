package io.eccache.benchmarks.logecmem;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One memcached server, a process of its own on a loopback address: a DRAM node of LogECMem's
 * testbed, as the paper's are (memcached 1.4.25 there, Debian's package here). {@link #kill()}
 * SIGKILLs it, as the paper's degraded-read experiments kill DRAM nodes.
 */
public final class MemcachedServer implements AutoCloseable {
  private static final long START_TIMEOUT_MS = 10_000;

  private final String host;
  private final int port;
  private final Process process;
  private final Path log;
  /** Kills the server if this JVM exits first (a benchmark stopped with SIGTERM or Ctrl-C). */
  private final Thread reaper;

  private MemcachedServer(String host, int port, Process process, Path log) {
    this.host = host;
    this.port = port;
    this.process = process;
    this.log = log;
    this.reaper = new Thread(process::destroyForcibly, "memcached-reaper");
    Runtime.getRuntime().addShutdownHook(reaper);
  }

  /**
   * Starts memcached on {@code host} with {@code memoryMiB} of item memory; returns once it
   * accepts connections.
   *
   * @throws IllegalStateException if memcached is not installed
   * @throws IOException if it did not start within 10 s (its output is in the message)
   */
  public static MemcachedServer start(String host, int memoryMiB, Path logDir) throws IOException {
    Path binary = binary();
    int port;
    try (ServerSocket probe = new ServerSocket()) {
      probe.bind(new InetSocketAddress(host, 0));
      port = probe.getLocalPort();
    }
    List<String> command = new ArrayList<>(List.of(binary.toString(), "-l", host, "-p",
        String.valueOf(port), "-U", "0", "-m", String.valueOf(memoryMiB), "-t", "1", "-c",
        "1024"));
    if ("root".equals(System.getProperty("user.name"))) {
      command.addAll(List.of("-u", "root")); // memcached refuses root without it
    }
    Files.createDirectories(logDir);
    Path log = logDir.resolve("memcached-" + host + "-" + port + ".log");
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    MemcachedServer server = new MemcachedServer(host, port, process, log);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MS);
    while (true) {
      try (Socket socket = new Socket(host, port)) {
        return server;
      } catch (IOException notYet) {
        if (!process.isAlive() || System.nanoTime() > deadline) {
          process.destroyForcibly();
          throw new IOException("memcached on " + host + ":" + port + " did not start within "
              + START_TIMEOUT_MS + " ms (" + String.join(" ", command) + "): "
              + Files.readString(log, StandardCharsets.UTF_8).strip());
        }
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          process.destroyForcibly();
          throw new IOException("interrupted while memcached started", e);
        }
      }
    }
  }

  /** The memcached binary: {@code -Deccache.memcached}, else the first on the PATH. */
  static Path binary() {
    String given = System.getProperty("eccache.memcached");
    if (given != null) {
      return Paths.get(given);
    }
    String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    for (String dir : (path + ":/usr/bin:/usr/local/bin").split(":")) {
      Path candidate = Paths.get(dir.isEmpty() ? "." : dir, "memcached");
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException("memcached is not installed: run scripts/install-deps.sh"
        + " (Debian's memcached package), or give its path with -Deccache.memcached=...");
  }

  /** What {@code memcached -V} prints, e.g. {@code memcached 1.6.18}. */
  public static String version() {
    try {
      Process p = new ProcessBuilder(binary().toString(), "-V").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      p.waitFor(10, TimeUnit.SECONDS);
      return out;
    } catch (IOException e) {
      return "memcached (version unknown: " + e.getMessage() + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "memcached (version unknown)";
    }
  }

  public String host() {
    return host;
  }

  public InetSocketAddress address() {
    return new InetSocketAddress(host, port);
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** SIGKILLs the server and waits for it to be gone. */
  public void kill() {
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() throws IOException {
    kill();
    try {
      Runtime.getRuntime().removeShutdownHook(reaper);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs anyway, on a process already gone
    }
    Files.deleteIfExists(log);
  }

  @Override
  public String toString() {
    return "memcached " + host + ":" + port;
  }
}
