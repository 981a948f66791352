package io.eccache.benchmarks;

import io.eccache.common.RedundancyScheme;
import io.eccache.common.RedundancyScheme.Kind;
import java.util.Locale;

/**
 * The caching schemes the benchmarks compare, in the cluster benchmark (one Alluxio namespace each,
 * named by {@link #label()}) and in the simulator alike. Each is one {@link RedundancyScheme.Kind}
 * the coordinator tunes under the same memory budget, except the single-copy baseline.
 */
public enum ComparedScheme {
  /**
   * EC-Cache: k data plus r_i parity splits of S/k bytes on distinct servers, r_i from the
   * {@code ParityAllocator}; a read fetches k + Delta live splits and completes with the k-th.
   */
  EC("ec", "EC-Cache", Kind.ERASURE_CODED, true),
  /**
   * Selective replication: c_i whole copies on distinct servers, c_i from the
   * {@code ReplicaAllocator} under the same budget as EC; a read fetches one live copy.
   */
  SR("sr", "selective replication", Kind.REPLICATED, true),
  /**
   * SP-Cache: k_i partitions of S/k_i bytes on distinct servers, k_i from the
   * {@code PartitionAllocator}, no redundancy; a read fetches every partition.
   */
  SP("sp", "SP-Cache", Kind.PARTITIONED, true),
  /** One whole copy per object on one random server, no extra memory: the baseline. */
  SINGLE("single", "single copy", Kind.REPLICATED, false);

  private final String label;
  private final String displayName;
  private final Kind kind;
  private final boolean tuned;

  ComparedScheme(String label, String displayName, Kind kind, boolean tuned) {
    this.label = label;
    this.displayName = displayName;
    this.kind = kind;
    this.tuned = tuned;
  }

  /** Its short name: the cluster benchmark's namespace and CSV column ("ec", "sr", ...). */
  public String label() {
    return label;
  }

  /** For people: "EC-Cache", "selective replication", ... */
  public String displayName() {
    return displayName;
  }

  /** How the coordinator stores its objects. */
  public Kind kind() {
    return kind;
  }

  /** Whether the coordinator tunes its redundancy with popularity (all but the baseline). */
  public boolean tuned() {
    return tuned;
  }

  /**
   * The scheme labelled {@code text} (ec, sr, sp or single, any case).
   *
   * @throws IllegalArgumentException for any other text, saying what is accepted
   */
  public static ComparedScheme ofLabel(String text) {
    String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    for (ComparedScheme s : values()) {
      if (s.label.equals(t)) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown scheme '" + text + "': use ec, sr, sp or single");
  }
}
