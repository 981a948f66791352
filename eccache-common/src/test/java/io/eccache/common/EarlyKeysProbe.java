package io.eccache.common;

import alluxio.conf.Configuration;

/**
 * Run in a JVM of its own by {@link EcCacheKeysTest}: loads Alluxio's configuration (site file and
 * -D options) before EcCacheKeys, as an Alluxio master does before it loads the plugin, then prints
 * what the typed keys read.
 */
public final class EarlyKeysProbe {
  private EarlyKeysProbe() {}

  public static void main(String[] args) {
    Configuration.global(); // Alluxio's configuration first, as in a master or a client app
    EcCacheKeys.registerAll(); // as the plugin factory and the client do
    System.out.println("k=" + Configuration.getInt(MasterKeys.DEFAULT_K));
    System.out.println("overhead=" + Configuration.getDouble(MasterKeys.MEMORY_OVERHEAD));
    System.out.println("schemes=" + Configuration.getString(MasterKeys.NAMESPACE_SCHEMES));
    System.out.println("weight=" + Configuration.getDouble(MasterKeys.POPULARITY_WEIGHT));
    System.out.println("replicas=" + EcCacheKeys.getInt(Configuration.copyGlobal(),
        MasterKeys.SMALL_OBJECT_REPLICAS));
    System.out.println("enabled=" + Configuration.getBoolean(MasterKeys.COORDINATOR_ENABLED));
    System.out.println("timeout=" + Configuration.getMs(ClientKeys.IO_TIMEOUT));
  }
}
