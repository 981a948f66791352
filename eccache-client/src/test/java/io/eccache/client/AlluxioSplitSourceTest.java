package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestData;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Split reads through Alluxio, on a real cluster: the bytes, from an offset, counted per worker. */
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
      AlluxioSplitSource source = new AlluxioSplitSource(cache.context().fs(), statistics);
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
      AlluxioSplitSource source = new AlluxioSplitSource(cache.context().fs(),
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
