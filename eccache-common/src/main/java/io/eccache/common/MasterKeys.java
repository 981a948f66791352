package io.eccache.common;

import alluxio.conf.PropertyKey;
import alluxio.grpc.Scope;
import java.util.List;

/**
 * Keys read by the coordinator in the Alluxio master: {@code alluxio.master.eccache.*},
 * {@link Scope#MASTER}. Set them in the master's {@code alluxio-site.properties} (or as {@code -D}
 * options in {@code ALLUXIO_MASTER_JAVA_OPTS}); clients do not read them.
 */
public final class MasterKeys {
  /** Whether the coordinator runs in a master that has the eccache jars. */
  public static final PropertyKey COORDINATOR_ENABLED = master(
      PropertyKey.Builder.booleanBuilder("alluxio.master.eccache.coordinator.enabled")
          .setDefaultValue(true)
          .setDescription("Whether the coordinator runs in an Alluxio master that has the eccache"
              + " jars on its classpath."), "alluxio.eccache.coordinator.enabled");

  /** Data splits of the code the coordinator chooses. */
  public static final PropertyKey DEFAULT_K = master(
      PropertyKey.Builder.intBuilder("alluxio.master.eccache.default.k")
          .setDefaultValue(10)
          .setDescription("Data splits (k) of the erasure code the coordinator chooses for an"
              + " object PUT without a scheme (the paper's k)."), "alluxio.eccache.default.k");

  /** Parity splits of the code the coordinator chooses. */
  public static final PropertyKey DEFAULT_R = master(
      PropertyKey.Builder.intBuilder("alluxio.master.eccache.default.r")
          .setDefaultValue(1)
          .setDescription("Parity splits (r) of that code, which a tuned object keeps whatever its"
              + " popularity (the paper's baseline: 10% overhead at k = 10)."),
      "alluxio.eccache.default.r");

  /** Copies of a small object. */
  public static final PropertyKey SMALL_OBJECT_REPLICAS = master(
      PropertyKey.Builder.intBuilder("alluxio.master.eccache.small.object.replicas")
          .setDefaultValue(2)
          .setDescription("Whole copies a small object (below alluxio.eccache.small.object"
              + ".threshold) starts with and keeps at least, each on its own worker; popularity"
              + " may add more. A GET reads one chosen at random."),
      "alluxio.eccache.small.object.replicas");

  /** Where eccache keeps its objects in Alluxio's namespace. */
  public static final PropertyKey ROOT = master(
      PropertyKey.Builder.stringBuilder("alluxio.master.eccache.root")
          .setDefaultValue("/.eccache")
          .setDescription("Alluxio directory under which eccache keeps split files and layouts."),
      "alluxio.eccache.root");

  /** How long an allocation may stay uncommitted. */
  public static final PropertyKey ALLOCATION_TIMEOUT = master(
      PropertyKey.Builder.durationBuilder("alluxio.master.eccache.allocation.timeout")
          .setDefaultValue("10min")
          .setDescription("An allocated but uncommitted PUT is abandoned after this long: a sweep"
              + " on a timer (every quarter of the shorter of this and the retired grace, at"
              + " least 200 ms) removes its splits and any staged under-store copy, also after a"
              + " master restart."), "alluxio.eccache.allocation.timeout");

  /** How long a replaced or deleted version stays readable. */
  public static final PropertyKey RETIRED_GRACE = master(
      PropertyKey.Builder.durationBuilder("alluxio.master.eccache.retired.grace")
          .setDefaultValue("2min")
          .setDescription("A replaced or deleted version's splits stay readable this long"
              + " (renamed under <root>/retired/, block ids kept), so GETs and streams that"
              + " looked it up before finish it; then the sweep removes them. A stream slower"
              + " than this fails with a typed error instead of returning another version."
              + " Clients' alluxio.user.eccache.layout.cache.ttl must be shorter (a client checks"
              + " against the value its own configuration holds: set both when lowering it)."),
      "alluxio.eccache.retired.grace");

  /** Largest stripe cell. */
  public static final PropertyKey CELL_SIZE = master(
      PropertyKey.Builder.dataSizeBuilder("alluxio.master.eccache.cell.size")
          .setDefaultValue("4MB")
          .setDescription("Largest stripe cell. Objects up to k cells (40 MB at k = 10) are one"
              + " stripe: each split a plain 1/k of the object, as in the paper. Larger objects"
              + " are striped, so PUTs encode and GETs decode them window by window without"
              + " holding them in memory."), "alluxio.eccache.cell.size");

