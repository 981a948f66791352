package io.eccache.benchmarks.logecmem;

/** The schemes LogECMem's evaluation compares, each a store on a testbed. */
enum KvScheme {
  /** LogECMem's HybridPL. */
  HYBRID("hybrid", "LogECMem (HybridPL)"),
  /** In-place parity updates in memory. */
  INPLACE("inplace", "IPMem (in-place)"),
  /** Full-stripe (log-structured) updates in memory. */
  FULLSTRIPE("fullstripe", "FSMem (full-stripe)"),
  /** r + 1 copies. */
  REPLICATION("replication", "(r+1)-way replication"),
  /** One copy. */
  VANILLA("vanilla", "vanilla memcached");

  final String id;
  final String label;

  KvScheme(String id, String label) {
    this.id = id;
    this.label = label;
  }

  /** A store of this scheme on {@code bed}. */
  KvStore on(Testbed bed) {
    switch (this) {
      case HYBRID:
        return new HybridKv(bed);
      case INPLACE:
        return new InPlaceKv(bed);
      case FULLSTRIPE:
        return new FullStripeKv(bed);
      case REPLICATION:
        return new ReplicatedKv(bed, bed.r + 1);
      default:
        return new ReplicatedKv(bed, 1);
    }
  }
}
