package io.eccache.localcluster;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real S3 API server on loopback: s3proxy with its filesystem backend, run as a child process (its
 * Jetty and Guava would clash with Alluxio's in one JVM). Buckets are directories under
 * {@link #dataDir()}, objects are files, so tests can look at what reached "S3", and a server
 * started again on the same directory serves the same objects.
 *
 * <p>By default the child dies with this JVM (a shutdown hook kills it); a detached server (see
 * {@link #start(Path, List, int, boolean)}) runs in a session of its own and outlives it.
 */
public final class S3ProxyServer implements AutoCloseable {
  /** System property: the s3proxy jar-with-dependencies to run, overriding the one Maven fetched. */
  public static final String JAR_PROPERTY = "eccache.s3proxy.jar";
  public static final String IDENTITY = "eccache-test";
  public static final String CREDENTIAL = "eccache-test-secret";

  private static final Logger LOG = LoggerFactory.getLogger(S3ProxyServer.class);

  private final Path dir;
  private final Path dataDir;
  private final int port;
  /** s3proxy's main class (its jar's Main-Class). */
  private static final String S3PROXY_MAIN = "org.gaul.s3proxy.Main";

  private final boolean detached;
  private volatile Process process;
  private final Thread shutdownHook;

  private S3ProxyServer(Path dir, Path dataDir, int port, boolean detached) {
    this.dir = dir;
    this.dataDir = dataDir;
    this.port = port;
    this.detached = detached;
    // Never leave an orphan behind, even when a test JVM exits without closing the cluster.
    this.shutdownHook = new Thread(() -> {
      Process p = process;
      if (p != null) {
        p.destroyForcibly();
      }
    }, "s3proxy-reaper");
  }

  /** Starts s3proxy on 127.0.0.1 with the given buckets (directories under {@code dir/data}). */
  public static S3ProxyServer start(Path dir, List<String> buckets) throws IOException {
    return start(dir, buckets, 0, false);
  }

  /**
   * Starts s3proxy on 127.0.0.1:{@code port} (a free port when 0) with the given buckets
   * (directories under {@code dir/data}; existing objects are kept). A {@code detached} server runs
   * in a session of its own with no shutdown hook, so it outlives this JVM and the terminal.
   */
  public static S3ProxyServer start(Path dir, List<String> buckets, int port, boolean detached)
      throws IOException {
    Path jar = jar();
    Path data = Files.createDirectories(dir.resolve("data"));
    for (String bucket : buckets) {
      Files.createDirectories(data.resolve(bucket));
    }
    if (port == 0) {
      port = freePort();
    }
    Properties p = new Properties();
    p.setProperty("s3proxy.endpoint", "http://127.0.0.1:" + port);
    p.setProperty("s3proxy.authorization", "aws-v2-or-v4");
    p.setProperty("s3proxy.identity", IDENTITY);
    p.setProperty("s3proxy.credential", CREDENTIAL);
    p.setProperty("jclouds.provider", "filesystem");
    p.setProperty("jclouds.filesystem.basedir", data.toString());
    Path conf = dir.resolve("s3proxy.conf");
    try (var out = Files.newBufferedWriter(conf, StandardCharsets.UTF_8)) {
      p.store(out, "eccache EmbeddedCluster");
    }
    S3ProxyServer server = new S3ProxyServer(dir, data, port, detached);
    if (!detached) {
      Runtime.getRuntime().addShutdownHook(server.shutdownHook);
    }
    server.launch();
    LOG.info("s3proxy {} serving {} on {}", jar.getFileName(), data, server.endpoint());
    return server;
  }

  private void launch() throws IOException {
    Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
    // S3 stands in for a service on other machines: its JVM takes these cores' time as little as
    // it can (C1 only, one compiler thread, the serial collector), so it does not compete with
    // the cluster for them the way a fully tiered JVM compiling for minutes would.
    List<String> command = new ArrayList<>(List.of(java.toString(), "-Xmx512m",
        "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-XX:+UseSerialGC"));
    List<String> args = List.of("--properties", dir.resolve("s3proxy.conf").toString());
    if (detached) {
      command.addAll(List.of("-jar", jar().toString()));
      command.addAll(args);
    } else {
      // Dies with this JVM even when it is SIGKILLed: s3proxy's own main under ParentWatch.
      command.addAll(List.of("-cp", jar() + File.pathSeparator
          + ParentWatch.codeLocation()));
      command.addAll(ParentWatch.wrap(S3PROXY_MAIN, args));
    }
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("s3proxy.log").toFile()));
    process = (detached ? Detached.apply(builder) : builder).start();
    try {
      awaitReady(60_000);
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  /** Stops the server, keeping its data, to play an S3 outage; {@link #restart()} ends it. */
  public void stop() {
    destroy();
  }

  /** Starts the server again on the same port and data after {@link #stop()}. */
  public void restart() throws IOException {
    if (isRunning()) {
      return;
    }
    launch();
  }

  /** The port it serves on (127.0.0.1). */
  public int port() {
    return port;
  }

  /** http://127.0.0.1:port */
  public String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  /** Where the buckets and objects live on disk. */
  public Path dataDir() {
    return dataDir;
  }

  /** The child process (null before it was started), to record its pid. */
  public ProcessHandle handle() {
    Process p = process;
    return p == null ? null : p.toHandle();
  }

  /** The server's log (s3proxy's standard output and error). */
  public Path logFile() {
    return dir.resolve("s3proxy.log");
  }

  /** Whether the child process is alive. */
  public boolean isRunning() {
    Process p = process;
    return p != null && p.isAlive();
  }

  private void awaitReady(long timeoutMs) throws IOException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (System.currentTimeMillis() < deadline) {
      if (!process.isAlive()) {
        throw new IOException("s3proxy exited with code " + process.exitValue()
            + " before serving; see " + logFile());
      }
      try {
        HttpURLConnection c = (HttpURLConnection) new URL(endpoint() + "/").openConnection();
        c.setConnectTimeout(500);
        c.setReadTimeout(2000);
        c.getResponseCode(); // any status, 403 included, means it is serving
        c.disconnect();
        return;
      } catch (IOException notYet) {
        sleep(100);
      }
    }
    throw new IOException("s3proxy did not serve " + endpoint() + " within " + timeoutMs + " ms");
  }

  /** Stops the server (SIGTERM, then SIGKILL after 10 s) and removes its shutdown hook. */
  @Override
  public void close() {
    destroy();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs anyway
    }
  }

  private void destroy() {
    Process process = this.process;
    if (process == null) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** The s3proxy jar: the system property, else where this module's Maven build fetched it. */
  static Path jar() throws IOException {
    String override = System.getProperty(JAR_PROPERTY);
    Path jar;
    if (override != null) {
      jar = Paths.get(override);
    } else {
      Properties p = new Properties();
      try (InputStream in = S3ProxyServer.class.getResourceAsStream("/eccache-local-cluster.properties")) {
        if (in == null) {
          throw new IOException("eccache-local-cluster.properties missing from the classpath");
        }
        p.load(in);
      }
      jar = Paths.get(p.getProperty("s3proxy.jar"));
    }
    if (!Files.isRegularFile(jar)) {
      throw new IOException("s3proxy jar not found at " + jar + ": build eccache-local-cluster "
          + "with Maven (it fetches the jar) or set -D" + JAR_PROPERTY + "=<jar>");
    }
    return jar;
  }

  /** A TCP port free on loopback right now. */
  public static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for s3proxy", e);
    }
  }
}
