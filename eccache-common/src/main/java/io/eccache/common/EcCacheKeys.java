package io.eccache.common;

import alluxio.conf.AlluxioConfiguration;
import alluxio.conf.Configuration;
import alluxio.conf.PropertyKey;
import alluxio.conf.Source;

/**
 * Every {@code alluxio.eccache.*} configuration key, in one place. They are ordinary Alluxio property
 * keys: set them in {@code alluxio-site.properties}, as {@code -D} system properties, or in code with
 * {@code Configuration.set}. docs/configuration.md lists them with the coder's keys.
 */
public final class EcCacheKeys {
  /** Whether the coordinator master runs in an Alluxio master that has the eccache jar. */
  public static final PropertyKey COORDINATOR_ENABLED =
      register(PropertyKey.Builder.booleanBuilder("alluxio.eccache.coordinator.enabled")
          .setDefaultValue(true)
          .setDescription("Whether the eccache coordinator runs in this Alluxio master.")
          .setIsBuiltIn(false).buildUnregistered());

  /** Data splits per object when a PUT does not say (the paper's k = 10). */
  public static final PropertyKey DEFAULT_K =
      register(PropertyKey.Builder.intBuilder("alluxio.eccache.default.k")
          .setDefaultValue(10)
          .setDescription("Data splits per object (k) when a PUT does not choose.")
          .setIsBuiltIn(false).buildUnregistered());

  /** Parity splits per object when a PUT does not say (the paper's baseline r = 1). */
  public static final PropertyKey DEFAULT_R =
      register(PropertyKey.Builder.intBuilder("alluxio.eccache.default.r")
          .setDefaultValue(1)
          .setDescription("Parity splits per object (r) when a PUT does not choose.")
          .setIsBuiltIn(false).buildUnregistered());

  /** Objects smaller than this are stored whole with replication, as the paper does. */
  public static final PropertyKey SMALL_OBJECT_THRESHOLD =
      register(PropertyKey.Builder.dataSizeBuilder("alluxio.eccache.small.object.threshold")
          .setDefaultValue("1MB")
          .setDescription("Objects smaller than this (and PUT without an explicit code) are stored "
              + "as whole replicas instead of being split.")
          .setIsBuiltIn(false).buildUnregistered());

  /** Copies of a small object. */
  public static final PropertyKey SMALL_OBJECT_REPLICAS =
      register(PropertyKey.Builder.intBuilder("alluxio.eccache.small.object.replicas")
          .setDefaultValue(2)
          .setDescription("Whole copies of an object below the small-object threshold, each on its "
              + "own worker.")
          .setIsBuiltIn(false).buildUnregistered());

  /** Where eccache keeps its objects in Alluxio's namespace. */
  public static final PropertyKey ROOT =
      register(PropertyKey.Builder.stringBuilder("alluxio.eccache.root")
          .setDefaultValue("/.eccache")
          .setDescription("Alluxio directory under which eccache stores split files and layouts.")
          .setIsBuiltIn(false).buildUnregistered());

  /** How long an allocation may stay uncommitted before the coordinator forgets it. */
  public static final PropertyKey ALLOCATION_TIMEOUT =
      register(PropertyKey.Builder.durationBuilder("alluxio.eccache.allocation.timeout")
          .setDefaultValue("10min")
          .setDescription("An allocated but uncommitted PUT is abandoned after this long.")
          .setIsBuiltIn(false).buildUnregistered());

  /**
   * The longest a client waits for one split read, split write step or under-store step before
   * giving up on it: a read moves on to another split (late binding) or fails, a PUT fails.
   */
  public static final PropertyKey USER_IO_TIMEOUT =
      register(PropertyKey.Builder.durationBuilder("alluxio.eccache.user.io.timeout")
          .setDefaultValue("30s")
          .setDescription("How long a client waits for one split read or one split write step"
              + " (open, a stripe's writes, close) before it fails with DeadlineExceededException"
              + " naming what it waited for; a GET first tries another split.")
          .setIsBuiltIn(false).buildUnregistered());

