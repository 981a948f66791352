package io.eccache.client;

import alluxio.exception.status.DeadlineExceededException;
import alluxio.exception.status.UnavailableException;
import io.eccache.common.ClientKeys;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import io.eccache.isal.ReedSolomon;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * EC-Cache's read (paper section 4.3): read k + Δ of the live splits, chosen uniformly at random, in
 * parallel, straight from the workers that hold them; finish as soon as any k have arrived intact;
 * decode only when a data split is among the missing. A failed, corrupt (CRC32C per cell) or slow
 * split costs only its share: another one takes its place.
 *
 * <p>The reads not needed are not cancelled at once: each stops at its next slice boundary
 * ({@link AlluxioSplitSource}, 1 MiB), counted in {@code EcCacheSplitReadsStoppedEarly}; one that
 * is shorter than a slice, or already in its last slice, is read whole and thrown away, counted in
 * {@code EcCacheSplitReadsDiscarded}. So the extra bytes are about Δ/k of the object, as in the
 * paper.
 *
 * <p>One call reads a window of whole stripes (see {@link ObjectReadStream}), each window bound late
 * again. The splits' bytes come from a {@link SplitSource} (Alluxio's workers in production, fakes
 * in tests); the CRC check of every cell is the reader's. Every pooled buffer a read takes goes
 * back to the pool: the window's through {@link StripeWindow#close()}, the others here or, for a
 * read that finishes after the window no longer wants it, in that read's own thread.
 */
final class LateBindingReader {
  private final SplitSource source;
  private final ExecutorService io;
  private final DirectBufferPool pool;
  private final ReadStatistics statistics;
  /** The longest wait for the next split to arrive before the ones in flight count as failed. */
  private final long timeoutMs;

  LateBindingReader(ClientContext context) {
    this(new AlluxioSplitSource(context.fs(), context.statistics()), context.io(), context.pool(),
        context.statistics(), context.ioTimeoutMs());
  }

  LateBindingReader(SplitSource source, ExecutorService io, DirectBufferPool pool,
      ReadStatistics statistics, long timeoutMs) {
    this.source = source;
    this.io = io;
    this.pool = pool;
    this.statistics = statistics;
    this.timeoutMs = timeoutMs;
  }

  /** One split's range that arrived intact. */
  private static final class Arrived {
    final int index;
    final ByteBuffer bytes;

    Arrived(int index, ByteBuffer bytes) {
      this.index = index;
      this.bytes = bytes;
    }
  }

