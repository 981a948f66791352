package io.eccache.client;

import alluxio.client.file.FileInStream;
import alluxio.client.file.FileSystem;
import alluxio.client.file.URIStatus;
import alluxio.exception.AlluxioException;
import alluxio.exception.status.DeadlineExceededException;
import alluxio.exception.status.UnavailableException;
import alluxio.grpc.GrpcUtils;
import alluxio.grpc.OpenFilePOptions;
import alluxio.grpc.ReadPType;
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
import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.CRC32C;

/**
 * EC-Cache's read (paper section 4.3): read k + Δ of the live splits, chosen uniformly at random, in
 * parallel, straight from the workers that hold them; finish as soon as any k have arrived intact and
 * cancel the rest; decode only when a data split is among the missing. A failed, corrupt (CRC32C per
 * cell) or slow split costs only its share: another one takes its place.
 *
 * <p>One call reads a window of whole stripes: all of them for a GET into memory, a bounded run for a
 * streaming GET, each window bound late again.
 */
final class LateBindingReader {
  /** Reads proceed in slices, checking for cancellation between them. */
  private static final int SLICE = 1 << 20;

  private final FileSystem fs;
  private final ExecutorService io;
  private final DirectBufferPool pool;
  private final ReadStatistics statistics;
  /** The longest wait for the next split to arrive before the ones in flight count as failed. */
  private final long timeoutMs;

  LateBindingReader(ClientContext context) {
    this(context.fs(), context.io(), context.pool(), context.statistics(), context.ioTimeoutMs());
  }

