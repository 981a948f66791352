package io.eccache.lognode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.Lock;

/**
 * PLM's merge: seals the log, reads every sealed segment back with one sequential read each, merges each
 * stripe's links from them into one (on top of its reserved space: a new base if they start with one,
 * else one delta record, or a compaction if the area is full), writes that with one I/O per stripe,
 * swaps the links in and deletes the sealed segments. Stripes' chains decide what is live: records of
 * dropped or re-based stripes are simply not carried over. Called by the node's one disk writer.
 */
final class PlmMerger {
  private final int unitSize;
  private final StripeFiles files;
  private final LogSegments segments;
  private final ChainReader reader;
  private final Lock layoutWrite;

  PlmMerger(int unitSize, StripeFiles files, LogSegments segments, ChainReader reader, Lock layoutWrite) {
    this.unitSize = unitSize;
    this.files = files;
    this.segments = segments;
    this.reader = reader;
    this.layoutWrite = layoutWrite;
  }

  /**
   * Merges the whole log as it is now; returns the buffer charge released (always 0: merges move only
   * links already on disk, but the caller treats every swap alike).
   */
  long merge(Collection<StripeState> stripes) throws IOException {
    List<Long> sealed = segments.seal();
    if (sealed.isEmpty()) {
      return 0;
    }
    Map<Long, byte[]> loaded = new HashMap<>();
    for (long seq : sealed) {
      loaded.put(seq, segments.readAll(seq, DiskStats.Purpose.MERGE));
    }
    Set<Long> sealedSet = new HashSet<>(sealed);
    long released = 0;
    for (StripeState state : stripes) {
      List<Part> prefix = state.mergeable(sealedSet);
      if (prefix == null) {
        continue;
      }
      int firstLogged = 0;
      while (prefix.get(firstLogged).disk.store == DiskRef.Store.FILE) {
        firstLogged++;
      }
      List<Part> logged = reader.resolve(state.id, prefix.subList(firstLogged, prefix.size()),
          files.path(state.id), loaded, DiskStats.Purpose.MERGE);
      List<Part> fileParts = logged.get(0).isBase() ? List.of() : prefix.subList(0, firstLogged);
      ReservedWriter writer = new ReservedWriter(files, reader, state.id, unitSize, fileParts,
          DiskStats.Purpose.MERGE);
      writer.add(logged);
      released += writer.swapIn(state, prefix, layoutWrite);
    }
    layoutWrite.lock();
    try {
      segments.delete(new ArrayList<>(sealed));
    } finally {
      layoutWrite.unlock();
    }
    return released;
  }
}
