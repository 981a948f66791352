package io.eccache.client;

import alluxio.client.file.FileInStream;
import alluxio.client.file.FileSystem;
import alluxio.client.file.URIStatus;
import alluxio.exception.AlluxioException;
import alluxio.grpc.GrpcUtils;
import alluxio.grpc.OpenFilePOptions;
import alluxio.grpc.ReadPType;
import io.eccache.common.proto.Split;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;

/**
 * Split files read from their workers through Alluxio: opened from the file status the lookup
 * returned (no RPC per split), {@code NO_CACHE} so a read never copies a split onto another worker,
 * in 1 MiB slices, checking between slices whether the read is still needed. A read no longer
 * than one slice (a 0.8 MiB split of an 8 MiB object at k = 10) is therefore never stopped: late
 * binding's extra read costs its whole split, Δ/k of the object, as in the paper (whose client does
 * not cancel either). A read stopped part-way saves the client's copying, not the link's bytes:
 * Alluxio's block stream sends ahead of the reader (the worker pushes chunks up to the stream's
 * buffer), so the kernel's counters show the rest of the range sent anyway. Every byte read is
 * counted against its worker in the {@link ReadStatistics}, and so is the rest of a stopped range,
 * apart, as unread.
 */
final class AlluxioSplitSource implements SplitSource {
  /** Reads proceed in slices; whether the read is still needed is checked between them. */
  private static final int SLICE = 1 << 20;
  private static final OpenFilePOptions NO_CACHE =
      OpenFilePOptions.newBuilder().setReadType(ReadPType.NO_CACHE).build();

  private final FileSystem fs;
  private final ReadStatistics statistics;

  AlluxioSplitSource(FileSystem fs, ReadStatistics statistics) {
    this.fs = fs;
    this.statistics = statistics;
  }

  @Override
  public SplitStream open(Split split, long offset) throws IOException {
    URIStatus status = new URIStatus(GrpcUtils.fromProto(split.getStatus()));
    FileInStream in;
    try {
      in = fs.openFile(status, NO_CACHE);
    } catch (AlluxioException e) {
      throw new IOException("opening split " + split.getPath() + " failed: " + e.getMessage(), e);
    }
    try {
      if (offset > 0) {
        in.seek(offset);
      }
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
    String host = split.getWorker().getHost();
    return new SplitStream() {
      private long position = offset;

      @Override
      public void readFully(ByteBuffer dst, int at, int length, BooleanSupplier stop)
          throws IOException {
        ByteBuffer target = dst.duplicate(); // the stream moves position and limit
        int end = at + length;
        while (at < end) {
          if (stop.getAsBoolean()) {
            ClientMetrics.READS_STOPPED_EARLY.inc();
            statistics.addUnread(host, end - at);
            throw new IOException("stopped part-way: k splits arrived first");
          }
          target.clear();
          int n = in.read(target, at, Math.min(SLICE, end - at));
          if (n < 0) {
            throw new IOException("split " + split.getPath() + " ended at byte " + position);
          }
          at += n;
          position += n;
          statistics.addBytes(host, n);
        }
      }

      @Override
      public void close() throws IOException {
        in.close();
      }
    };
  }
}