  LateBindingReader(FileSystem fs, ExecutorService io, DirectBufferPool pool,
      ReadStatistics statistics, long timeoutMs) {
    this.fs = fs;
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
    Range range = new Range(layout, geometry, from, to, length, new AtomicBoolean());
    CompletionService<Arrived> arrivals = new ExecutorCompletionService<>(io);
    List<Future<Arrived>> inFlight = new ArrayList<>();
    int launched = 0;
    for (; launched < Math.min(k + delta, candidates.size()); launched++) {
      inFlight.add(submit(arrivals, candidates.get(launched), range));
    }
    ByteBuffer[] units = new ByteBuffer[n];
    int arrived = 0;
    int pending = launched;
    List<String> failures = new ArrayList<>();
    boolean complete = false;
    try {
      while (arrived < k) {
        if (pending == 0) {
          throw new UnavailableException("could read only " + arrived + " of the k = " + k
              + " splits needed for '" + layout.getKey() + "': " + failures);
        }
        Future<Arrived> next = arrivals.poll(timeoutMs, TimeUnit.MILLISECONDS);
        inFlight.remove(next);
        if (next == null) {
          // Nothing arrived in time: the reads in flight count as failed (they stop at their next
          // slice or when Alluxio's own stream timeout ends them); untried splits take their place.
          failures.add(pending + " split read(s) gave no answer in " + timeoutMs + " ms");
          int replacements = Math.min(pending, candidates.size() - launched);
          if (replacements == 0) {
            throw new DeadlineExceededException("reading '" + layout.getKey() + "': " + pending
                + " split read(s) gave no answer in " + timeoutMs + " ms (alluxio.eccache.user"
                + ".io.timeout) and no other split is left to try; " + arrived + " of k = " + k
                + " arrived. Check the workers holding its splits, then GET it again");
          }
          for (int i = 0; i < replacements; i++) {
            inFlight.add(submit(arrivals, candidates.get(launched++), range));
          }
          pending = replacements; // the silent ones are given up on
          continue;
        }
        pending--;
        try {
          Arrived a = next.get();
          units[a.index] = a.bytes;
          arrived++;
          ClientMetrics.SPLITS_READ.inc();
        } catch (ExecutionException e) {
          failures.add(String.valueOf(e.getCause()));
          ClientMetrics.READS_FAILED.inc();
          // Late binding's second chance: a split not yet asked for replaces the failed one.
          if (launched < candidates.size()) {
            inFlight.add(submit(arrivals, candidates.get(launched++), range));
            pending++;
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
      // The slower reads stop at their next slice and close their streams in their own threads.
      range.done.set(true);
      stop(inFlight);
      for (int i = complete ? k : 0; i < units.length; i++) {
        pool.release(units[i]);
      }
    }
    ByteBuffer[] data = new ByteBuffer[k];
    System.arraycopy(units, 0, data, 0, k);
    return new StripeWindow(geometry, from, to, data, pool);
  }

  /** What every split read of one window shares. */
  private static final class Range {
    final Layout layout;
    final StripeGeometry geometry;
    final int from;
    final int to;
    final int length;
    final AtomicBoolean done;

    Range(Layout layout, StripeGeometry geometry, int from, int to, int length,
        AtomicBoolean done) {
      this.layout = layout;
      this.geometry = geometry;
      this.from = from;
      this.to = to;
      this.length = length;
      this.done = done;
    }
  }

  private Future<Arrived> submit(CompletionService<Arrived> arrivals, Split split, Range range) {
    return arrivals.submit(() -> new Arrived(split.getIndex(), readSplit(split, range)));
  }

  /**
   * Ends the reads this window no longer needs: they stop at their next slice (the done flag) and
   * give their buffers back; one that finished unclaimed gives its buffer back here. They are not
   * interrupted: an interrupted read also cancels its stream on the worker, and with that in place
   * PUTs to the same workers stalled now and then. A read from a dead worker therefore holds its
   * I/O thread through Alluxio's block-read retry (alluxio.user.block.read.retry.max.duration).
   */
  private void stop(List<Future<Arrived>> unclaimed) {
    for (Future<Arrived> f : unclaimed) {
      if (f.isDone() && !f.isCancelled()) {
        try {
          pool.release(f.get().bytes);
        } catch (ExecutionException | InterruptedException | RuntimeException failed) {
          // it failed: readSplit gave its buffer back
        }
      }
    }
  }

  private ByteBuffer readSplit(Split split, Range range) throws IOException, AlluxioException {
    StripeGeometry g = range.geometry;
    ByteBuffer buffer = pool.acquire(range.length);
    boolean ok = false;
    URIStatus status = new URIStatus(GrpcUtils.fromProto(split.getStatus()));
    try (FileInStream in = fs.openFile(status,
        OpenFilePOptions.newBuilder().setReadType(ReadPType.NO_CACHE).build())) {
      long start = g.splitOffset(range.from);
      if (start > 0) {
        in.seek(start);
      }
      ByteBuffer target = buffer.duplicate(); // the stream moves position and limit
      int at = 0;
      for (int s = range.from; s < range.to; s++) {
        int cellStart = at;
        int cellEnd = at + (int) g.cellLength(s);
        while (at < cellEnd) {
          if (range.done.get()) {
            ClientMetrics.READS_CANCELLED.inc();
            throw new IOException("cancelled: k splits arrived first");
          }
          target.clear();
          int n = in.read(target, at, Math.min(SLICE, cellEnd - at));
          if (n < 0) {
            throw new IOException("split " + split.getPath() + " ended at byte " + (start + at)
                + " of " + g.splitSize());
          }
          at += n;
          statistics.addBytes(split.getWorker().getHost(), n);
        }
        CRC32C crc = new CRC32C();
        crc.update(buffer.duplicate().limit(cellEnd).position(cellStart));
        int expected = range.layout.getCrc32C(g.checksumIndex(split.getIndex(), s));
        if ((int) crc.getValue() != expected) {
          throw new IOException("split " + split.getPath() + " is corrupt in stripe " + s
              + " (CRC32C " + Integer.toHexString((int) crc.getValue()) + ", expected "
              + Integer.toHexString(expected) + ")");
        }
      }
      ok = true;
      buffer.position(0).limit(range.length);
      return buffer;
    } finally {
      if (!ok) {
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
