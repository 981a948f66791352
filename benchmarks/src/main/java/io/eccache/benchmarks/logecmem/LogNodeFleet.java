package io.eccache.benchmarks.logecmem;

import alluxio.conf.AlluxioProperties;
import alluxio.conf.InstancedConfiguration;
import alluxio.conf.PropertyKey;
import alluxio.security.authentication.AuthType;
import io.eccache.common.UpdateCapability;
import io.eccache.common.WorkerKeys;
import io.eccache.lognode.LogScheme;
import io.eccache.worker.StandaloneLogNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import com.google.common.io.BaseEncoding;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The testbed's log nodes (127.0.0.100 and up, logs on the local disk), shared by the testbeds of
 * one run: each testbed writes its stripes under a namespace of its own. In processes of their own
 * (benchmarks: the proxy's JVM does not lend them its CPU or heap, as memcached's servers have
 * theirs) or in this JVM (tests).
 */
final class LogNodeFleet implements AutoCloseable {
  private static final long START_TIMEOUT_S = 60;

  private final byte[] updateKey;
  /** gRPC addresses, then the plain sockets', one per node. */
  private final List<String> addresses;
  private final List<String> socketAddresses;
  private final List<AutoCloseable> nodes;
  private final AtomicInteger namespaces = new AtomicInteger();

  private LogNodeFleet(byte[] updateKey, List<String> addresses, List<String> socketAddresses,
      List<AutoCloseable> nodes) {
    this.updateKey = updateKey;
    this.addresses = Collections.unmodifiableList(addresses);
    this.socketAddresses = Collections.unmodifiableList(socketAddresses);
    this.nodes = nodes;
  }

  /** The configuration of a log node's and the proxy's side: no authentication, as memcached. */
  static InstancedConfiguration conf() {
    InstancedConfiguration conf = new InstancedConfiguration(new AlluxioProperties());
    conf.set(PropertyKey.SECURITY_AUTHENTICATION_TYPE, AuthType.NOSASL);
    conf.set(PropertyKey.SECURITY_AUTHORIZATION_PERMISSION_ENABLED, false);
    return conf;
  }

  /** PLM's merge size by default: a merge once 64 MB of log is written. */
  static final long DEFAULT_MERGE_BYTES = 64L << 20;

  /** {@code count} log nodes in this JVM. */
  static LogNodeFleet inProcess(int count, LogScheme scheme, Path dir) throws IOException {
    return inProcess(count, scheme, DEFAULT_MERGE_BYTES, dir);
  }

  /** {@code count} log nodes in this JVM, PLM merging every {@code mergeBytes} of log. */
  static LogNodeFleet inProcess(int count, LogScheme scheme, long mergeBytes, Path dir)
      throws IOException {
    byte[] key = UpdateCapability.newKey();
    List<String> addresses = new ArrayList<>();
    List<String> sockets = new ArrayList<>();
    List<AutoCloseable> nodes = new ArrayList<>();
    try {
      for (int j = 0; j < count; j++) {
        StandaloneLogNode node = StandaloneLogNode.start(host(j), key,
            nodeConf(Files.createTempDirectory(Files.createDirectories(dir), "lognode-"), scheme,
                mergeBytes));
        nodes.add(node);
        addresses.add(node.address());
        sockets.add(node.socketAddress());
      }
    } catch (IOException | RuntimeException e) {
      closeAll(nodes);
      throw e;
    }
    return new LogNodeFleet(key, addresses, sockets, nodes);
  }

  /** {@code count} log nodes, each a JVM of its own started from this one's class path. */
  static LogNodeFleet processes(int count, LogScheme scheme, Path dir) throws IOException {
    return processes(count, scheme, DEFAULT_MERGE_BYTES, dir);
  }

