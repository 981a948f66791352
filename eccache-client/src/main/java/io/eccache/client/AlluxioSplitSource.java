package io.eccache.client;

import alluxio.client.block.BlockStoreClient;
import alluxio.client.block.stream.BlockInStream;
import alluxio.client.file.FileSystemContext;
import alluxio.client.file.URIStatus;
import alluxio.client.file.options.InStreamOptions;
import alluxio.conf.PropertyKey;
import alluxio.grpc.GrpcUtils;
import alluxio.grpc.OpenFilePOptions;
import alluxio.grpc.ReadPType;
import alluxio.wire.BlockInfo;
import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import io.eccache.common.proto.Split;
import java.io.IOException;
import java.util.HashMap;
import java.util.concurrent.ExecutionException;

/**
 * Split files read from their workers through Alluxio's block streams, block by block, from the
 * file status the lookup returned (no RPC per split), {@code NO_CACHE} so a read never copies a
 * split onto another worker. A split's blocks are read with Alluxio's {@link BlockStoreClient},
 * not its file stream: a split has one location and no copy in S3, and the file stream would retry
 * a dead worker for alluxio.user.block.read.retry.max.duration (sleeping, asking the master for the
 * block's locations, logging a warning each time) while late binding has other splits to read; a
 * block stream fails at once, and the {@link LateBindingReader} reads another split instead. A
 * read the reader no longer needs is {@linkplain SplitStream#cancel cancelled} at its worker
 * ({@link BlockReadCancel}): Alluxio's own close would wait while the worker sent the rest. Every
 * byte read is counted against its worker in the {@link ReadStatistics}. A split's status is
 * converted from its proto once per looked-up layout, not once per read: the conversion (block
 * infos, ACLs, xattrs) cost about 65 us per split in a profile of small GETs.
 */
final class AlluxioSplitSource implements SplitSource {
  private static final OpenFilePOptions NO_CACHE =
      OpenFilePOptions.newBuilder().setReadType(ReadPType.NO_CACHE).build();

  /**
   * A read that waits for the next chunk asks for this much of it; the rest (a chunk is 1 MiB by
   * default) is then what the stream holds, read by the reader straight into place.
   */
  private static final int WAITING_READ = 4 << 10;

  private final FileSystemContext context;
  private final BlockStoreClient blocks;
  private final ReadStatistics statistics;
  /** The bytes a worker sends in one message of a block read (Alluxio's streaming chunk size). */
  private final long chunkSize;
  /**
   * Statuses by the layout's own proto objects, compared by identity (weak keys): a layout the
   * client keeps cached reuses its conversions, and they go with it.
   */
  private final Cache<alluxio.grpc.FileInfo, URIStatus> statuses =
      CacheBuilder.newBuilder().weakKeys().build();

  AlluxioSplitSource(FileSystemContext context, ReadStatistics statistics) {
    this.context = context;
    this.blocks = BlockStoreClient.create(context);
    this.statistics = statistics;
    this.chunkSize = Math.max(1, context.getClusterConf()
        .getBytes(PropertyKey.USER_STREAMING_READER_CHUNK_SIZE_BYTES));
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
    InStreamOptions options =
        new InStreamOptions(status, NO_CACHE, context.getClusterConf(), context);
    // A regional split no worker caches comes from its region (through whichever worker Alluxio
    // picks): its bytes count against the region.
    String host = split.getLive() || split.getRegion().isEmpty() ? split.getWorker().getHost()
        : "region:" + split.getRegion();
    return new Blocks(split, status, options, offset, host);
  }

  /** A split's bytes from an offset on, one block stream at a time, opened on first read. */
  private final class Blocks implements SplitStream {
    private final Split split;
    private final URIStatus status;
    private final InStreamOptions options;
    private final long offset;
    private final String host;
    private final long blockSize;
    private final long length;
    private long position;
    /** The block stream being read; the GET's thread reads it to cancel it. */
    private volatile BlockInStream block;
    private long blockEnd;

    Blocks(Split split, URIStatus status, InStreamOptions options, long offset, String host) {
      this.split = split;
      this.status = status;
      this.options = options;
      this.offset = offset;
      this.host = host;
      this.blockSize = Math.max(1, status.getBlockSizeBytes());
      this.length = status.getLength();
      this.position = offset;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (position >= length) {
        return -1;
      }
      if (block == null) {
        int index = (int) (position / blockSize);
        if (index >= status.getBlockIds().size()) {
          throw new IOException("split " + split.getPath() + " has no block at byte " + position);
        }
        BlockInfo info = options.getBlockInfo(status.getBlockIds().get(index));
        BlockInStream opened = blocks.getInStream(info, options, new HashMap<>());
        long start = (long) index * blockSize;
        try {
          opened.seek(position - start);
        } catch (IOException | RuntimeException e) {
          opened.close();
          throw e;
        }
        blockEnd = Math.min(start + info.getLength(), length);
        block = opened;
      }
      int n = block.read(b, off, (int) Math.min(len, blockEnd - position));
      if (n < 0) {
        throw new IOException("split " + split.getPath() + " ended at byte " + position
            + " of " + length);
      }
      statistics.addBytes(host, n);
      position += n;
      if (position == blockEnd) {
        BlockInStream done = block;
        block = null;
        done.close();
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
    public void cancel() {
      BlockInStream current = block;
      if (current != null && BlockReadCancel.cancel(current)) {
        statistics.addCancelled();
      }
    }

    @Override
    public void close() throws IOException {
      BlockInStream current = block;
      block = null;
      if (current != null) {
        current.close();
      }
    }
  }
}
