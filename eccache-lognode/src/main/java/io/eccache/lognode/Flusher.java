package io.eccache.lognode;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Lock;

/**
 * Writes the buffer's decided links to disk, by the node's scheme, for one flush: PL and PLM append
 * every link (and every drop) to the log with one sequential write; PLR writes each link to its
 * stripe's reserved space, PLR-m each stripe's links merged into one. Then each stripe's chain swaps the
 * in-memory links for the written ones, and their buffer charge is released. Called by the node's one
 * disk writer, with no stripe lock held during the I/O.
 */
final class Flusher {
  private final LogScheme scheme;
  private final int unitSize;
  private final StripeFiles files;
  private final LogSegments segments;
  private final ChainReader reader;
  private final Lock layoutWrite;

  Flusher(LogScheme scheme, int unitSize, StripeFiles files, LogSegments segments, ChainReader reader,
      Lock layoutWrite) {
    this.scheme = scheme;
    this.unitSize = unitSize;
    this.files = files;
    this.segments = segments;
    this.reader = reader;
    this.layoutWrite = layoutWrite;
  }

  /** One stripe's chain at the moment the flush took it; its in-memory links are the tail. */
  static final class Batch {
    final StripeState state;
    final List<Part> chain;

    Batch(StripeState state, List<Part> chain) {
      this.state = state;
      this.chain = chain;
    }

    int firstInMemory() {
      int i = chain.size();
      while (i > 0 && chain.get(i - 1).inMemory()) {
        i--;
      }
      return i;
    }
  }

  /**
   * Writes {@code drops} (stripes dropped since the last flush, oldest first) and then {@code batches}.
   *
   * @return the buffer charge released
   */
  long flush(List<Long> drops, List<Batch> batches) throws IOException {
    if (scheme.hasReservedSpace() && !drops.isEmpty()) {
      layoutWrite.lock();
      try {
        for (long stripe : drops) {
          files.delete(stripe);
        }
      } finally {
        layoutWrite.unlock();
      }
    }
    return scheme.flushesToLog() ? toLog(drops, batches) : toReservedSpace(batches);
  }

  private long toLog(List<Long> drops, List<Batch> batches) throws IOException {
    long size = (long) drops.size() * Records.HEADER;
    for (Batch batch : batches) {
      for (int i = batch.firstInMemory(); i < batch.chain.size(); i++) {
        size += Records.size(batch.chain.get(i));
      }
    }
    if (size == 0) {
      return 0;
    }
    if (size > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException("one flush of " + size + " bytes: keep bufferBytes under 2 GiB");
    }
    // Drops first: a stripe dropped and put again before this flush has only post-drop links here.
    ByteBuffer out = ByteBuffer.allocate((int) size);
    for (long stripe : drops) {
      Records.putDrop(out, stripe);
    }
    List<int[]> positions = new ArrayList<>();
    for (Batch batch : batches) {
      int[] at = new int[batch.chain.size()];
      for (int i = batch.firstInMemory(); i < batch.chain.size(); i++) {
        at[i] = out.position();
        Records.put(out, batch.state.id, batch.chain.get(i));
      }
      positions.add(at);
    }
    long[] where = segments.append(out.array(), DiskStats.Purpose.FLUSH);
    long released = 0;
    for (int b = 0; b < batches.size(); b++) {
      Batch batch = batches.get(b);
      List<Part> replacement = new ArrayList<>(batch.chain);
      for (int i = batch.firstInMemory(); i < replacement.size(); i++) {
        Part part = replacement.get(i);
        replacement.set(i, part.movedTo(DiskRef.log(where[0], where[1] + positions.get(b)[i], Records.size(part))));
      }
      released += batch.state.replacePrefix(batch.chain, replacement);
    }
    return released;
  }

  private long toReservedSpace(List<Batch> batches) throws IOException {
    long released = 0;
    for (Batch batch : batches) {
      int first = batch.firstInMemory();
      ReservedWriter writer = new ReservedWriter(files, reader, batch.state.id, unitSize,
          batch.chain.subList(0, first), DiskStats.Purpose.FLUSH);
      List<Part> buffered = batch.chain.subList(first, batch.chain.size());
      if (scheme.mergesPerStripe()) {
        writer.add(buffered);
      } else {
        for (Part part : buffered) {
          writer.add(List.of(part));
        }
      }
      released += writer.swapIn(batch.state, batch.chain, layoutWrite);
    }
    return released;
  }
}
