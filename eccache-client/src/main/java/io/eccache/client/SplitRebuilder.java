package io.eccache.client;

import alluxio.AlluxioURI;
import alluxio.client.file.FileOutStream;
import alluxio.client.file.FileSystem;
import alluxio.exception.AlluxioException;
import alluxio.grpc.CreateFilePOptions;
import alluxio.grpc.WorkerNetAddress;
import alluxio.grpc.WritePType;
import com.google.common.util.concurrent.RateLimiter;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.isal.ReedSolomon;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Writes splits of an object from its other splits: lost splits rebuilt, new parities or copies
 * added (maintenance), and a PUT's splits whose worker died while it wrote them. Reads the object
 * window by window with the late-binding reader (k of the splits the lookup names), codes the
 * wanted units and writes each, pinned to its worker. A parity row depends only on k and its index,
 * so any parity can be written alone.
 */
final class SplitRebuilder {
  private final FileSystem fs;
  private final LateBindingReader reader;
  private final DirectBufferPool pool;
  private final long windowBytes;

  SplitRebuilder(FileSystem fs, LateBindingReader reader, DirectBufferPool pool, long windowBytes) {
    this.fs = fs;
    this.reader = reader;
    this.pool = pool;
    this.windowBytes = windowBytes;
  }

  /**
   * Writes split {@code indexes[j]} of {@code lookup}'s object to {@code workers[j]}; returns the
   * CRC32C of every cell written, per stripe ({@code [stripe][j]}).
   *
   * @param bandwidth limits bytes read and written, or null
   * @param moved incremented by the bytes read and written
   */
  List<int[]> write(LookupResponse lookup, List<Integer> indexes, List<WorkerNetAddress> workers,
      RateLimiter bandwidth, long[] moved) throws IOException {
    Layout layout = lookup.getLayout();
    StripeGeometry g = StripeGeometry.of(layout);
    RedundancyScheme scheme = SchemeProtos.of(layout);
    int k = scheme.dataSplits();
    boolean replica = scheme.kind() == RedundancyScheme.Kind.REPLICATED;
    // Parity rows up to the highest index written (its row does not depend on the others).
    int highest = 0;
    for (int index : indexes) {
      highest = Math.max(highest, index);
    }
    int parities = replica ? 0 : Math.max(0, highest - k + 1);
    int count = indexes.size();
    FileOutStream[] outs = new FileOutStream[count];
    List<int[]> crcs = new ArrayList<>();
    long stripeBytes = Math.max(1, (long) k * g.cellSize());
    int windowStripes = (int) Math.max(1, windowBytes / stripeBytes);
    boolean ok = false;
    try {
      for (int j = 0; j < count; j++) {
        int index = indexes.get(j);
        String path = layout.getDirectory() + "/" + scheme.splitName(index);
        outs[j] = fs.createFile(new AlluxioURI(path), CreateFilePOptions.newBuilder()
            .setWriteType(WritePType.MUST_CACHE).setReplicationMax(1)
            .setBlockSizeBytes(Math.max(g.splitSize(), 1 << 20)).setOverwrite(true)
            .setRecursive(true).setWorkerLocation(workers.get(j)).build());
      }
      for (int from = 0; from < g.stripes(); from += windowStripes) {
        int to = Math.min(g.stripes(), from + windowStripes);
        long windowSplitBytes = g.splitOffset(to - 1) + g.cellLength(to - 1) - g.splitOffset(from);
        if (bandwidth != null) {
          bandwidth.acquire((int) Math.min(Integer.MAX_VALUE, Math.max(1, k * windowSplitBytes)));
        }
        try (StripeWindow window = reader.read(lookup, replica ? 0 : 1, from, to)) {
          moved[0] += k * windowSplitBytes;
          for (int s = from; s < to; s++) {
            crcs.add(writeStripe(window, g, s, from, k, parities, replica, indexes, outs,
                bandwidth));
          }
        }
      }
      for (FileOutStream out : outs) {
        out.close();
      }
      ok = true;
    } catch (AlluxioException e) {
      throw new IOException(e.getMessage(), e);
    } finally {
      if (!ok) {
        for (FileOutStream out : outs) {
          if (out != null) {
            try {
              out.cancel();
            } catch (IOException | RuntimeException ignored) {
              // failing already
            }
          }
        }
      }
    }
    moved[0] += (long) count * g.splitSize();
    return crcs;
  }

  /** Codes one stripe's cells for the wanted split indexes and appends them; returns their CRCs. */
  private int[] writeStripe(StripeWindow window, StripeGeometry g, int s, int from, int k,
      int parities, boolean replica, List<Integer> indexes, FileOutStream[] outs,
      RateLimiter bandwidth) throws IOException {
    int cell = (int) g.cellLength(s);
    int at = (int) (g.splitOffset(s) - g.splitOffset(from));
    ByteBuffer[] data = new ByteBuffer[k];
    for (int i = 0; i < k; i++) {
      data[i] = window.data(i).limit(at + cell).position(at);
    }
    ByteBuffer[] parity = new ByteBuffer[parities];
    try {
      for (int i = 0; i < parities; i++) {
        parity[i] = pool.acquire(cell);
      }
      if (parities > 0 && cell > 0) {
        ReedSolomon.coder(k, parities).encode(data, parity);
      }
      int[] crcs = new int[outs.length];
      byte[] chunk = new byte[Math.min(cell, 1 << 20)];
      for (int j = 0; j < outs.length; j++) {
        int index = indexes.get(j);
        ByteBuffer unit = (replica ? data[0] : index < k ? data[index] : parity[index - k])
            .duplicate();
        CRC32C crc = new CRC32C();
        crc.update(unit.duplicate());
        crcs[j] = (int) crc.getValue();
        if (bandwidth != null) {
          bandwidth.acquire(Math.max(1, cell));
        }
        while (unit.hasRemaining()) {
          int n = Math.min(chunk.length, unit.remaining());
          unit.get(chunk, 0, n);
          outs[j].write(chunk, 0, n);
        }
      }
      return crcs;
    } finally {
      for (ByteBuffer p : parity) {
        pool.release(p);
      }
    }
  }
}