  /** The kind of scheme per namespace. */
  public static final PropertyKey NAMESPACE_SCHEMES = master(
      PropertyKey.Builder.stringBuilder("alluxio.master.eccache.namespace.schemes")
          .setDefaultValue("")
          .setDescription("Kind of scheme per namespace (a key's first path component), e.g."
              + " 'sr=replica,sp=partition': ec (EC-Cache), replica (selective replication) or"
              + " partition (SP-Cache). Namespaces not listed use ec. Applies to PUTs without a"
              + " scheme; a scheme a PUT names is kept as given and never re-tuned."),
      "alluxio.eccache.namespace.schemes");

  /** The S3 regions of regional (Agar) objects. */
  public static final PropertyKey REGIONS = master(
      PropertyKey.Builder.stringBuilder("alluxio.master.eccache.regions")
          .setDefaultValue("")
          .setDescription("The S3 regions regional objects are written to (docs/agar.md), as"
              + " name=/alluxio/path@latency,... in the order splits are dealt to them (split i to"
              + " region i mod regions), e.g. frankfurt=/eccache-regions/frankfurt@80ms,"
              + "dublin=/eccache-regions/dublin@200ms. Each path is an Alluxio mount of that"
              + " region's bucket; the latency is what reading one chunk from it is expected to"
              + " take (reads ask the nearest regions first)."), null);

  /** The namespaces whose objects are regional. */
  public static final PropertyKey REGIONAL_NAMESPACES = master(
      PropertyKey.Builder.stringBuilder("alluxio.master.eccache.regional.namespaces")
          .setDefaultValue("")
          .setDescription("Namespaces (a key's first path component), comma separated, whose"
              + " objects are regional: erasure coded with alluxio.master.eccache.regional.scheme"
              + " and written through to the regions, the cache holding only some of their splits."
              + " Needs alluxio.master.eccache.regions."), null);

  /** The packed namespaces (LogECMem). */
  public static final PropertyKey PACKED_NAMESPACES = master(
      PropertyKey.Builder.stringBuilder("alluxio.master.eccache.packed.namespaces")
          .setDefaultValue("")
          .setDescription("Packed namespaces (LogECMem, docs/lognode.md), comma separated, each"
              + " namespace=packed-K-R[:hybrid|inplace|fullstripe][:unit size], e.g."
              + " kv=packed-4-2:4KB: values up to the unit size (4 KiB by default) are kept as r + 1"
              + " replicas until k units fill, then packed into an RS(k, r) stripe: k data units"
              + " and parity P1 in the cache, parities 2..r on log nodes (workers with"
              + " alluxio.worker.eccache.lognode.enabled). Larger values are striped as usual."),
      null);

  /** How long an update of a packed value may hold its stripe. */
  public static final PropertyKey PACKED_UPDATE_LEASE = master(
      PropertyKey.Builder.durationBuilder("alluxio.master.eccache.packed.update.lease")
          .setDefaultValue("10s")
          .setDescription("An update of a packed value holds its stripe (one update per stripe at"
              + " a time) until it commits, or at most this long: a writer that stops mid-update"
              + " blocks the stripe's other values' updates no longer, and its update then fails"
              + " its commit (nothing changes). Longer than a few unit reads and writes."), null);

  /** The code of regional objects. */
  public static final PropertyKey REGIONAL_SCHEME = master(
      PropertyKey.Builder.stringBuilder("alluxio.master.eccache.regional.scheme")
          .setDefaultValue("rs-9-3")
          .setDescription("The erasure code of regional objects (Agar's RS(9,3): any 9 of 12"
              + " splits rebuild the object, two splits per region over six regions)."), null);

  /** Which of a regional object's splits the cache holds. */
  public static final PropertyKey REGIONAL_POLICY = master(
      PropertyKey.Builder.stringBuilder("alluxio.master.eccache.regional.policy")
          .setDefaultValue("agar")
          .setDescription("Which splits of regional objects the cache holds: agar (Agar's"
              + " knapsack over popularity x latency saved, reconfigured every period), lfu-C or"
              + " lru-C (the C splits a read waits longest for, of the most frequently or most"
              + " recently read objects; C = k caches whole objects) or none."), null);

  /** The cache's size for regional objects, in splits. */
  public static final PropertyKey REGIONAL_CACHE_SPLITS = master(
      PropertyKey.Builder.intBuilder("alluxio.master.eccache.regional.cache.splits")
          .setDefaultValue(0)
          .setDescription("How many splits of regional objects the cache holds at most (Agar"
              + " counts chunks: its objects are all one size; cache bytes / split size). 0"
              + " caches none."), null);

