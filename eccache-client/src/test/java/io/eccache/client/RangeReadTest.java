package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.AlluxioURI;
import alluxio.client.file.URIStatus;
import io.eccache.common.ObjectPaths;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestData;
import java.io.EOFException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Range reads ({@link EcCacheClient#get(String, long, int)}) and the seekable stream over a real
 * cluster ({@link ClientTestCluster}: 64 KB cells, so RS(3,1) stripes are 192 KB and a 1 MB object
 * has 6): every range is compared byte for byte with the slice of the original, for each scheme
 * kind, with a worker gone, and a small range must read a small part of the object.
 */
class RangeReadTest {
  private static final int SIZE = 1_000_003;
  private static final int STRIPE = 3 * 65536;
  @RegisterExtension
  static final SharedCluster CLUSTER = ClientTestCluster.fiveWorkers();
  private EmbeddedCluster cluster;
  private EcCacheClient cache;

  @BeforeEach
  void start() throws Exception {
    cluster = CLUSTER.cluster();
    cache = ClientTestCluster.client(cluster);
  }

  @AfterEach
  void stop() {
    cache.close();
  }

  private static byte[] bytes(int n, long seed) {
    return TestData.randomBytes(n, seed);
  }

  /** Start, end, zero length, whole, and ranges across stripe (and window) boundaries. */
  private static long[][] ranges(int size, int stripe) {
    return new long[][] {{0, 10}, {0, 0}, {size, 0}, {size - 1, 1}, {size - 7, 7}, {0, size},
        {stripe - 5, 10}, {stripe, 1}, {stripe - 1, 2 * stripe + 3}, {2 * stripe + 17, 70_000},
        {1, size - 2}};
  }

  private void checkRanges(String key, byte[] data, int stripe) throws Exception {
    for (long[] r : ranges(data.length, stripe)) {
      byte[] want = Arrays.copyOfRange(data, (int) r[0], (int) (r[0] + r[1]));
      assertArrayEquals(want, cache.get(key, r[0], (int) r[1]), key + " " + Arrays.toString(r));
    }
    try (SeekableObjectStream in = cache.openStream(key)) {
      assertEquals(data.length, in.size());
      Random random = new Random(7);
      for (int i = 0; i < 20; i++) {
        int at = random.nextInt(data.length);
        int len = Math.min(random.nextInt(3 * stripe), data.length - at);
        in.seek(at);
        assertEquals(at, in.getPos());
        byte[] got = in.readNBytes(len);
        assertArrayEquals(Arrays.copyOfRange(data, at, at + len), got, key + " seek " + at);
        assertEquals(at + len, in.getPos());
        // A positioned read leaves the position alone.
        int p = random.nextInt(data.length);
        byte[] b = new byte[Math.min(1000, data.length - p)];
        in.readFully(p, b, 0, b.length);
        assertArrayEquals(Arrays.copyOfRange(data, p, p + b.length), b);
        assertEquals(at + len, in.getPos());
      }
      in.seek(0);
      assertArrayEquals(data, in.readAllBytes(), key + " whole after seeks");
      in.seek(data.length);
      assertEquals(-1, in.read());
      assertEquals(-1, in.read(data.length, new byte[4], 0, 4));
    }
  }

  @Test
  void erasureCodedRangesEqualTheSlices() throws Exception {
    byte[] data = bytes(SIZE, 1);
    String key = CLUSTER.key("rs");
    cache.put(key, data, PutOptions.code(3, 1));
    checkRanges(key, data, STRIPE);
  }

  @Test
  void replicatedAndPartitionedRangesEqualTheSlices() throws Exception {
    byte[] data = bytes(SIZE, 2);
    String replica = CLUSTER.key("replica");
    cache.put(replica, data, PutOptions.replicas(2));
    checkRanges(replica, data, 65536);
    String partition = CLUSTER.key("partition");
    cache.put(partition, data, PutOptions.partitions(4));
    checkRanges(partition, data, 4 * 65536);
  }

  @Test
  void badRangesAreTypedErrors() throws Exception {
    byte[] data = bytes(5000, 3);
    String key = CLUSTER.key("small");
    cache.put(key, data);
    assertThrows(IllegalArgumentException.class, () -> cache.get(key, -1, 3));
    assertThrows(IllegalArgumentException.class, () -> cache.get(key, 0, -3));
    assertThrows(EOFException.class, () -> cache.get(key, 4999, 2));
    assertThrows(EOFException.class, () -> cache.get(key, 5001, 0));
    assertArrayEquals(new byte[0], cache.get(key, 5000, 0));
    try (SeekableObjectStream in = cache.openStream(key)) {
      assertThrows(EOFException.class, () -> in.seek(-1));
      assertThrows(EOFException.class, () -> in.seek(5001));
      assertThrows(EOFException.class, () -> in.read(-1, new byte[1], 0, 1));
      assertThrows(EOFException.class, () -> in.readFully(4990, new byte[11], 0, 11));
      assertThrows(IndexOutOfBoundsException.class, () -> in.read(0, new byte[1], 0, 2));
      assertEquals(0, in.getPos(), "failed calls do not move the stream");
      assertArrayEquals(data, in.readAllBytes());
    }
  }

  @Test
  void aSmallRangeReadsOnlyItsStripes() throws Exception {
    byte[] data = bytes(SIZE, 4);
    String key = CLUSTER.key("big");
    cache.put(key, data, PutOptions.code(3, 1));
    cache.readStatistics().reset();
    assertArrayEquals(Arrays.copyOfRange(data, STRIPE * 3 + 5, STRIPE * 3 + 105),
        cache.get(key, STRIPE * 3 + 5, 100));
    long ranged = read(cache);
    // One stripe: 4 splits (k + Δ) of one 64 KB cell each, at most.
    assertTrue(ranged > 0 && ranged <= 4 * 65536, "a 100-byte range read " + ranged + " bytes");
    cache.readStatistics().reset();
    cache.get(key);
    assertTrue(read(cache) >= SIZE, "the whole object read " + read(cache) + " bytes");
    cache.readStatistics().reset();
    try (SeekableObjectStream in = cache.openStream(key)) {
      in.seek(SIZE - 10);
      assertArrayEquals(Arrays.copyOfRange(data, SIZE - 10, SIZE), in.readAllBytes());
    }
    assertTrue(read(cache) <= 4 * 65536, "a seek to the last stripe read " + read(cache));
  }

  private static long read(EcCacheClient cache) {
    return cache.readStatistics().bytesByWorker().values().stream().mapToLong(Long::longValue)
        .sum();
  }

  @Test
  void rangesFallBackToS3AndReadFromIt() throws Exception {
    byte[] data = bytes(SIZE, 6);
    String key = CLUSTER.key("through");
    cache.put(key, data, PutOptions.code(3, 1).writeMode(WriteMode.THROUGH));
    // Evicted: the key is in S3 only, and a stream reads (and seeks in) S3's copy.
    cache.evict(key);
    try (SeekableObjectStream in = cache.openStream(key)) {
      in.seek(STRIPE + 3);
      assertArrayEquals(Arrays.copyOfRange(data, STRIPE + 3, STRIPE + 103), in.readNBytes(100));
      byte[] b = new byte[50];
      in.readFully(7, b, 0, 50);
      assertArrayEquals(Arrays.copyOfRange(data, 7, 57), b);
      assertEquals(STRIPE + 103, in.getPos());
    }
    cache.put(key, data, PutOptions.code(3, 1).writeMode(WriteMode.THROUGH));
    // Cached again, then 3 of 5 workers gone: at most 2 of its 4 splits left, fewer than k = 3,
    // so the range comes from S3.
    for (int i = 0; i < 3; i++) {
      cluster.stopWorker(i);
    }
    cluster.awaitLiveWorkers(ClientTestCluster.WORKERS - 3);
    cache.readStatistics().reset();
    assertArrayEquals(Arrays.copyOfRange(data, SIZE - 1000, SIZE), cache.get(key, SIZE - 1000, 1000));
    assertEquals(1, cache.readStatistics().fallbacks());
    assertEquals(1000, cache.readStatistics().fallbackBytes(), "only the range came from S3");
  }

  @Test
  void rangesBindLateWithAWorkerGone() throws Exception {
    byte[] data = bytes(SIZE, 5);
    String key = CLUSTER.key("degraded");
    cache.put(key, data, PutOptions.code(3, 1));
    String dir = new ObjectPaths("/.eccache").objectDirectory(key);
    String write = cluster.fileSystem().listStatus(new AlluxioURI(dir)).get(0).getPath();
    URIStatus split = cluster.fileSystem().listStatus(new AlluxioURI(write)).get(0);
    int holder = cluster.workerIndex(split.getFileBlockInfos().get(0).getBlockInfo()
        .getLocations().get(0).getWorkerAddress().getHost());
    // Stopped but not yet noticed by the master: the lookup still offers its split, whose read
    // fails, and the range finishes with the other three.
    cluster.stopWorker(holder);
    cache.readStatistics().reset();
    checkRanges(key, data, STRIPE);
    assertEquals(0, cache.readStatistics().fallbacks());
  }
}
