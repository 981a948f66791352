package io.eccache.coordinator.form.striped;

import io.eccache.common.RedundancyScheme;
import io.eccache.common.RedundancyScheme.Kind;
import java.util.Optional;

/**
 * The coordinator's one decision of how an object is stored, so no client decides it: the scheme a
 * PUT insists on is kept as given and never tuned; otherwise the key's namespace says which kind,
 * and
 * <ul>
 *   <li>erasure coding takes the default code, except that an object known to be smaller than the
 *       small-object threshold gets whole copies instead (the paper, section 4.1: splitting a small
 *       object costs more than it spreads);</li>
 *   <li>selective replication starts at one copy;</li>
 *   <li>SP-Cache starts unpartitioned.</li>
 * </ul>
 * Every chosen scheme is tuned from then on: popularity adds parities or copies (and partitions)
 * under the memory budget, never going below the {@link #base} it started from. So small objects
 * take part in the popularity budget as replicas.
 */
public final class SchemeChooser {
  private final NamespaceSchemes namespaces;
  private final RedundancyScheme defaultCode;
  private final long smallObjectThreshold;
  private final int smallObjectCopies;

  /** What the coordinator decided for one PUT. */
  static final class Choice {
    final RedundancyScheme scheme;
    /** Whether the coordinator tunes it with popularity from now on. */
    final boolean tuned;

    Choice(RedundancyScheme scheme, boolean tuned) {
      this.scheme = scheme;
      this.tuned = tuned;
    }
  }

  /**
   * @param defaultCode the erasure code of a tuned object (the paper's RS(10, 1))
   * @param smallObjectThreshold objects known to be smaller are stored as whole copies
   * @param smallObjectCopies copies such an object starts with and keeps at least
   */
  public SchemeChooser(NamespaceSchemes namespaces, RedundancyScheme defaultCode,
      long smallObjectThreshold, int smallObjectCopies) {
    if (defaultCode.kind() != Kind.ERASURE_CODED) {
      throw new IllegalArgumentException("the default code must be erasure coded, not "
          + defaultCode);
    }
    this.namespaces = namespaces;
    this.defaultCode = defaultCode;
    this.smallObjectThreshold = smallObjectThreshold;
    this.smallObjectCopies = RedundancyScheme.replicated(smallObjectCopies).copies();
  }

  /**
   * How to store {@code key}.
   *
   * @param size the object's size, or -1 when not known before the commit (then it is not small)
   * @param asked the scheme the PUT insists on, if any
   * @param stillTuned whether {@code asked} is one the coordinator chose before and keeps tuning
   *     (a maintainer rewriting an object it repartitions)
   */
  Choice choose(String key, long size, Optional<RedundancyScheme> asked, boolean stillTuned) {
    if (asked.isPresent()) {
      return new Choice(asked.get(), stillTuned);
    }
    switch (namespaces.kindOf(key)) {
      case REPLICATED:
        return new Choice(RedundancyScheme.replicated(1), true);
      case PARTITIONED:
        return new Choice(RedundancyScheme.partitioned(1), true);
      default:
        boolean small = size >= 0 && size < smallObjectThreshold;
        return new Choice(small ? RedundancyScheme.replicated(smallObjectCopies) : defaultCode,
            true);
    }
  }

  /**
   * The redundancy a tuned object of {@code key} stored as {@code scheme} keeps whatever its
   * popularity: the default parities, the small-object copies, or one copy or partition.
   */
  public int base(String key, RedundancyScheme scheme) {
    switch (scheme.kind()) {
      case ERASURE_CODED:
        return defaultCode.paritySplits();
      case REPLICATED:
        return namespaces.kindOf(key) == Kind.REPLICATED ? 1 : smallObjectCopies;
      default:
        return 1;
    }
  }
}
