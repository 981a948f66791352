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
}
