package io.eccache.lognode;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads chain links back from disk. Consecutive links in the stripe's file (its base and area records)
 * come in one read of the file's front, the reserved space's point; each link in the log is a read of
 * its own, PL's cost at repair. Every record read is checked (checksum, stripe, versions, range) against
 * the link that points to it, so a stale pointer fails loudly instead of yielding wrong parity.
 */
final class ChainReader {
  private final StripeFiles files;
  private final LogSegments segments;
  private final int unitSize;

  ChainReader(StripeFiles files, LogSegments segments, int unitSize) {
    this.files = files;
    this.segments = segments;
    this.unitSize = unitSize;
  }

  /** The parity a whole chain (a base first) adds up to. */
  byte[] parity(long stripe, List<Part> chain, DiskStats.Purpose purpose) throws IOException {
    if (chain.isEmpty() || !chain.get(0).isBase()) {
      throw new IllegalStateException("stripe " + stripe + ": a chain starts with a base: " + chain);
    }
    byte[] unit = new byte[unitSize];
    Xor.apply(unit, resolve(stripe, chain, files.path(stripe), Map.of(), purpose));
    return unit;
  }

  /**
   * The links with their bytes: in-memory ones as they are, the others read back.
   *
   * @param file the file FILE links are in (the stripe's file, or its tmp file during a flush)
   * @param loaded whole log segments already in memory (a merge read them): LOG links in them cost no I/O
   */
  List<Part> resolve(long stripe, List<Part> parts, Path file, Map<Long, byte[]> loaded,
      DiskStats.Purpose purpose) throws IOException {
    List<Part> resolved = new ArrayList<>(parts.size());
    int i = 0;
    while (i < parts.size()) {
      Part part = parts.get(i);
      if (part.inMemory()) {
        resolved.add(part);
        i++;
      } else if (part.disk.store == DiskRef.Store.LOG) {
        resolved.add(fromLog(stripe, part, loaded, purpose));
        i++;
      } else {
        int end = i;
        long bytes = 0;
        while (end < parts.size() && !parts.get(end).inMemory() && parts.get(end).disk.store == DiskRef.Store.FILE) {
          bytes = Math.max(bytes, parts.get(end).disk.end());
          end++;
        }
        byte[] front = files.read(file, (int) bytes, purpose);
        for (; i < end; i++) {
          resolved.add(fromFile(stripe, parts.get(i), front, file));
        }
      }
    }
    return resolved;
  }

  private Part fromLog(long stripe, Part part, Map<Long, byte[]> loaded, DiskStats.Purpose purpose)
      throws IOException {
    DiskRef at = part.disk;
    byte[] segment = loaded.get(at.segment);
    Records.Record record;
    if (segment != null) {
      record = Records.decode(segment, (int) at.position, (int) Math.min(segment.length, at.end()));
    } else {
      byte[] bytes = segments.read(at.segment, at.position, at.length, purpose);
      record = Records.decode(bytes, 0, bytes.length);
    }
    if (record == null || !record.describes(stripe, part)) {
      throw new IOException("log segment " + at.segment + " at " + at.position + " does not hold " + part
          + " of stripe " + stripe + " (found " + record + ")");
    }
    return part.withBytes(record.payload);
  }

  private Part fromFile(long stripe, Part part, byte[] front, Path file) throws IOException {
    if (part.isBase()) {
      byte[] base = files.parseBase(front, stripe, part.fromVersion);
      if (base == null) {
        throw new IOException(file + " does not hold the base at version " + part.fromVersion + " of stripe "
            + stripe);
      }
      return part.withBytes(base);
    }
    Records.Record record = Records.decode(front, (int) part.disk.position, (int) part.disk.end());
    if (record == null || !record.describes(stripe, part)) {
      throw new IOException(file + " at " + part.disk.position + " does not hold " + part + " (found " + record
          + ")");
    }
    return part.withBytes(record.payload);
  }
}
