package io.eccache.benchmarks.logecmem;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.spy.memcached.CachedData;
import net.spy.memcached.ConnectionFactoryBuilder;
import net.spy.memcached.FailureMode;
import net.spy.memcached.MemcachedClient;
import net.spy.memcached.transcoders.Transcoder;

/**
 * The proxy's view of one DRAM node: a memcached server (or, on a testbed of virtual nodes, a key
 * prefix of one, {@link NodeMap}), binary protocol: chunks are stored and fetched as raw bytes (no
 * serialization, no compression), and a call to a node that is down fails at once rather than
 * being queued for a reconnect.
 */
final class DramNode {
  private static final long TIMEOUT_MS = 5_000;

  static {
    // spymemcached logs to stderr unless told otherwise: through SLF4J, as the rest of eccache.
    if (System.getProperty("net.spy.log.LoggerImpl") == null) {
      System.setProperty("net.spy.log.LoggerImpl", "net.spy.memcached.compat.log.SLF4JLogger");
    }
  }

  /** Raw bytes, never compressed (spymemcached's default compresses items over 16 KiB). */
  private static final Transcoder<byte[]> RAW = new Transcoder<>() {
    @Override
    public boolean asyncDecode(CachedData d) {
      return false;
    }

    @Override
    public CachedData encode(byte[] o) {
      return new CachedData(0, o, getMaxSize());
    }

    @Override
    public byte[] decode(CachedData d) {
      return d.getData();
    }

    @Override
    public int getMaxSize() {
      return CachedData.MAX_SIZE;
    }
  };

  /**
   * One memcached server and the proxy's connection to it, shared by the logical nodes it carries
   * (one, except on a testbed of virtual nodes); killing it takes every one of them down.
   */
  static final class Server implements AutoCloseable {
    private final MemcachedServer process;
    private final MemcachedClient client;
    private volatile boolean down;

    /**
     * Connects to {@code process} and waits until the connection is up: spymemcached connects in
     * the background and, failing fast, cancels a call made before (a replacement server is
     * written to at once).
     *
     * @throws IOException if it is not connected within 5 s
     */
    Server(MemcachedServer process) throws IOException {
      this.process = process;
      this.client = new MemcachedClient(new ConnectionFactoryBuilder()
          .setProtocol(ConnectionFactoryBuilder.Protocol.BINARY)
          .setFailureMode(FailureMode.Cancel).setOpTimeout(TIMEOUT_MS).setDaemon(true)
          .build(), List.of(process.address()));
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
      while (client.getAvailableServers().isEmpty()) {
        if (System.nanoTime() > deadline) {
          client.shutdown(1, TimeUnit.SECONDS);
          throw new IOException("the proxy could not connect to " + process + " within "
              + TIMEOUT_MS + " ms");
        }
        try {
          Thread.sleep(2);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          client.shutdown(1, TimeUnit.SECONDS);
          throw new IOException("interrupted while connecting to " + process, e);
        }
      }
    }

    boolean isDown() {
      return down;
    }

    /** SIGKILLs the server; its nodes are read around from now on. */
    void kill() {
      down = true;
      process.kill();
    }

    /** Bytes of items the server holds ({@code stats}' {@code bytes}: values, keys, headers). */
    long bytesStored() throws IOException {
      Map<java.net.SocketAddress, Map<String, String>> stats = client.getStats();
      Map<String, String> mine = stats.values().stream().findFirst().orElse(Map.of());
      String bytes = mine.get("bytes");
      if (bytes == null) {
        throw new IOException(this + " answered no stats");
      }
      return Long.parseLong(bytes);
    }

    /** Closes the connection and SIGKILLs the server. */
    @Override
    public void close() {
      client.shutdown(1, TimeUnit.SECONDS);
      try {
        process.close();
      } catch (IOException e) {
        // its log file stays behind in the run's directory
      }
    }

    @Override
    public String toString() {
      return process.toString();
    }
  }

  private final Server server;
  /** Prefixed to every item key: the node's own items on a shared server. */
  private final String prefix;
  private final MemcachedClient client;

  /** A node that has {@code server} alone. */
  DramNode(Server server) {
    this(server, "");
  }

  /** A logical node on {@code server}, its items' keys prefixed with {@code prefix}. */
  DramNode(Server server, String prefix) {
    this.server = server;
    this.prefix = prefix;
    this.client = server.client;
  }

  boolean isDown() {
    return server.isDown();
  }

  /** SIGKILLs the node's server (and so every node it carries); reads go around it from now on. */
  void kill() {
    server.kill();
  }

  Future<byte[]> getAsync(String key) {
    return client.asyncGet(prefix + key, RAW);
  }

  Future<Boolean> setAsync(String key, byte[] value) {
    return client.set(prefix + key, 0, value, RAW);
  }

  Future<Boolean> deleteAsync(String key) {
    return client.delete(prefix + key);
  }

  byte[] get(String key) throws IOException {
    byte[] value = await(getAsync(key), "get " + key);
    if (value == null) {
      throw new IOException(this + " holds no " + key);
    }
    return value;
  }

  void set(String key, byte[] value) throws IOException {
    if (!Boolean.TRUE.equals(await(setAsync(key, value), "set " + key))) {
      throw new IOException(this + " refused set " + key + " (" + value.length + " bytes)");
    }
  }

  void delete(String key) throws IOException {
    await(deleteAsync(key), "delete " + key);
  }

  /** Waits for a call's answer, at most 5 s. */
  <T> T await(Future<T> call, String what) throws IOException {
    try {
      return call.get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException | RuntimeException e) {
      throw new IOException(server + ": " + what + " failed: " + e, e);
    } catch (TimeoutException e) {
      call.cancel(true);
      throw new IOException(server + ": " + what + " had no answer within " + TIMEOUT_MS
          + " ms", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted: " + what, e);
    }
  }

  @Override
  public String toString() {
    return prefix.isEmpty() ? server.toString() : server + " (node " + prefix + ")";
  }
}
