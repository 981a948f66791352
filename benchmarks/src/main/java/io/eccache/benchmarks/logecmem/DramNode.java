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
 * The proxy's connection to one DRAM node (a memcached server), binary protocol: chunks are stored
 * and fetched as raw bytes (no serialization, no compression), and a call to a node that is down
 * fails at once rather than being queued for a reconnect.
 */
final class DramNode implements AutoCloseable {
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

  private final MemcachedServer server;
  private final MemcachedClient client;
  private volatile boolean down;

  DramNode(MemcachedServer server) throws IOException {
    this.server = server;
    this.client = new MemcachedClient(new ConnectionFactoryBuilder()
        .setProtocol(ConnectionFactoryBuilder.Protocol.BINARY)
        .setFailureMode(FailureMode.Cancel).setOpTimeout(TIMEOUT_MS).setDaemon(true)
        .build(), List.of(server.address()));
  }

  boolean isDown() {
    return down;
  }

  /** SIGKILLs the server; the proxy reads around it from now on. */
  void kill() {
    down = true;
    server.kill();
  }

  Future<byte[]> getAsync(String key) {
    return client.asyncGet(key, RAW);
  }

  Future<Boolean> setAsync(String key, byte[] value) {
    return client.set(key, 0, value, RAW);
  }

  Future<Boolean> deleteAsync(String key) {
    return client.delete(key);
  }

  byte[] get(String key) throws IOException {
    byte[] value = await(getAsync(key), "get " + key);
    if (value == null) {
      throw new IOException(server + " holds no " + key);
    }
    return value;
  }

  void set(String key, byte[] value) throws IOException {
    if (!Boolean.TRUE.equals(await(setAsync(key, value), "set " + key))) {
      throw new IOException(server + " refused set " + key + " (" + value.length + " bytes)");
    }
  }

  void delete(String key) throws IOException {
    await(deleteAsync(key), "delete " + key);
  }

  /** Bytes of items the server holds ({@code stats}' {@code bytes}: values, keys, headers). */
  long bytesStored() throws IOException {
    Map<java.net.SocketAddress, Map<String, String>> stats = client.getStats();
    Map<String, String> mine = stats.values().stream().findFirst().orElse(Map.of());
    String bytes = mine.get("bytes");
    if (bytes == null) {
      throw new IOException(server + " answered no stats");
    }
    return Long.parseLong(bytes);
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
  public void close() {
    client.shutdown(1, TimeUnit.SECONDS);
  }

  @Override
  public String toString() {
    return server.toString();
  }
}
