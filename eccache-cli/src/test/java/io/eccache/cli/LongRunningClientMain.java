package io.eccache.cli;

import alluxio.conf.Configuration;
import io.eccache.client.EcCacheClient;

/**
 * A long-running client in miniature (a Spark executor, a service), for the metrics sink test: it
 * reads one object, then lives on for {@code linger} ms so its metrics sinks report at least once
 * more, and exits. Arguments: KEY LINGER_MS; the master comes from Alluxio's configuration (-D).
 */
public final class LongRunningClientMain {
  private LongRunningClientMain() {}

  public static void main(String[] args) throws Exception {
    try (EcCacheClient cache = EcCacheClient.create(Configuration.global())) {
      System.out.println("read " + cache.get(args[0]).length + " bytes");
      Thread.sleep(Long.parseLong(args[1]));
    }
  }
}
