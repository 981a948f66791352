package io.eccache.client;

import alluxio.grpc.WorkerNetAddress;
import com.google.common.util.concurrent.RateLimiter;
import io.eccache.common.ObjectPaths;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes splits of an object from its other splits: lost splits rebuilt, new parities or copies
 * added (maintenance), and a PUT's splits whose worker died while it wrote them. Reads the object
 * window by window with the late-binding reader (k of the splits the lookup names) and hands each
 * stripe's data cells to the {@link SplitWriter}, which codes the wanted units and writes each,
 * pinned to its worker. A parity row depends only on k and its index, so any parity can be written
 * alone.
 */
final class SplitRebuilder {
  private final ClientContext context;
  private final LateBindingReader reader;

  SplitRebuilder(ClientContext context, LateBindingReader reader) {
    this.context = context;
    this.reader = reader;
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
    List<SplitWriter.Target> targets = new ArrayList<>();
    for (int j = 0; j < indexes.size(); j++) {
      int index = indexes.get(j);
      targets.add(new SplitWriter.Target(index, ObjectPaths.splitPath(layout, index),
          workers.get(j)));
    }
    List<int[]> crcs = new ArrayList<>();
    long stripeBytes = Math.max(1, (long) k * g.cellSize());
    int windowStripes = (int) Math.max(1, context.streamWindowBytes() / stripeBytes);
    int maxCell = g.stripes() == 0 ? 0 : (int) g.cellLength(0);
    try (SplitWriter out = SplitWriter.open(context, layout.getKey(), scheme, targets,
        g.splitSize(), maxCell, 0, layout.getSplitPathsCount() > 0 ? SplitWriter.Files.THROUGH
            : SplitWriter.Files.CREATE_WITH_PARENTS)) {
      byte[] window = new byte[(int) Math.min(g.objectSize(), windowStripes * stripeBytes)];
      for (int from = 0; from < g.stripes(); from += windowStripes) {
        int to = Math.min(g.stripes(), from + windowStripes);
        long windowSplitBytes = g.splitOffset(to - 1) + g.cellLength(to - 1) - g.splitOffset(from);
        acquire(bandwidth, k * windowSplitBytes);
        reader.read(lookup, replica ? 0 : 1, from, to, window, 0);
        moved[0] += k * windowSplitBytes;
        // Cells are views of the window (a last cell padded with zeros, as the writer coded it);
        // the writes hold them until drained, before the window is read into again.
        for (int s = from; s < to; s++) {
          int cell = (int) g.cellLength(s);
          ByteBuffer[] data = StripedWriter.arrayCells(window,
              (int) (g.objectOffset(s) - g.objectOffset(from)), (int) g.dataBytes(s), k, cell);
          acquire(bandwidth, (long) targets.size() * cell);
          crcs.add(out.writeStripe(data, cell));
        }
        out.drain();
      }
      out.finish();
    }
    moved[0] += (long) targets.size() * g.splitSize();
    return crcs;
  }

  private static void acquire(RateLimiter bandwidth, long bytes) {
    if (bandwidth != null) {
      bandwidth.acquire((int) Math.min(Integer.MAX_VALUE, Math.max(1, bytes)));
    }
  }
}