  /**
   * Reads stripes {@code [from, to)} of the object {@code lookup} describes.
   *
   * @throws UnavailableException when fewer than k splits could be read
   */
  StripeWindow read(LookupResponse lookup, int delta, int from, int to) throws IOException {
    Layout layout = lookup.getLayout();
    StripeGeometry geometry = StripeGeometry.of(layout);
    RedundancyScheme scheme = SchemeProtos.of(layout);
    int k = scheme.dataSplits();
    int n = scheme.splits();
    long start = geometry.splitOffset(from);
    int length = Math.toIntExact(geometry.splitOffset(to - 1) + geometry.cellLength(to - 1) - start);
    List<Split> candidates = new ArrayList<>();
    for (Split s : lookup.getSplitsList()) {
      if (s.getLive() && s.hasStatus()) {
        candidates.add(s);
      }
    }
    if (candidates.size() < k) {
      throw new UnavailableException("only " + candidates.size() + " of " + n + " splits of '"
          + layout.getKey() + "' are on live workers and k = " + k + " are needed");
    }
    Collections.shuffle(candidates, ThreadLocalRandom.current());
    Range range = new Range(layout, geometry, from, to, length);
    CompletionService<Arrived> arrivals = new ExecutorCompletionService<>(io);
    // The reads still counted on; a read given up on (silent past the timeout) is not, though its
    // bytes are used if they do arrive.
    Set<Future<Arrived>> waiting = Collections.newSetFromMap(new IdentityHashMap<>());
    int launched = 0;
    for (; launched < Math.min(k + delta, candidates.size()); launched++) {
      waiting.add(submit(arrivals, candidates.get(launched), range));
    }
    ByteBuffer[] units = new ByteBuffer[n];
    int arrived = 0;
    List<String> failures = new ArrayList<>();
    boolean complete = false;
    try {
      while (arrived < k) {
        if (waiting.isEmpty()) {
          throw new UnavailableException("could read only " + arrived + " of the k = " + k
              + " splits needed for '" + layout.getKey() + "': " + failures);
        }
        Future<Arrived> next = arrivals.poll(timeoutMs, TimeUnit.MILLISECONDS);
        if (next == null) {
          // Nothing arrived in time: the reads in flight count as failed (they stop at their next
          // slice or when Alluxio's own stream timeout ends them); untried splits take their place.
          int silent = waiting.size();
          failures.add(silent + " split read(s) gave no answer in " + timeoutMs + " ms");
          int replacements = Math.min(silent, candidates.size() - launched);
          if (replacements == 0) {
            throw new DeadlineExceededException("reading '" + layout.getKey() + "': " + silent
                + " split read(s) gave no answer in " + timeoutMs + " ms (" + ClientKeys.IO_TIMEOUT.getName()
                + ") and no other split is left to try; " + arrived + " of k = " + k
                + " arrived. Check the workers holding its splits, then GET it again");
          }
          waiting.clear(); // the silent ones are given up on
          for (int i = 0; i < replacements; i++) {
            waiting.add(submit(arrivals, candidates.get(launched++), range));
          }
          continue;
        }
        boolean counted = waiting.remove(next);
        try {
          Arrived a = next.get();
          range.claim(a.bytes);
          units[a.index] = a.bytes;
          arrived++;
          ClientMetrics.SPLITS_READ.inc();
        } catch (ExecutionException e) {
          failures.add(String.valueOf(e.getCause()));
          ClientMetrics.READS_FAILED.inc();
          // Late binding's second chance: a split not yet asked for replaces the failed one.
          if (counted && launched < candidates.size()) {
            waiting.add(submit(arrivals, candidates.get(launched++), range));
          }
        }
      }
      if (scheme.kind() == RedundancyScheme.Kind.REPLICATED && units[0] == null) {
        // Every copy is the whole object: whichever arrived is the data, nothing to decode.
        for (int i = 1; i < units.length; i++) {
          if (units[i] != null) {
            units[0] = units[i];
            units[i] = null;
            break;
          }
        }
      }
      decodeMissing(range, units);
      complete = true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading '" + layout.getKey() + "'", e);
    } finally {
      // The slower reads stop at their next slice and close their streams in their own threads;
      // those that arrived unclaimed give their buffers back here, later ones in their thread.
      for (ByteBuffer unclaimed : range.finish()) {
        statistics.addDiscarded();
        pool.release(unclaimed);
      }
      for (int i = complete ? k : 0; i < units.length; i++) {
        pool.release(units[i]);
      }
    }
    ByteBuffer[] data = new ByteBuffer[k];
    System.arraycopy(units, 0, data, 0, k);
    return new StripeWindow(geometry, from, to, data, pool);
  }

  /**
   * What every split read of one window shares, and the hand-over of their buffers: a read that
   * arrives while the window still wants splits is {@link #offer offered} and stays the window's
   * until claimed or {@link #finish() finished}; one that arrives later gives its buffer back itself.
   */
  private static final class Range {
    final Layout layout;
    final StripeGeometry geometry;
    final int from;
    final int to;
    final int length;
    private volatile boolean done;
    private final Set<ByteBuffer> unclaimed = Collections.newSetFromMap(new IdentityHashMap<>());

    Range(Layout layout, StripeGeometry geometry, int from, int to, int length) {
      this.layout = layout;
      this.geometry = geometry;
      this.from = from;
      this.to = to;
      this.length = length;
    }