  /** As {@link #processes(int, LogScheme, Path)}, PLM merging every {@code mergeBytes} of log. */
  static LogNodeFleet processes(int count, LogScheme scheme, long mergeBytes, Path dir)
      throws IOException {
    byte[] key = UpdateCapability.newKey();
    List<CompletableFuture<ChildNode>> starting = new ArrayList<>();
    for (int j = 0; j < count; j++) {
      Path logs = Files.createTempDirectory(Files.createDirectories(dir), "lognode-");
      String host = host(j);
      starting.add(CompletableFuture.supplyAsync(() -> ChildNode.start(host, logs, scheme,
          mergeBytes, key)));
    }
    List<String> addresses = new ArrayList<>();
    List<String> sockets = new ArrayList<>();
    List<AutoCloseable> nodes = new ArrayList<>();
    IOException failed = null;
    for (CompletableFuture<ChildNode> node : starting) {
      try {
        ChildNode child = node.join();
        nodes.add(child);
        addresses.add(child.address);
        sockets.add(child.socketAddress);
      } catch (RuntimeException e) {
        failed = new IOException("a log node did not start: " + e.getCause(), e);
      }
    }
    if (failed != null) {
      closeAll(nodes);
      throw failed;
    }
    return new LogNodeFleet(key, addresses, sockets, nodes);
  }

  private static String host(int j) {
    return "127.0.0." + (100 + j);
  }

  static InstancedConfiguration nodeConf(Path dir, LogScheme scheme, long mergeBytes) {
    InstancedConfiguration conf = conf();
    conf.set(WorkerKeys.LOG_NODE_DIR, dir.toString());
    conf.set(WorkerKeys.LOG_NODE_SCHEME, scheme.name());
    conf.set(WorkerKeys.LOG_NODE_FSYNC, false);
    conf.set(WorkerKeys.LOG_NODE_MERGE_SIZE, mergeBytes + "B");
    return conf;
  }

  byte[] updateKey() {
    return updateKey.clone();
  }

  /** The nodes' addresses on {@code wire}. */
  List<String> addresses(LogWire wire) {
    return wire == LogWire.SOCKET ? socketAddresses : addresses;
  }

  int size() {
    return addresses.size();
  }

  /** A namespace no testbed of this fleet used before. */
  String newNamespace() {
    return "kv" + namespaces.incrementAndGet();
  }

  @Override
  public void close() {
    closeAll(nodes);
  }

  private static void closeAll(List<AutoCloseable> nodes) {
    for (AutoCloseable node : nodes) {
      try {
        node.close();
      } catch (Exception e) {
        // a node that will not stop is killed by its close
      }
    }
  }

  /** A log node in a child JVM ({@link LogNodeMain}); it stops when its standard input closes. */
  private static final class ChildNode implements AutoCloseable {
    final Process process;
    final String address;
    final String socketAddress;

    ChildNode(Process process, String address, String socketAddress) {
      this.process = process;
      this.address = address;
      this.socketAddress = socketAddress;
    }

    static ChildNode start(String host, Path dir, LogScheme scheme, long mergeBytes,
        byte[] key) {
      List<String> command = new ArrayList<>(List.of(
          Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
          "-cp", System.getProperty("java.class.path"),
          "io.eccache.localcluster.ParentWatch", String.valueOf(ProcessHandle.current().pid()),
          LogNodeMain.class.getName(), host, dir.toString(), scheme.name(),
          BaseEncoding.base16().encode(key), String.valueOf(mergeBytes)));
      try {
        Process process = new ProcessBuilder(command)
            .redirectError(dir.resolve("lognode.err").toFile()).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8));
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
          try {
            return out.readLine();
          } catch (IOException e) {
            return null;
          }
        });
        String first;
        try {
          first = line.get(START_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (Exception e) {
          first = null;
        }
        if (first == null || !first.startsWith(LogNodeMain.READY)) {
          process.destroyForcibly();
          throw new IllegalStateException("log node " + host + " did not start within "
              + START_TIMEOUT_S + " s: " + Files.readString(dir.resolve("lognode.err")).strip());
        }
        String[] both = first.substring(LogNodeMain.READY.length()).strip().split(" ");
        return new ChildNode(process, both[0], both[1]);
      } catch (IOException e) {
        throw new IllegalStateException("cannot start a log node on " + host + ": " + e, e);
      }
    }

    @Override
    public void close() throws Exception {
      process.getOutputStream().close();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }
}
