package io.eccache.lognode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Lock;

/**
 * Writes one stripe's new links into its reserved space, for one flush (PLR, PLR-m) or one merge
 * (PLM). Each {@link #add} merges what it is given into one link and writes it with one I/O: a new base
 * goes to a fresh tmp file, a delta is appended to the area; a delta that no longer fits folds the
 * file's base, its area and itself into a new base (one read, one write: the compaction PLR needs when
 * a reserved space fills up). The caller then installs the tmp file, if any, and swaps the links in.
 * Single-threaded: used by the node's one disk writer.
 */
final class ReservedWriter {
  private final StripeFiles files;
  private final ChainReader reader;
  private final long stripe;
  private final int unitSize;
  private final DiskStats.Purpose purpose;
  /** The stripe's links on disk as they now are: a file base and its area records, or nothing yet. */
  private final List<Part> fileParts;
  private boolean newFile;

  ReservedWriter(StripeFiles files, ChainReader reader, long stripe, int unitSize, List<Part> fileParts,
      DiskStats.Purpose purpose) {
    this.files = files;
    this.reader = reader;
    this.stripe = stripe;
    this.unitSize = unitSize;
    this.purpose = purpose;
    this.fileParts = new ArrayList<>(fileParts);
    for (Part part : fileParts) {
      if (part.inMemory() || part.disk.store != DiskRef.Store.FILE) {
        throw new IllegalArgumentException("not a link in the stripe's file: " + part);
      }
    }
  }

  /** Merges {@code run} (consecutive links, in memory, following the file's) into one and writes it. */
  void add(List<Part> run) throws IOException {
    Part merged = Xor.merge(run, unitSize);
    if (merged.isBase()) {
      writeBase(merged);
      return;
    }
    if (fileParts.isEmpty()) {
      throw new IllegalStateException("stripe " + stripe + " has no base on disk for " + merged);
    }
    byte[] record = Records.encode(stripe, merged);
    int used = areaUsed();
    if ((long) used + record.length <= files.reservedBytes()) {
      fileParts.add(merged.movedTo(files.append(current(), used, record, purpose)));
      return;
    }
    List<Part> all = new ArrayList<>(reader.resolve(stripe, fileParts, current(), Map.of(), purpose));
    all.add(merged);
    writeBase(Xor.merge(all, unitSize));
  }

  private void writeBase(Part base) throws IOException {
    files.writeNew(files.tmpPath(stripe), stripe, base.toVersion, base.bytes, purpose);
    fileParts.clear();
    fileParts.add(files.basePart(base.toVersion));
    newFile = true;
  }

  private int areaUsed() {
    Part last = fileParts.get(fileParts.size() - 1);
    return last.isBase() ? 0 : (int) (last.disk.end() - files.areaStart());
  }

  private Path current() {
    return newFile ? files.tmpPath(stripe) : files.path(stripe);
  }

  /**
   * Swaps the written links in for {@code expected} (the chain's first links when the writes began),
   * installing the tmp file first if there is one. Under {@code layoutWrite} when a file is renamed,
   * so that no reader reads the new file by the old links' positions; if the stripe was dropped or
   * re-based meanwhile, the tmp file is deleted and nothing changes.
   *
   * @return the buffer charge released
   */
  long swapIn(StripeState state, List<Part> expected, Lock layoutWrite) throws IOException {
    List<Part> replacement = new ArrayList<>(fileParts);
    if (!newFile) {
      return state.replacePrefix(expected, replacement);
    }
    layoutWrite.lock();
    try {
      if (!state.hasPrefix(expected)) {
        Files.deleteIfExists(files.tmpPath(stripe));
        return 0;
      }
      files.install(stripe);
      return state.replacePrefix(expected, replacement);
    } finally {
      layoutWrite.unlock();
    }
  }
}