    boolean done() {
      return done;
    }

    /** Hands an arrived split to the window; false when it no longer wants any. */
    synchronized boolean offer(ByteBuffer bytes) {
      if (done) {
        return false;
      }
      unclaimed.add(bytes);
      return true;
    }

    synchronized void claim(ByteBuffer bytes) {
      unclaimed.remove(bytes);
    }

    /** Wants no more splits; returns the buffers offered and not claimed. */
    synchronized List<ByteBuffer> finish() {
      done = true;
      List<ByteBuffer> left = new ArrayList<>(unclaimed);
      unclaimed.clear();
      return left;
    }
  }

  private Future<Arrived> submit(CompletionService<Arrived> arrivals, Split split, Range range) {
    return arrivals.submit(() -> new Arrived(split.getIndex(), readSplit(split, range)));
  }

  /**
   * Reads one split's range for the window, checking each cell's CRC32C; its buffer goes back to
   * the pool if the read fails or arrives after the window stopped wanting it.
   */
  private ByteBuffer readSplit(Split split, Range range) throws IOException {
    StripeGeometry g = range.geometry;
    ByteBuffer buffer = pool.acquire(range.length);
    boolean handed = false;
    long start = g.splitOffset(range.from);
    try (SplitSource.SplitStream in = source.open(split, start)) {
      int at = 0;
      for (int s = range.from; s < range.to; s++) {
        int cell = (int) g.cellLength(s);
        in.readFully(buffer, at, cell, range::done);
        int crc = SplitWriter.crc32c(buffer.duplicate().limit(at + cell).position(at));
        int expected = range.layout.getCrc32C(g.checksumIndex(split.getIndex(), s));
        if (crc != expected) {
          throw new IOException("split " + split.getPath() + " is corrupt in stripe " + s
              + " (CRC32C " + Integer.toHexString(crc) + ", expected "
              + Integer.toHexString(expected) + ")");
        }
        at += cell;
      }
      buffer.position(0).limit(range.length);
      handed = range.offer(buffer);
      if (!handed) {
        statistics.addDiscarded();
        throw new IOException("read whole but not needed: k splits arrived first");
      }
      return buffer;
    } finally {
      if (!handed) {
        pool.release(buffer);
      }
    }
  }

  /** Rebuilds the data splits not read, stripe by stripe, from the k that were. */
  private void decodeMissing(Range range, ByteBuffer[] units) {
    Layout layout = range.layout;
    RedundancyScheme scheme = SchemeProtos.of(layout);
    int k = scheme.dataSplits();
    List<Integer> missing = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      if (units[i] == null) {
        missing.add(i);
      }
    }
    if (missing.isEmpty()) {
      return;
    }
    long began = System.nanoTime();
    int[] erased = missing.stream().mapToInt(Integer::intValue).toArray();
    ByteBuffer[] outputs = new ByteBuffer[erased.length];
    for (int i = 0; i < erased.length; i++) {
      outputs[i] = pool.acquire(range.length);
    }
    StripeGeometry g = range.geometry;
    long start = g.splitOffset(range.from);
    for (int s = range.from; s < range.to; s++) {
      int at = (int) (g.splitOffset(s) - start);
      int end = at + (int) g.cellLength(s);
      ByteBuffer[] in = new ByteBuffer[units.length];
      for (int i = 0; i < units.length; i++) {
        in[i] = units[i] == null ? null : units[i].duplicate().limit(end).position(at);
      }
      ByteBuffer[] out = new ByteBuffer[erased.length];
      for (int i = 0; i < erased.length; i++) {
        out[i] = outputs[i].duplicate().limit(end).position(at);
      }
      ReedSolomon.coder(k, scheme.paritySplits()).decode(in, erased, out);
    }
    for (int i = 0; i < erased.length; i++) {
      units[erased[i]] = outputs[i];
    }
    statistics.addDecode(System.nanoTime() - began);
  }
}
