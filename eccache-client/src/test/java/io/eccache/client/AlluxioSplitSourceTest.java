package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestData;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Split reads through Alluxio, on a real cluster: what a read stopped part-way counts. */
class AlluxioSplitSourceTest {
  @RegisterExtension
  static final SharedCluster CLUSTER = ClientTestCluster.fiveWorkers();

  @Test
  void aReadStoppedPartWayCountsWhatItReadAndTheRestOfTheRangeAsUnread() throws Exception {
    try (EcCacheClient cache = ClientTestCluster.client(CLUSTER.cluster())) {
      String key = CLUSTER.key("stopped");
      // k = 1: each split holds the whole 3 MiB object, three slices of the reader.
      cache.put(key, TestData.randomBytes(3 << 20, 11), PutOptions.code(1, 1));
      LookupResponse lookup = cache.context().coordinator().lookup(key);
      Split split = lookup.getSplits(0);
      int length = Math.toIntExact(split.getStatus().getLength());
      ReadStatistics statistics = new ReadStatistics();
      AlluxioSplitSource source = new AlluxioSplitSource(cache.context().fs(), statistics);
      AtomicInteger checks = new AtomicInteger();
      try (SplitSource.SplitStream in = source.open(split, 0)) {
        // Needed for the first slice, not after it: late binding's k others have arrived.
        IOException stopped = assertThrows(IOException.class, () -> in.readFully(
            ByteBuffer.allocate(length), 0, length, () -> checks.incrementAndGet() > 1));
        assertTrue(stopped.getMessage().contains("stopped part-way"), stopped.getMessage());
      }
      String host = split.getWorker().getHost();
      long read = statistics.bytesByWorker().get(host);
      long unread = statistics.unreadBytesByWorker().get(host);
      assertTrue(read > 0 && read <= 1 << 20, "one slice at most was read: " + read);
      assertEquals(length, read + unread, "the rest of the range is counted as unread");
      assertEquals(1, statistics.bytesByWorker().size());
      assertEquals(1, statistics.unreadBytesByWorker().size());
    }
  }
}
