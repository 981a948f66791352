package io.eccache.client;

import alluxio.client.file.FileInStream;
import alluxio.client.file.FileSystem;
import alluxio.client.file.URIStatus;
import alluxio.conf.AlluxioConfiguration;
import alluxio.conf.PropertyKey;
import alluxio.exception.AlluxioException;
import alluxio.grpc.GrpcUtils;
import alluxio.grpc.OpenFilePOptions;
import alluxio.grpc.ReadPType;
import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import io.eccache.common.proto.Split;
import java.io.IOException;
import java.util.concurrent.ExecutionException;

/**
 * Split files read from their workers through Alluxio: opened from the file status the lookup
 * returned (no RPC per split), {@code NO_CACHE} so a read never copies a split onto another worker.
 * Alluxio's block stream sends ahead of its reader (the worker pushes chunks up to the stream's
 * buffer), so a read the {@link LateBindingReader} stops part-way saves the client's copying, not
 * the link's bytes. Every byte read is counted against its worker in the {@link ReadStatistics}.
 * A split's status is converted from its proto once per looked-up layout, not once per read: the
 * conversion (block infos, ACLs, xattrs) cost about 65 us per split in a profile of small GETs.
 */
final class AlluxioSplitSource implements SplitSource {
  private static final OpenFilePOptions NO_CACHE =
      OpenFilePOptions.newBuilder().setReadType(ReadPType.NO_CACHE).build();

  /**
   * A read that waits for the next chunk asks for this much of it; the rest (a chunk is 1 MiB by
   * default) is then what the stream holds, read by the reader straight into place.
   */
  private static final int WAITING_READ = 4 << 10;

  /** Where splits are read from: a file system whose block reads are not retried. */
  private final Reads reads;
  private final ReadStatistics statistics;
  /** The bytes a worker sends in one message of a block read (Alluxio's streaming chunk size). */
  private final long chunkSize;
  /**
   * Statuses by the layout's own proto objects, compared by identity (weak keys): a layout the
   * client keeps cached reuses its conversions, and they go with it.
   */
  private final Cache<alluxio.grpc.FileInfo, URIStatus> statuses =
      CacheBuilder.newBuilder().weakKeys().build();

  /** The file system split reads go through, made when first needed. */
  @FunctionalInterface
  interface Reads {
    FileSystem get() throws IOException;
  }

  AlluxioSplitSource(Reads reads, AlluxioConfiguration conf, ReadStatistics statistics) {
    this.reads = reads;
    this.statistics = statistics;
    this.chunkSize = Math.max(1,
        conf.getBytes(PropertyKey.USER_STREAMING_READER_CHUNK_SIZE_BYTES));
  }

  /** Over {@code fs} itself (tests). */
  AlluxioSplitSource(FileSystem fs, ReadStatistics statistics) {
    this(() -> fs, fs.getConf(), statistics);
  }

  /** Split statuses converted and still held (their layouts are still referenced). */
  long convertedStatuses() {
    statuses.cleanUp();
    return statuses.size();
  }

  /**
   * The bytes Alluxio's stream holds of the chunk it is part-way through, for a file of
   * {@code length} bytes in blocks of {@code blockSize}, opened at {@code offset} and read up to
   * {@code position}; 0 at a chunk's end. The block stream asks its worker for a block's bytes from
   * where it first reads in it (the offset opened at, else the block's start), and the worker sends
   * them in chunks of the client's chunk size from there; a read waits only once the chunk it is in
   * is used up.
   */
  static int chunkRest(long position, long offset, long blockSize, long length, long chunkSize) {
    long blockStart = position - position % blockSize;
    long requested = Math.max(offset, blockStart);
    if (position == requested) {
      return 0; // nothing read from this block's stream yet: its first chunk is to come
    }
    long chunkEnd = requested + ((position - 1 - requested) / chunkSize + 1) * chunkSize;
    return (int) (Math.min(Math.min(chunkEnd, blockStart + blockSize), length) - position);
  }

  @Override
  public SplitStream open(Split split, long offset) throws IOException {
    URIStatus status;
    try {
      status = statuses.get(split.getStatus(),
          () -> new URIStatus(GrpcUtils.fromProto(split.getStatus())));
    } catch (ExecutionException e) {
      throw new IOException("split " + split.getPath() + " has an unreadable status: "
          + e.getCause(), e.getCause());
    }
    FileInStream in;
    try {
      in = reads.get().openFile(status, NO_CACHE);
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
    // A regional split no worker caches comes from its region (through whichever worker Alluxio
    // picks): its bytes count against the region.
    String host = split.getLive() || split.getRegion().isEmpty() ? split.getWorker().getHost()
        : "region:" + split.getRegion();
    long blockSize = Math.max(1, status.getBlockSizeBytes());
    long length = status.getLength();
    return new SplitStream() {
      private long position = offset;

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, len);
        if (n > 0) {
          statistics.addBytes(host, n);
          position += n;
        }
        return n;
      }

      @Override
      public int buffered() {
        return chunkRest(position, offset, blockSize, length, chunkSize);
      }

      @Override
      public int waitingReadLength(int wanted) {
        return Math.min(wanted, WAITING_READ);
      }

      @Override
      public void close() throws IOException {
        in.close();
      }
    };
  }
}
