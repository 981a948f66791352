package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.AlluxioURI;
import alluxio.client.block.stream.BlockInStream;
import alluxio.client.file.AlluxioFileInStream;
import alluxio.client.file.FileInStream;
import alluxio.client.file.FileOutStream;
import alluxio.client.file.FileSystem;
import alluxio.client.file.URIStatus;
import alluxio.conf.PropertyKey;
import alluxio.grpc.CreateFilePOptions;
import alluxio.grpc.OpenFilePOptions;
import alluxio.grpc.ReadPType;
import alluxio.grpc.WritePType;
import alluxio.network.protocol.databuffer.DataBuffer;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestData;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Split reads through Alluxio, on a real cluster: the bytes, from an offset, counted per worker,
 * and what a stream says it holds checked against Alluxio's own block stream.
 */
class AlluxioSplitSourceTest {
  @RegisterExtension
  static final SharedCluster CLUSTER = ClientTestCluster.fiveWorkers();

  @Test
  void readsASplitFromAnOffsetAndCountsItsBytesAgainstItsWorker() throws Exception {
    try (EcCacheClient cache = ClientTestCluster.client(CLUSTER.cluster())) {
      String key = CLUSTER.key("split");
      byte[] object = TestData.randomBytes(3 << 20, 11);
      // k = 1: each split holds the whole object.
      cache.put(key, object, PutOptions.code(1, 1));
      LookupResponse lookup = cache.context().coordinator().lookup(key);
      Split split = lookup.getSplits(0);
      int offset = 1_000_000;
      ReadStatistics statistics = new ReadStatistics();
      AlluxioSplitSource source = new AlluxioSplitSource(cache.context().alluxio(), statistics);
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      try (SplitSource.SplitStream in = source.open(split, offset)) {
        byte[] slice = new byte[100_000];
        for (int n; (n = in.read(slice, 0, slice.length)) >= 0; ) {
          assertTrue(n > 0, "a read returns at least one byte or the end");
          got.write(slice, 0, n);
        }
      }
      assertArrayEquals(Arrays.copyOfRange(object, offset, object.length), got.toByteArray());
      assertEquals(Map.of(split.getWorker().getHost(), (long) (object.length - offset)),
          statistics.bytesByWorker());
    }
  }

  @Test
  void aSplitsStatusIsConvertedOncePerLookupAndAnOverwriteReadsItsOwn() throws Exception {
    try (EcCacheClient cache = ClientTestCluster.client(CLUSTER.cluster())) {
      String key = CLUSTER.key("status");
      byte[] first = TestData.randomBytes(100_000, 12);
      byte[] second = TestData.randomBytes(100_000, 13);
      cache.put(key, first, PutOptions.code(1, 1));
      Split before = cache.context().coordinator().lookup(key).getSplits(0);
      AlluxioSplitSource source = new AlluxioSplitSource(cache.context().alluxio(),
          new ReadStatistics());
      assertArrayEquals(first, readAll(source, before));
      assertArrayEquals(first, readAll(source, before));
      assertEquals(1, source.convertedStatuses(), "the same layout's split converts once");
      cache.put(key, second, PutOptions.code(1, 1));
      Split after = cache.context().coordinator().lookup(key).getSplits(0);
      assertArrayEquals(second, readAll(source, after));
      assertEquals(2, source.convertedStatuses(), "a new layout's split has its own status");
    }
  }

  @Test
  void whatAStreamSaysItHoldsIsTheRestOfAlluxiosCurrentChunk() throws Exception {
    // A plain file of several blocks, read from an offset inside the first, in reads that start
    // and end anywhere: after each one the model's answer is what Alluxio's block stream holds.
    try (EcCacheClient cache = ClientTestCluster.client(CLUSTER.cluster())) {
      checkChunkRest(cache.context().fs());
    }
  }

  private static void checkChunkRest(FileSystem fs) throws Exception {
    AlluxioURI path = new AlluxioURI("/" + CLUSTER.key("chunks"));
    long blockSize = 1_500_000;
    byte[] bytes = TestData.randomBytes(4_200_000, 14);
    try (FileOutStream out = fs.createFile(path, CreateFilePOptions.newBuilder()
        .setBlockSizeBytes(blockSize).setWriteType(WritePType.MUST_CACHE).setRecursive(true)
        .build())) {
      out.write(bytes);
    }
    URIStatus status = fs.getStatus(path);
    long chunkSize = fs.getConf().getBytes(PropertyKey.USER_STREAMING_READER_CHUNK_SIZE_BYTES);
    assertTrue(chunkSize < blockSize, "chunks of " + chunkSize + " bytes: one per block");
    long offset = 1_000_000;
    int[] reads = {100_000, 1, 300_000, 2_000_000, 7, 900_000};
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    int checked = 0;
    try (FileInStream in = fs.openFile(status,
        OpenFilePOptions.newBuilder().setReadType(ReadPType.NO_CACHE).build())) {
      in.seek(offset);
      long position = offset;
      byte[] buffer = new byte[2_000_000];
      for (int i = 0; position < bytes.length; i++) {
        int rest = AlluxioSplitSource.chunkRest(position, offset, blockSize, bytes.length,
            chunkSize);
        assertEquals(heldByAlluxio(in), rest, "at byte " + position);
        // Every other read takes exactly the rest the model names, as the reader does.
        int len = i % 2 == 1 && rest > 0 ? rest : reads[i % reads.length];
        int n = in.read(buffer, 0, len);
        assertTrue(n > 0, "a read returns bytes before the end");
        got.write(buffer, 0, n);
        position += n;
        checked++;
      }
      assertEquals(0, AlluxioSplitSource.chunkRest(position, offset, blockSize, bytes.length,
          chunkSize), "nothing held at the end");
    }
    assertTrue(checked > 8, "too few reads to check: " + checked);
    assertArrayEquals(Arrays.copyOfRange(bytes, (int) offset, bytes.length), got.toByteArray());
  }

  /** The bytes left in the chunk Alluxio's block stream is reading (its private fields). */
  private static int heldByAlluxio(FileInStream in) throws ReflectiveOperationException {
    Field blockStream = AlluxioFileInStream.class.getDeclaredField("mBlockInStream");
    blockStream.setAccessible(true);
    BlockInStream block = (BlockInStream) blockStream.get(in);
    if (block == null) {
      return 0;
    }
    Field chunk = BlockInStream.class.getDeclaredField("mCurrentChunk");
    chunk.setAccessible(true);
    DataBuffer current = (DataBuffer) chunk.get(block);
    return current == null ? 0 : current.readableBytes();
  }

  private static byte[] readAll(AlluxioSplitSource source, Split split) throws Exception {
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    try (SplitSource.SplitStream in = source.open(split, 0)) {
      byte[] slice = new byte[16_384];
      for (int n; (n = in.read(slice, 0, slice.length)) >= 0; ) {
        got.write(slice, 0, n);
      }
    }
    return got.toByteArray();
  }
}
