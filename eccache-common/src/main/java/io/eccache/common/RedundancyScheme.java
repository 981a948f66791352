package io.eccache.common;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How one object is stored in the cache: erasure coded ({@code rs-K-R}: k data splits and r parity
 * splits, any k of which rebuild it), replicated ({@code replica-N}: N whole copies) or partitioned
 * ({@code partition-K}: SP-Cache's k partitions, no redundancy, every one read). Immutable; parses
 * and formats itself, so this is the only place that knows what a scheme's numbers mean.
 *
 * <p>Every scheme has one number the coordinator tunes with popularity, its {@link #redundancy()}:
 * parities for erasure coding, copies for replication, partitions for SP-Cache. One
 * {@link #unitBytes(long) unit} of it costs a parity split, a whole copy, or nothing (partitions
 * spread load without extra memory).
 *
 * <p>Pure Java on purpose: the policy code and the simulator use it without Alluxio.
 */
public final class RedundancyScheme {
  /** Most splits one object may have: ISA-L's GF(2^8) codes allow 255 rows. */
  public static final int MAX_SPLITS = 255;

  /** The paper's code: RS(10, 1), 10% overhead, extra parities for popular objects. */
  public static final RedundancyScheme PAPER_DEFAULT = erasureCoded(10, 1);

  private static final Pattern RS = Pattern.compile("(?:rs-(\\d{1,9})-(\\d{1,9})|(\\d{1,9})\\+(\\d{1,9}))");
  private static final Pattern REPLICA = Pattern.compile("replica-(\\d{1,9})");
  private static final Pattern PARTITION = Pattern.compile("partition-(\\d{1,9})");

  /** The three ways to store an object. */
  public enum Kind {
    /** k data + r parity splits (EC-Cache); a read needs any k. */
    ERASURE_CODED("ec"),
    /** Whole copies, each on its own worker (selective replication); a read needs one. */
    REPLICATED("replica"),
    /** SP-Cache's selective partition: k partitions, no redundancy; a read needs all. */
    PARTITIONED("partition");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    /** The short name used in configuration and reports: ec, replica or partition. */
    public String label() {
      return label;
    }

    /**
     * The kind named {@code text}: {@code ec} (or {@code rs}), {@code replica} or
     * {@code partition}, any case.
     *
     * @throws IllegalArgumentException for any other text, saying what is accepted
     */
    public static Kind parse(String text) {
      String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
      for (Kind kind : values()) {
        if (kind.label.equals(t)) {
          return kind;
        }
      }
      if (t.equals("rs")) {
        return ERASURE_CODED;
      }
      throw new IllegalArgumentException("unknown scheme kind '" + text
          + "': use ec (or rs), replica or partition");
    }

    @Override
    public String toString() {
      return label;
    }
  }

  private final Kind kind;
  private final int dataSplits;
  private final int paritySplits;
  private final int copies;

  private RedundancyScheme(Kind kind, int dataSplits, int paritySplits, int copies) {
    this.kind = kind;
    this.dataSplits = dataSplits;
    this.paritySplits = paritySplits;
    this.copies = copies;
  }

  /**
   * k data splits and r parity splits.
   *
   * @throws IllegalArgumentException unless 1 <= k, 0 <= r and k + r <= 255
   */
  public static RedundancyScheme erasureCoded(int k, int r) {
    // k and r bounded one by one first: their int sum can overflow past the check.
    if (k < 1 || r < 0 || k > MAX_SPLITS || r > MAX_SPLITS || k + r > MAX_SPLITS) {
      throw new IllegalArgumentException("invalid code k=" + k + ", r=" + r
          + ": need k >= 1, r >= 0 and k + r <= " + MAX_SPLITS + " (and k + r live workers)");
    }
    return new RedundancyScheme(Kind.ERASURE_CODED, k, r, 1);
  }

  /**
   * {@code copies} whole copies, each on its own worker.
   *
   * @throws IllegalArgumentException unless 1 <= copies <= 255
   */
  public static RedundancyScheme replicated(int copies) {
    if (copies < 1 || copies > MAX_SPLITS) {
      throw new IllegalArgumentException("copies must be in 1.." + MAX_SPLITS + ", not " + copies);
    }
    return new RedundancyScheme(Kind.REPLICATED, 1, 0, copies);
  }

  /**
   * SP-Cache: {@code k} partitions on distinct workers, no redundancy.
   *
   * @throws IllegalArgumentException unless 1 <= k <= 255
   */
  public static RedundancyScheme partitioned(int k) {
    if (k < 1 || k > MAX_SPLITS) {
      throw new IllegalArgumentException("partitions must be in 1.." + MAX_SPLITS + ", not " + k);
    }
    return new RedundancyScheme(Kind.PARTITIONED, k, 0, 1);
  }

  /**
   * The scheme {@code text} names, as {@link #toString()} writes it: {@code rs-K-R} (also
   * {@code K+R}), {@code replica-N} or {@code partition-K}, any case.
   *
   * @throws IllegalArgumentException for any other text or numbers out of range, quoting it
   */
  public static RedundancyScheme parse(String text) {
    String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    try {
      Matcher m = RS.matcher(t);
      if (m.matches()) {
        boolean dashed = m.group(1) != null;
        return erasureCoded(Integer.parseInt(m.group(dashed ? 1 : 3)),
            Integer.parseInt(m.group(dashed ? 2 : 4)));
      }
      m = REPLICA.matcher(t);
      if (m.matches()) {
        return replicated(Integer.parseInt(m.group(1)));
      }
      m = PARTITION.matcher(t);
      if (m.matches()) {
        return partitioned(Integer.parseInt(m.group(1)));
      }
    } catch (IllegalArgumentException outOfRange) {
      throw new IllegalArgumentException("scheme '" + text + "': " + outOfRange.getMessage(),
          outOfRange);
    }
    throw new IllegalArgumentException("unknown scheme '" + text + "': use rs-K-R (or K+R, e.g."
        + " rs-10-2), replica-N or partition-K");
  }

  /** Which of the three ways this is. */
  public Kind kind() {
    return kind;
  }

  /**
   * k: the parts each stripe of the object is cut into. The erasure code's data splits, the
   * partitions, or 1 for a whole copy.
   */
  public int dataSplits() {
    return dataSplits;
  }

  /** r: parity splits of an erasure code; 0 for the other kinds. */
  public int paritySplits() {
    return paritySplits;
  }

  /** Whole copies of a replicated object; 1 for the other kinds. */
  public int copies() {
    return copies;
  }

  /** Split files the object has: k + r, the copies, or the partitions. */
  public int splits() {
    switch (kind) {
      case ERASURE_CODED:
        return dataSplits + paritySplits;
      case REPLICATED:
        return copies;
      default:
        return dataSplits;
    }
  }

  /** Splits a read needs: any k of an erasure code, one copy, or every partition. */
  public int splitsToRead() {
    return kind == Kind.REPLICATED ? 1 : dataSplits;
  }

  /** Splits that may be lost with the object still readable from the rest. */
  public int toleratedLosses() {
    return splits() - splitsToRead();
  }

  /** Whether split {@code index} is coded (a parity), not a plain part of the object. */
  public boolean isParity(int index) {
    return kind == Kind.ERASURE_CODED && index >= dataSplits && index < splits();
  }

  /**
   * The number the coordinator tunes with popularity: parities (erasure coding), copies
   * (replication) or partitions (SP-Cache).
   */
  public int redundancy() {
    switch (kind) {
      case ERASURE_CODED:
        return paritySplits;
      case REPLICATED:
        return copies;
      default:
        return dataSplits;
    }
  }

  /**
   * This scheme with its tuned number set to {@code units} (see {@link #redundancy()}).
   *
   * @throws IllegalArgumentException if that is out of range
   */
  public RedundancyScheme withRedundancy(int units) {
    switch (kind) {
      case ERASURE_CODED:
        return erasureCoded(dataSplits, units);
      case REPLICATED:
        return replicated(units);
      default:
        return partitioned(units);
    }
  }

  /**
   * Cache bytes one unit of {@link #redundancy()} costs for an object of {@code objectSize} bytes: a
   * parity split (size / k), a whole copy, or nothing for a partition.
   */
  public long unitBytes(long objectSize) {
    switch (kind) {
      case ERASURE_CODED:
        return (objectSize + dataSplits - 1) / dataSplits;
      case REPLICATED:
        return objectSize;
      default:
        return 0;
    }
  }

  /** The file name of split {@code index}: {@code d00..}, {@code p00..} or copies {@code r00..}. */
  public String splitName(int index) {
    if (index < 0 || index >= MAX_SPLITS) {
      throw new IndexOutOfBoundsException("split " + index + " of " + this);
    }
    if (kind == Kind.REPLICATED) {
      return name('r', index);
    }
    return index < dataSplits ? name('d', index) : name('p', index - dataSplits);
  }

  private static String name(char prefix, int n) {
    String[] names = prefix == 'd' ? DATA_NAMES : prefix == 'p' ? PARITY_NAMES : COPY_NAMES;
    return names[n];
  }

  // Every split name made once: the coordinator names each split of every lookup it answers.
  private static final String[] DATA_NAMES = names('d');
  private static final String[] PARITY_NAMES = names('p');
  private static final String[] COPY_NAMES = names('r');

  private static String[] names(char prefix) {
    String[] names = new String[MAX_SPLITS];
    for (int n = 0; n < MAX_SPLITS; n++) {
      names[n] = n < 10 ? prefix + "0" + n : prefix + Integer.toString(n);
    }
    return names;
  }

  /** For people: "RS(10,2)", "3 copies" or "4 partitions". */
  public String describe() {
    switch (kind) {
      case ERASURE_CODED:
        return "RS(" + dataSplits + "," + paritySplits + ")";
      case REPLICATED:
        return copies == 1 ? "1 copy" : copies + " copies";
      default:
        return dataSplits == 1 ? "1 partition" : dataSplits + " partitions";
    }
  }

  /** The text form {@link #parse} reads: rs-K-R, replica-N or partition-K. */
  @Override
  public String toString() {
    switch (kind) {
      case ERASURE_CODED:
        return "rs-" + dataSplits + "-" + paritySplits;
      case REPLICATED:
        return "replica-" + copies;
      default:
        return "partition-" + dataSplits;
    }
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RedundancyScheme)) {
      return false;
    }
    RedundancyScheme s = (RedundancyScheme) o;
    return kind == s.kind && dataSplits == s.dataSplits && paritySplits == s.paritySplits
        && copies == s.copies;
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, dataSplits, paritySplits, copies);
  }
}
