package io.eccache.lognode;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a log node found in its directory when it opened: per stripe, the last version it holds. Only
 * what had been flushed is there; whatever was only in the memory buffer (bases, committed deltas not
 * yet flushed, undecided deltas) is gone - that is buffer logging's bargain, as in the paper. The
 * caller compares each version with the coordinator's: a stripe the node holds at an older version,
 * or does not hold at all, is stale and is rebuilt with {@link LogNode#putBase}; the node never serves
 * a version it does not fully hold, so a stale stripe answers {@link ParityRead.Status#BEHIND} until
 * then. A stripe the coordinator no longer knows (its drop was lost in the crash) is dropped again.
 */
public final class RecoveryReport {
  private final Map<Long, Long> versions;
  private final int segments;
  private final int stripeFiles;
  private final long records;
  private final long skippedRecords;
  private final List<String> damage;

  RecoveryReport(Map<Long, Long> versions, int segments, int stripeFiles, long records, long skippedRecords,
      List<String> damage) {
    this.versions = Collections.unmodifiableMap(new TreeMap<>(versions));
    this.segments = segments;
    this.stripeFiles = stripeFiles;
    this.records = records;
    this.skippedRecords = skippedRecords;
    this.damage = List.copyOf(damage);
  }

  /** Stripe id to the version the node holds after recovery, in stripe order. */
  public Map<Long, Long> versions() {
    return versions;
  }

  /** Log segments replayed. */
  public int segments() {
    return segments;
  }

  /** Stripe files (reserved spaces) read. */
  public int stripeFiles() {
    return stripeFiles;
  }

  /** Log records applied. */
  public long records() {
    return records;
  }

  /**
   * Log records read but not applied: already contained in a stripe file (a merge that was
   * interrupted before it deleted the log), older than a base that replaced them, of a dropped stripe,
   * or after a gap left by a lost record.
   */
  public long skippedRecords() {
    return skippedRecords;
  }

  /**
   * What was found damaged, one line each: a torn record at a segment's tail or in a reserved area
   * (everything after it there is ignored), a stripe file whose header or base fails its checksum.
   * Expected after a crash during a flush; nothing damaged is ever served.
   */
  public List<String> damage() {
    return damage;
  }

  @Override
  public String toString() {
    return "RecoveryReport{" + versions.size() + " stripes, " + segments + " segments, " + stripeFiles
        + " stripe files, " + records + " records applied, " + skippedRecords + " skipped, damage "
        + damage + "}";
  }
}
