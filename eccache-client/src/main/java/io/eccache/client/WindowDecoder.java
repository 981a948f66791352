package io.eccache.client;

import io.eccache.common.RedundancyScheme;
import io.eccache.common.StripeGeometry;
import io.eccache.isal.ErasureCoder;
import io.eccache.isal.ReedSolomon;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Puts what a {@link LateBindingReader} window's reads staged into the caller's array, once the
 * window finished: a replicated object's staged copy, or the data splits not read in place,
 * rebuilt stripe by stripe from the k that arrived. Takes and returns pooled buffers.
 */
final class WindowDecoder {
  private final DirectBufferPool pool;
  private final ReadStatistics statistics;

  WindowDecoder(DirectBufferPool pool, ReadStatistics statistics) {
    this.pool = pool;
    this.statistics = statistics;
  }

  static ByteBuffer firstNonNull(ByteBuffer[] buffers) {
    for (ByteBuffer b : buffers) {
      if (b != null) {
        return b;
      }
    }
    throw new IllegalStateException("no split arrived");
  }

  void releaseAll(ByteBuffer[] buffers) {
    for (int i = 0; i < buffers.length; i++) {
      pool.release(buffers[i]);
      buffers[i] = null;
    }
  }

  /** A replicated object's copy that was staged: its object bytes into the array. */
  static void placeStaged(ReadWindow window, ByteBuffer copy, int position) {
    copy.duplicate().position(0)
        .get(window.target, window.offset, (int) window.objectBytes);
  }

  /**
   * Rebuilds the data splits not in place, stripe by stripe, from the k that arrived. The coder
   * takes heap buffers: a data cell wholly inside the object is read where it lies in the array, and
   * a rebuilt one is written straight into its place. Only cells the object ends in or after (the
   * last stripe's zero padding, as the writer coded it) go through pooled cells: inputs copied and
   * zero-padded, outputs copied into the array for their object bytes. Runs after the window
   * finished, so no split read writes into the array meanwhile.
   */
  void decodeMissing(ReadWindow window, RedundancyScheme scheme, boolean[] inPlace,
      ByteBuffer[] staged) {
    int k = scheme.dataSplits();
    int n = scheme.splits();
    List<Integer> missing = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      if (!inPlace[i]) {
        missing.add(i);
      }
    }
    if (missing.isEmpty()) {
      return;
    }
    long began = System.nanoTime();
    int[] erased = missing.stream().mapToInt(Integer::intValue).toArray();
    StripeGeometry g = window.geometry;
    // Pooled cells for the cells that are not wholly object bytes, taken when first needed: data
    // inputs by position, outputs by their index in erased.
    ByteBuffer[] padded = new ByteBuffer[k];
    ByteBuffer[] outputs = new ByteBuffer[erased.length];
    try {
      ErasureCoder coder = ReedSolomon.coder(k, scheme.paritySplits());
      long start = g.splitOffset(window.from);
      for (int s = window.from; s < window.to; s++) {
        int cell = (int) g.cellLength(s);
        int at = (int) (g.splitOffset(s) - start);
        ByteBuffer[] in = new ByteBuffer[n];
        for (int i = 0; i < n; i++) {
          if (i < k && inPlace[i]) {
            int object = window.objectBytesAt(s, i, 0, cell);
            if (object == cell) {
              in[i] = ByteBuffer.wrap(window.target, window.arrayIndex(s, i, 0), cell);
              continue;
            }
            in[i] = pooledCell(padded, i, cell);
            if (object > 0) {
              in[i].duplicate().put(window.target, window.arrayIndex(s, i, 0), object);
            }
            for (int p = object; p < cell; p++) {
              in[i].put(p, (byte) 0);
            }
          } else if (staged[i] != null) {
            in[i] = staged[i].duplicate().limit(at + cell).position(at);
          }
        }
        ByteBuffer[] out = new ByteBuffer[erased.length];
        for (int i = 0; i < erased.length; i++) {
          out[i] = window.objectBytesAt(s, erased[i], 0, cell) == cell
              ? ByteBuffer.wrap(window.target, window.arrayIndex(s, erased[i], 0), cell)
              : pooledCell(outputs, i, cell);
        }
        coder.decode(in, erased, out);
        for (int i = 0; i < erased.length; i++) {
          int object = window.objectBytesAt(s, erased[i], 0, cell);
          if (object > 0 && object < cell) {
            out[i].duplicate().get(window.target, window.arrayIndex(s, erased[i], 0), object);
          }
        }
      }
    } finally {
      releaseAll(padded);
      releaseAll(outputs);
    }
    statistics.addDecode(System.nanoTime() - began);
  }

  /** {@code held[i]} as a cell of {@code cell} bytes, taken from the pool if it has none yet. */
  private ByteBuffer pooledCell(ByteBuffer[] held, int i, int cell) {
    if (held[i] == null || held[i].capacity() < cell) {
      pool.release(held[i]);
      held[i] = null;
      held[i] = pool.acquire(cell);
    }
    return held[i].clear().limit(cell);
  }
}