  /**
   * How long a replaced or deleted version's splits stay readable, so GETs and streams that looked
   * it up before finish reading it.
   */
  public static final PropertyKey RETIRED_GRACE =
      register(PropertyKey.Builder.durationBuilder("alluxio.eccache.retired.grace")
          .setDefaultValue("2min")
          .setDescription("A replaced or deleted version's splits are removed this long after it"
              + " was replaced, so readers that started before can finish it.")
          .setIsBuiltIn(false).buildUnregistered());

  /**
   * The Alluxio directory whose under store (S3) holds the objects themselves: key {@code k} is the
   * file {@code <prefix>/<encoded k>} (see UnderStorePaths). The splits are a cache of it.
   */
  public static final PropertyKey UFS_PREFIX =
      register(PropertyKey.Builder.stringBuilder("alluxio.eccache.ufs.prefix")
          .setDefaultValue("/")
          .setDescription("Alluxio directory (mounted on S3) where objects are persisted: key k"
              + " at <prefix>/<k with every byte outside A-Za-z0-9-_. (and a leading '.') written"
              + " ~XX>, e.g. a/b at <prefix>/a~2Fb; a plain path <prefix>/a/b that another tool"
              + " wrote is read as key a/b.")
          .setIsBuiltIn(false).buildUnregistered());

  /**
   * Largest cell of a striped object. Objects up to k cells are one stripe (each split a plain 1/k
   * of the object, as in the paper); larger ones are striped so PUT and GET can stream them.
   */
  public static final PropertyKey CELL_SIZE =
      register(PropertyKey.Builder.dataSizeBuilder("alluxio.eccache.cell.size")
          .setDefaultValue("4MB")
          .setDescription("Largest stripe cell; objects up to k cells are one stripe. Read by the "
              + "coordinator when it allocates.")
          .setIsBuiltIn(false).buildUnregistered());

  /** Direct memory a client keeps for reuse by its PUTs and GETs. */
  public static final PropertyKey USER_BUFFER_POOL_SIZE =
      register(PropertyKey.Builder.dataSizeBuilder("alluxio.eccache.user.buffer.pool.size")
          .setDefaultValue("256MB")
          .setDescription("Direct buffers a client keeps for reuse across PUTs and GETs; buffers "
              + "returned beyond this are freed.")
          .setIsBuiltIn(false).buildUnregistered());

  /** How much of an object a streaming GET reads per late-binding round. */
  public static final PropertyKey USER_STREAM_WINDOW =
      register(PropertyKey.Builder.dataSizeBuilder("alluxio.eccache.user.stream.window")
          .setDefaultValue("64MB")
          .setDescription("Object bytes a streaming GET (or PUT) holds per window: whole stripes, at "
              + "least one; one window is read ahead.")
          .setIsBuiltIn(false).buildUnregistered());

  /**
   * Redundancy scheme per namespace (a key's first path component), as {@code ns=scheme} pairs,
   * comma separated; schemes: {@code ec}, {@code replica} (selective replication),
   * {@code partition} (SP-Cache). Namespaces not listed use {@code ec}.
   */
  public static final PropertyKey NAMESPACE_SCHEMES =
      register(PropertyKey.Builder.stringBuilder("alluxio.eccache.namespace.schemes")
          .setDefaultValue("")
          .setDescription("Redundancy scheme per namespace, e.g. 'sr=replica,sp=partition'; others "
              + "use ec.")
          .setIsBuiltIn(false).buildUnregistered());

  /** Memory beyond one copy of every object that redundancy may use (the paper's 15%). */
  public static final PropertyKey MEMORY_OVERHEAD =
      register(PropertyKey.Builder.doubleBuilder("alluxio.eccache.memory.overhead")
          .setDefaultValue(0.15)
          .setDescription("Redundancy budget as a fraction of the objects' size, per namespace: "
              + "base parities first, the rest to the most popular objects.")
          .setIsBuiltIn(false).buildUnregistered());

