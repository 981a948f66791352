package io.eccache.lognode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Rebuilds every stripe's chain from the directory when a node opens: first the stripe files (each a
 * base and its area records, up to the first torn or out-of-sequence one), then the log segments in
 * order, whose records apply on top by version:
 * <ul>
 *   <li>a BASE at version v replaces the stripe's chain if v is at least the version held (it was put
 *       later than whatever is held; the one exception, a PLM merge interrupted before it deleted its
 *       segments, leaves a base no newer than the file's, which is then skipped);</li>
 *   <li>a DELTA from version v applies if v is exactly one past the version held, and is skipped
 *       otherwise (already merged into the file, or after a gap that a lost record left);</li>
 *   <li>a DROP forgets the stripe.</li>
 * </ul>
 * Single-threaded; runs before the node is shared.
 */
final class Recovery {
  private final int unitSize;
  private final int reservedBytes;
  private final StripeFiles files;
  private final LogSegments segments;
  private final Map<Long, List<Part>> chains = new TreeMap<>();
  private final List<String> damage = new ArrayList<>();
  private int segmentCount;
  private int fileCount;
  private long records;
  private long skipped;

  Recovery(int unitSize, int reservedBytes, StripeFiles files, LogSegments segments) {
    this.unitSize = unitSize;
    this.reservedBytes = reservedBytes;
    this.files = files;
    this.segments = segments;
  }

  /** Reads the stripe files (if {@code reserved}) and the log (if {@code logged}). */
  void run(boolean reserved, boolean logged) throws IOException {
    if (reserved) {
      for (long stripe : files.recoverList(damage)) {
        readFile(stripe);
      }
    }
    if (logged) {
      for (long seq : segments.recoverList()) {
        replay(seq);
      }
    }
  }

  /** Stripe id to its chain. */
  Map<Long, List<Part>> chains() {
    return chains;
  }

  RecoveryReport report() {
    Map<Long, Long> versions = new TreeMap<>();
    for (Map.Entry<Long, List<Part>> entry : chains.entrySet()) {
      List<Part> chain = entry.getValue();
      versions.put(entry.getKey(), chain.get(chain.size() - 1).toVersion);
    }
    return new RecoveryReport(versions, segmentCount, fileCount, records, skipped, damage);
  }

  private void readFile(long stripe) throws IOException {
    byte[] file = files.readAll(files.path(stripe), DiskStats.Purpose.RECOVERY);
    fileCount++;
    long version = StripeFiles.headerVersion(file);
    if (files.parseBase(file, stripe, version) == null) {
      damage.add("stripe file " + files.path(stripe) + ": header or base damaged, stripe not recovered from it");
      return;
    }
    List<Part> chain = new ArrayList<>();
    chain.add(files.basePart(version));
    int pos = files.areaStart();
    int limit = (int) Math.min(file.length, (long) files.areaStart() + reservedBytes);
    while (!Records.cleanEnd(file, pos, limit)) {
      Records.Record record = Records.decode(file, pos, limit);
      long held = chain.get(chain.size() - 1).toVersion;
      if (record == null || record.type != Records.DELTA || record.stripe != stripe
          || record.fromVersion != held + 1 || !fits(record)) {
        damage.add("stripe file " + files.path(stripe) + ": bad record at " + pos + " ("
            + (record == null ? "torn or damaged" : record) + "), the area's rest ignored");
        break;
      }
      chain.add(Part.onDisk(Part.Kind.DELTA, record.fromVersion, record.toVersion, record.offset,
          record.payload.length, DiskRef.file(pos, record.size())));
      pos += record.size();
    }
    chains.put(stripe, chain);
  }

  private void replay(long seq) throws IOException {
    byte[] log = segments.readAll(seq, DiskStats.Purpose.RECOVERY);
    segmentCount++;
    int pos = 0;
    while (pos < log.length) {
      Records.Record record = Records.decode(log, pos, log.length);
      if (record == null || (record.type != Records.DROP && !fits(record))) {
        damage.add("log segment " + segments.path(seq) + ": torn or damaged record at " + pos
            + ", the segment's rest ignored");
        return;
      }
      apply(record, DiskRef.log(seq, pos, record.size()));
      pos += record.size();
    }
  }

  private void apply(Records.Record record, DiskRef where) {
    List<Part> chain = chains.get(record.stripe);
    long held = chain == null ? -1 : chain.get(chain.size() - 1).toVersion;
    if (record.type == Records.DROP) {
      chains.remove(record.stripe);
      records++;
    } else if (record.type == Records.BASE) {
      if (chain != null && record.toVersion < held) {
        skipped++;
        return;
      }
      List<Part> fresh = new ArrayList<>();
      fresh.add(Part.onDisk(Part.Kind.BASE, record.fromVersion, record.toVersion, 0, unitSize, where));
      chains.put(record.stripe, fresh);
      records++;
    } else if (chain != null && record.fromVersion == held + 1) {
      chain.add(Part.onDisk(Part.Kind.DELTA, record.fromVersion, record.toVersion, record.offset,
          record.payload.length, where));
      records++;
    } else {
      skipped++;
    }
  }

  private boolean fits(Records.Record record) {
    if (record.type == Records.BASE) {
      return record.offset == 0 && record.payload.length == unitSize && record.fromVersion == record.toVersion
          && record.fromVersion >= 0;
    }
    return (long) record.offset + record.payload.length <= unitSize && record.fromVersion <= record.toVersion;
  }
}