  /** How often the regional cache is reconfigured. */
  public static final PropertyKey REGIONAL_PERIOD = master(
      PropertyKey.Builder.durationBuilder("alluxio.master.eccache.regional.period")
          .setDefaultValue("30s")
          .setDescription("Agar's period: reads are counted per period and folded into each"
              + " object's popularity (0.8 x reads + 0.2 x the popularity before) when it ends;"
              + " then the policy chooses the splits to hold, surplus ones are freed and missing"
              + " ones planned for maintainers to load."), null);

  /** Memory beyond one copy of every object that redundancy may use. */
  public static final PropertyKey MEMORY_OVERHEAD = master(
      PropertyKey.Builder.doubleBuilder("alluxio.master.eccache.memory.overhead")
          .setDefaultValue(0.15)
          .setDescription("Redundancy budget per group of like tuned objects, as a fraction of"
              + " their bytes (the paper's 15%). EC-Cache gives every tuned object the default r"
              + " first (10% at k = 10), then extra parities to the most popular objects,"
              + " flattening the per-split load from the hottest down, until the budget is spent;"
              + " selective replication spends it on whole extra copies the same way."),
      "alluxio.eccache.memory.overhead");

  /** Length of a popularity period. */
  public static final PropertyKey POPULARITY_PERIOD = master(
      PropertyKey.Builder.durationBuilder("alluxio.master.eccache.popularity.period")
          .setDefaultValue("1min")
          .setDescription("Accesses (lookups, and GETs clients served from cached layouts and"
              + " reported) are counted per period and folded into the popularity EWMA when it"
              + " ends. Popularity is soft state: after a master restart it is rebuilt from new"
              + " accesses."), "alluxio.eccache.popularity.period");

  /** Weight of the latest period in the popularity EWMA. */
  public static final PropertyKey POPULARITY_WEIGHT = master(
      PropertyKey.Builder.doubleBuilder("alluxio.master.eccache.popularity.weight")
          .setDefaultValue(0.8)
          .setDescription("popularity = weight x accesses in the last period + (1 - weight) x"
              + " popularity before (Agar's 0.8)."), "alluxio.eccache.popularity.weight");

  /** How often the coordinator recomputes target redundancy. */
  public static final PropertyKey RETUNE_INTERVAL = master(
      PropertyKey.Builder.durationBuilder("alluxio.master.eccache.retune.interval")
          .setDefaultValue("30s")
          .setDescription("How often the coordinator recomputes every tuned object's target"
              + " scheme, drops surplus parities or copies and plans repairs and additions (also"
              + " at once when a worker is lost). 0 turns re-tuning and repair planning off."),
      "alluxio.eccache.retune.interval");

  /** How long a handed-out maintenance task may stay unfinished. */
  public static final PropertyKey MAINTENANCE_LEASE = master(
      PropertyKey.Builder.durationBuilder("alluxio.master.eccache.maintenance.lease")
          .setDefaultValue("5min")
          .setDescription("A repair or re-tuning task handed to a maintainer and not reported"
              + " within this is planned again."), "alluxio.eccache.maintenance.lease");

  /** SP-Cache's latency model: bandwidth of one cache server. */
  public static final PropertyKey PARTITION_SERVER_BANDWIDTH = master(
      PropertyKey.Builder.dataSizeBuilder("alluxio.master.eccache.partition.server.bandwidth")
          .setDefaultValue("125MB")
          .setDescription("SP-Cache's latency model: bytes per second one worker serves (1 Gbps,"
              + " as in its paper), used to choose partition counts."),
      "alluxio.eccache.partition.server.bandwidth");

  /** Every master key, in documentation order. */
  public static final List<PropertyKey> ALL = List.of(COORDINATOR_ENABLED, DEFAULT_K, DEFAULT_R,
      SMALL_OBJECT_REPLICAS, ROOT, ALLOCATION_TIMEOUT, RETIRED_GRACE, CELL_SIZE, NAMESPACE_SCHEMES,
      REGIONS, REGIONAL_NAMESPACES, PACKED_NAMESPACES, PACKED_UPDATE_LEASE, REGIONAL_SCHEME, REGIONAL_POLICY, REGIONAL_CACHE_SPLITS,
      REGIONAL_PERIOD, MEMORY_OVERHEAD, POPULARITY_PERIOD, POPULARITY_WEIGHT, RETUNE_INTERVAL, MAINTENANCE_LEASE,
      PARTITION_SERVER_BANDWIDTH);

  private MasterKeys() {}

  private static PropertyKey master(PropertyKey.Builder builder, String formerName) {
    return KeyRegistry.register(builder.setScope(Scope.MASTER).setIsBuiltIn(false)
        .buildUnregistered(), formerName);
  }
}
