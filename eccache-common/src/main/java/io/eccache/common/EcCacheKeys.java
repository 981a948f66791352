package io.eccache.common;

import alluxio.conf.AlluxioConfiguration;
import alluxio.conf.PropertyKey;
import java.util.ArrayList;
import java.util.List;

/**
 * The index of eccache's configuration keys, grouped by who reads them: {@link SharedKeys}
 * ({@code alluxio.eccache.*}, coordinator and clients), {@link MasterKeys}
 * ({@code alluxio.master.eccache.*}, the coordinator), {@link ClientKeys}
 * ({@code alluxio.user.eccache.*}, clients and maintainers) and {@link WorkerKeys}
 * ({@code alluxio.worker.eccache.*}, the worker plugin). They are ordinary Alluxio property keys
 * with Alluxio's scopes: set them in {@code alluxio-site.properties}, as {@code -D} options, or with
 * {@code Configuration.set}. docs/configuration.md is generated from them.
 */
public final class EcCacheKeys {
  /** The key groups, in documentation order. */
  public enum Group {
    SHARED("Read by the coordinator and clients", SharedKeys.ALL),
    MASTER("Read by the coordinator (in the Alluxio master)", MasterKeys.ALL),
    CLIENT("Read by clients and maintainers", ClientKeys.ALL),
    WORKER("Read by the worker plugin (log nodes, in Alluxio workers)", WorkerKeys.ALL);

    private final String readers;
    private final List<PropertyKey> keys;

    Group(String readers, List<PropertyKey> keys) {
      this.readers = readers;
      this.keys = keys;
    }

    /** Who reads this group's keys. */
    public String readers() {
      return readers;
    }

    /** The group's keys, in documentation order. */
    public List<PropertyKey> keys() {
      return keys;
    }
  }

  private EcCacheKeys() {}

  /**
   * Registers every eccache key with Alluxio (once; later calls do nothing) and returns them. Call
   * it before reading eccache keys from a configuration made before: the master plugin's factory
   * and {@code EcCacheClient.create} do.
   */
  public static List<PropertyKey> registerAll() {
    List<PropertyKey> all = new ArrayList<>();
    for (Group g : Group.values()) {
      all.addAll(g.keys());
    }
    return all;
  }

  /** Whether {@code name} names an eccache key (any group). */
  public static boolean isEcCacheKey(String name) {
    return name.startsWith("alluxio.eccache.") || name.startsWith("alluxio.master.eccache.")
        || name.startsWith("alluxio.user.eccache.") || name.startsWith("alluxio.worker.eccache.");
  }

  /**
   * {@code key}'s int value in {@code conf}, also when {@code conf} was copied from Alluxio's
   * configuration before the key was registered (the value is then still text).
   */
  public static int getInt(AlluxioConfiguration conf, PropertyKey key) {
    Object value = conf.get(key);
    return value instanceof Number ? ((Number) value).intValue()
        : Integer.parseInt(String.valueOf(value).trim());
  }
}
