package io.eccache.client;

import alluxio.client.file.FileInStream;
import alluxio.client.file.FileSystem;
import alluxio.client.file.URIStatus;
import alluxio.exception.AlluxioException;
import alluxio.exception.status.UnavailableException;
import alluxio.grpc.GrpcUtils;
import alluxio.grpc.OpenFilePOptions;
import alluxio.grpc.ReadPType;
import io.eccache.common.ObjectPaths;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.CRC32C;

/**
 * EC-Cache's read (paper section 4.3): read k + Δ of the live splits, chosen uniformly at random, in
 * parallel, straight from the workers that hold them; finish as soon as any k have arrived intact and
 * cancel the rest; decode only when a data split is among the missing. A failed, corrupt (CRC32C) or
 * slow split costs only its share: another one takes its place.
 */
final class LateBindingReader {
  /** Reads proceed in slices, checking for cancellation between them. */
  private static final int SLICE = 1 << 20;

  private final FileSystem fs;
  private final ExecutorService io;
  private final ReadStatistics statistics;

  LateBindingReader(FileSystem fs, ExecutorService io, ReadStatistics statistics) {
    this.fs = fs;
    this.io = io;
    this.statistics = statistics;
  }

  /** One split that arrived intact. */
  private static final class Arrived {
    final int index;
    final ByteBuffer bytes;

    Arrived(int index, ByteBuffer bytes) {
      this.index = index;
      this.bytes = bytes;
    }
  }

  byte[] read(LookupResponse lookup, int delta) throws IOException {
    Layout layout = lookup.getLayout();
    int k = layout.getK();
    int r = layout.getR();
    if (layout.getObjectSize() == 0) {
      return new byte[0];
    }
    List<Split> candidates = new ArrayList<>();
    for (Split s : lookup.getSplitsList()) {
      if (s.getLive() && s.hasStatus()) {
        candidates.add(s);
      }
    }
    if (candidates.size() < k) {
      throw new UnavailableException("only " + candidates.size() + " of " + (k + r) + " splits of '"
          + layout.getKey() + "' are on live workers and k = " + k + " are needed, and S3 has no"
          + " copy of this version; PUT the object again (WriteMode.THROUGH keeps one in S3)");
    }
    Collections.shuffle(candidates, ThreadLocalRandom.current());
    AtomicBoolean done = new AtomicBoolean();
    CompletionService<Arrived> arrivals = new ExecutorCompletionService<>(io);
    int launched = 0;
    for (; launched < Math.min(k + delta, candidates.size()); launched++) {
      submit(arrivals, candidates.get(launched), layout, done);
    }
    ByteBuffer[] units = new ByteBuffer[k + r];
    int arrived = 0;
    int pending = launched;
    List<String> failures = new ArrayList<>();
    try {
      while (arrived < k) {
        if (pending == 0) {
          throw new UnavailableException("could read only " + arrived + " of the k = " + k
              + " splits needed for '" + layout.getKey() + "': " + failures);
        }
        Future<Arrived> next = arrivals.take();
        pending--;
        try {
          Arrived a = next.get();
          units[a.index] = a.bytes;
          arrived++;
        } catch (ExecutionException e) {
          failures.add(String.valueOf(e.getCause()));
          // Late binding's second chance: a split not yet asked for replaces the failed one.
          if (launched < candidates.size()) {
            submit(arrivals, candidates.get(launched++), layout, done);
            pending++;
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading '" + layout.getKey() + "'", e);
    } finally {
      // The slower reads stop at their next slice and close their streams in their own threads.
      done.set(true);
    }
    return assemble(layout, units, statistics);
  }

  private Future<Arrived> submit(CompletionService<Arrived> arrivals, Split split, Layout layout,
      AtomicBoolean done) {
    return arrivals.submit(() -> new Arrived(split.getIndex(), readSplit(split, layout, done)));
  }

  private ByteBuffer readSplit(Split split, Layout layout, AtomicBoolean done)
      throws IOException, AlluxioException {
    int size = Math.toIntExact(layout.getSplitSize());
    ByteBuffer unit = ReedSolomon.allocateAligned(size);
    byte[] slice = new byte[Math.min(SLICE, size)];
    URIStatus status = new URIStatus(GrpcUtils.fromProto(split.getStatus()));
    try (FileInStream in = fs.openFile(status,
        OpenFilePOptions.newBuilder().setReadType(ReadPType.NO_CACHE).build())) {
      while (unit.hasRemaining()) {
        if (done.get()) {
          throw new IOException("cancelled: k splits arrived first");
        }
        int n = in.read(slice, 0, Math.min(slice.length, unit.remaining()));
        if (n < 0) {
          throw new IOException("split " + split.getPath() + " ended after " + unit.position()
              + " of " + size + " bytes");
        }
        unit.put(slice, 0, n);
        statistics.addBytes(split.getWorker().getHost(), n);
      }
    }
    unit.flip();
    CRC32C crc = new CRC32C();
    crc.update(unit.duplicate());
    int expected = layout.getCrc32C(split.getIndex());
    if ((int) crc.getValue() != expected) {
      throw new IOException("split " + split.getPath() + " is corrupt (CRC32C "
          + Integer.toHexString((int) crc.getValue()) + ", expected " + Integer.toHexString(expected)
          + ")");
    }
    return unit;
  }

  /** Decodes missing data splits if any, then concatenates the data splits into the object. */
  private static byte[] assemble(Layout layout, ByteBuffer[] units, ReadStatistics statistics) {
    int k = layout.getK();
    int r = layout.getR();
    int size = Math.toIntExact(layout.getSplitSize());
    if (ObjectPaths.SCHEME_REPLICA.equals(layout.getScheme())) {
      for (ByteBuffer copy : units) {
        if (copy != null) {
          byte[] object = new byte[Math.toIntExact(layout.getObjectSize())];
          copy.duplicate().get(object);
          return object;
        }
      }
    }
    List<Integer> missing = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      if (units[i] == null) {
        missing.add(i);
      }
    }
    if (!missing.isEmpty()) {
      statistics.addDecode();
      int[] erased = missing.stream().mapToInt(Integer::intValue).toArray();
      ByteBuffer[] outputs = new ByteBuffer[erased.length];
      for (int i = 0; i < erased.length; i++) {
        outputs[i] = ReedSolomon.allocateAligned(size);
      }
      ReedSolomon.coder(k, r).decode(units, erased, outputs);
      for (int i = 0; i < erased.length; i++) {
        units[erased[i]] = outputs[i];
      }
    }
    byte[] object = new byte[Math.toIntExact(layout.getObjectSize())];
    for (int i = 0, at = 0; i < k && at < object.length; i++) {
      int n = Math.min(size, object.length - at);
      units[i].duplicate().get(object, at, n);
      at += n;
    }
    return object;
  }
}