  /** Length of a popularity period. */
  public static final PropertyKey POPULARITY_PERIOD =
      register(PropertyKey.Builder.durationBuilder("alluxio.eccache.popularity.period")
          .setDefaultValue("1min")
          .setDescription("Accesses are counted per period and folded into an EWMA at its end.")
          .setIsBuiltIn(false).buildUnregistered());

  /** Weight of the latest period in the popularity EWMA (Agar uses 0.8). */
  public static final PropertyKey POPULARITY_WEIGHT =
      register(PropertyKey.Builder.doubleBuilder("alluxio.eccache.popularity.weight")
          .setDefaultValue(0.8)
          .setDescription("popularity = weight * accesses in the last period + (1 - weight) * "
              + "popularity before.")
          .setIsBuiltIn(false).buildUnregistered());

  /** How often the coordinator recomputes every object's target redundancy. */
  public static final PropertyKey RETUNE_INTERVAL =
      register(PropertyKey.Builder.durationBuilder("alluxio.eccache.retune.interval")
          .setDefaultValue("30s")
          .setDescription("How often the coordinator recomputes target redundancy and plans "
              + "repairs; also right after a worker is lost. 0 turns re-tuning off.")
          .setIsBuiltIn(false).buildUnregistered());

  /** How long a maintenance task handed out may stay unfinished before it is planned again. */
  public static final PropertyKey MAINTENANCE_LEASE =
      register(PropertyKey.Builder.durationBuilder("alluxio.eccache.maintenance.lease")
          .setDefaultValue("5min")
          .setDescription("A planned repair or re-tuning task not reported done within this is "
              + "handed out again.")
          .setIsBuiltIn(false).buildUnregistered());

  /** Bytes per second a maintainer may move (reads plus writes) for repair and re-tuning. */
  public static final PropertyKey MAINTENANCE_BANDWIDTH =
      register(PropertyKey.Builder.dataSizeBuilder("alluxio.eccache.maintenance.bandwidth")
          .setDefaultValue("100MB")
          .setDescription("Per maintainer process: bytes per second read and written by repair and "
              + "re-tuning.")
          .setIsBuiltIn(false).buildUnregistered());

  /** SP-Cache's latency model: bandwidth of one cache server. */
  public static final PropertyKey PARTITION_SERVER_BANDWIDTH =
      register(PropertyKey.Builder.dataSizeBuilder("alluxio.eccache.partition.server.bandwidth")
          .setDefaultValue("125MB")
          .setDescription("Bytes per second one worker serves, for SP-Cache's choice of partition "
              + "counts (1 Gbps by default, as in its paper).")
          .setIsBuiltIn(false).buildUnregistered());

  private EcCacheKeys() {}

  /**
   * Registers {@code key}. Alluxio reads {@code alluxio-site.properties} and {@code -D} options when
   * its configuration first loads, which can be before this class: it then holds any
   * {@code alluxio.eccache.*} value under an untyped custom key of the same name. That key is
   * replaced by this typed one, and the value already read is parsed again as the key's type, so
   * the setting is neither lost nor fatal ("Cannot register existing key").
   */
  private static PropertyKey register(PropertyKey key) {
    if (PropertyKey.isValid(key.getName())) {
      PropertyKey early = PropertyKey.fromString(key.getName());
      PropertyKey.unregister(early);
      PropertyKey.register(key);
      if (Configuration.isSet(early)) {
        Object value = Configuration.get(early);
        Source source = Configuration.getSource(early);
        Configuration.unset(early);
        Configuration.set(key, value instanceof String ? key.parseValue((String) value) : value,
            source);
      }
    } else {
      PropertyKey.register(key);
    }
    return key;
  }

  /**
   * {@code key}'s int value in {@code conf}, also when {@code conf} was copied from Alluxio's
   * configuration before this class registered the key (the value is then still text).
   */
  public static int getInt(AlluxioConfiguration conf, PropertyKey key) {
    Object value = conf.get(key);
    return value instanceof Number ? ((Number) value).intValue()
        : Integer.parseInt(String.valueOf(value).trim());
  }
}
