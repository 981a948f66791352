package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.AlluxioURI;
import alluxio.client.file.URIStatus;
import alluxio.exception.status.FailedPreconditionException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.NotFoundException;
import alluxio.exception.status.UnavailableException;
import io.eccache.testkit.TestData;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.common.ClientKeys;
import io.eccache.common.ObjectPaths;
import io.eccache.common.ReadChoice;
import io.eccache.common.RedundancyScheme;
import io.eccache.testkit.SharedCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * PUT and GET end to end over a real cluster of 5 workers, shared with the other client tests
 * ({@link ClientTestCluster}); each test has its own client and keys, and the workers it stops are
 * started again after it.
 */
class EcCacheClientTest {
  private static final int WORKERS = ClientTestCluster.WORKERS;
  private static final int MB = 1_000_000;
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

  @Test
  void roundTripsByteForByte() throws Exception {
    Random random = new Random(42);
    int[] sizes = {0, 1, MB - 1, MB, MB + 1, 40 * MB, 1 + random.nextInt(3 * MB),
        1 + random.nextInt(100_000), 7};
    int[][] codes = {{3, 2}, {4, 1}, {2, 1}, {5, 0}};
    int n = 0;
    for (int size : sizes) {
      for (int[] code : codes) {
        if (size == 40 * MB && code[0] != 3) {
          continue; // one big object is enough
        }
        String key = "roundtrip/" + size + "-rs" + code[0] + code[1];
        byte[] data = bytes(size, n++);
        cache.put(key, data, PutOptions.code(code[0], code[1]));
        assertArrayEquals(data, cache.get(key), key);
        assertArrayEquals(data, cache.get(key, 0), key + " with delta 0");
        ObjectStat stat = cache.stat(key);
        assertEquals(size, stat.size());
        assertEquals(RedundancyScheme.erasureCoded(code[0], code[1]), stat.scheme());
      }
    }
  }

  @Test
  void splitsLandOnDistinctWorkers() throws Exception {
    cache.put("distinct", bytes(3 * MB, 9), PutOptions.code(3, 2));
    String dir = new ObjectPaths("/.eccache").objectDirectory("distinct");
    Set<String> hosts = new HashSet<>();
    int splits = 0;
    for (var write : cluster.fileSystem().listStatus(new AlluxioURI(dir))) {
      for (var split : cluster.fileSystem().listStatus(new AlluxioURI(write.getPath()))) {
        splits++;
        var locations = split.getFileBlockInfos().get(0).getBlockInfo().getLocations();
        assertEquals(1, locations.size(), split.getPath() + " is cached on exactly one worker");
        hosts.add(locations.get(0).getWorkerAddress().getHost());
      }
    }
    assertEquals(5, splits);
    assertEquals(5, hosts.size(), "5 splits on 5 distinct workers");
  }

  @Test
  void aRePutReplacesTheObject() throws Exception {
    cache.put("versioned", bytes(500_000, 1), PutOptions.code(2, 1));
    byte[] second = bytes(700_000, 2);
    cache.put("versioned", second, PutOptions.code(3, 1));
    assertArrayEquals(second, cache.get("versioned"));
    assertTrue(cache.list("versioned").contains("versioned"));
  }

  @Test
  void badInputGetsATypedErrorThatSaysWhatToDo() throws Exception {
    cache.put("to-delete", bytes(500_000, 1), PutOptions.code(2, 1));
    NotFoundException missing = assertThrows(NotFoundException.class, () -> cache.get("nope"));
    assertTrue(missing.getMessage().contains("PUT it first"), missing.getMessage());
    FailedPreconditionException wide = assertThrows(FailedPreconditionException.class,
        () -> cache.put("wide", bytes(10, 1), PutOptions.code(4, 2)));
    assertTrue(wide.getMessage().contains("add workers"), wide.getMessage());
    assertThrows(NotFoundException.class, () -> cache.get("wide"), "nothing half-written is visible");
    assertThrows(InvalidArgumentException.class, () -> cache.get(""));
    assertThrows(InvalidArgumentException.class, () -> cache.put(null, new byte[1]));
    assertThrows(IllegalArgumentException.class, () -> PutOptions.code(0, 1));
    assertThrows(IllegalArgumentException.class, () -> cache.get("to-delete", -1));
    assertTrue(cache.delete("to-delete"));
    assertFalse(cache.delete("to-delete"));
    assertThrows(NotFoundException.class, () -> cache.get("to-delete"));
  }

  @Test
  void aCorruptSplitIsDetectedAndAnotherReadInstead() throws Exception {
    byte[] data = bytes(600_000, 77);
    cache.put("corrupt", data, PutOptions.code(3, 2));
    String dir = new ObjectPaths("/.eccache").objectDirectory("corrupt");
    String write = cluster.fileSystem().listStatus(new AlluxioURI(dir)).get(0).getPath();
    URIStatus d00 = cluster.fileSystem().getStatus(new AlluxioURI(write + "/d00"));
    long blockId = d00.getBlockIds().get(0);
    Path blockFile = findFile(cluster.directory(), Long.toString(blockId));
    byte[] stored = Files.readAllBytes(blockFile);
    stored[12345] ^= 0x5a;
    Files.write(blockFile, stored);
    for (int delta : new int[] {0, 1, 2}) {
      assertArrayEquals(data, cache.get("corrupt", delta), "delta " + delta);
    }
  }

  /**
   * The file named {@code name} under {@code root}. Other tests' blocks come and go meanwhile (a
   * worker removing a deleted object's blocks), so a file that vanishes mid-walk is skipped.
   */
  private static Path findFile(Path root, String name) throws IOException {
    Path[] found = new Path[1];
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        if (file.getFileName().toString().equals(name)) {
          found[0] = file;
          return FileVisitResult.TERMINATE;
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) {
        return FileVisitResult.CONTINUE;
      }
    });
    if (found[0] == null) {
      throw new NoSuchFileException(name, null, "not under " + root);
    }
    return found[0];
  }

  @Test
  void theSha256IsComputedWhenThePutOrTheClientAsksForIt() throws Exception {
    byte[] data = bytes(300_000, 9);
    String expected = com.google.common.io.BaseEncoding.base16().lowerCase()
        .encode(java.security.MessageDigest.getInstance("SHA-256").digest(data));
    cache.put("sum/default", data, PutOptions.code(2, 1));
    assertEquals(java.util.Optional.empty(), cache.stat("sum/default").sha256(),
        "off by default for API PUTs");
    cache.put("sum/asked", data, PutOptions.code(2, 1).sha256(true));
    assertEquals(expected, cache.stat("sum/asked").sha256().orElseThrow());
    cache.put("sum/stream", new java.io.ByteArrayInputStream(data), -1,
        PutOptions.code(2, 1).sha256(true));
    assertEquals(expected, cache.stat("sum/stream").sha256().orElseThrow());
    try (EcCacheClient summing = ClientTestCluster.client(cluster, ClientKeys.PUT_SHA256, true)) {
      summing.put("sum/keyed", data, PutOptions.code(2, 1));
      assertEquals(expected, summing.stat("sum/keyed").sha256().orElseThrow());
      summing.put("sum/declined", data, PutOptions.code(2, 1).sha256(false));
      assertEquals(java.util.Optional.empty(), summing.stat("sum/declined").sha256());
    }
  }

  @Test
  void aKeyOnlyInS3IsReadThroughAndCached() throws Exception {
    byte[] data = bytes(345_678, 5);
    // Put there by someone else, straight into the bucket: Alluxio has never seen it.
    Path object = cluster.s3File("external/data.bin");
    Files.createDirectories(object.getParent());
    Files.write(object, data);
    cache.readStatistics().reset();
    assertArrayEquals(data, cache.get("external/data.bin"));
    assertEquals(1, cache.readStatistics().fallbacks());
    assertEquals(data.length, cache.readStatistics().fallbackBytes());
    assertEquals(Map.of(), cache.readStatistics().bytesByWorker(), "no split was read");
    ObjectStat stat = cache.stat("external/data.bin");
    assertEquals(RedundancyScheme.replicated(2), stat.scheme(),
        "below 1 MB the coordinator stores whole copies");
    assertArrayEquals(data, cache.get("external/data.bin"));
    assertEquals(1, cache.readStatistics().fallbacks(), "the second GET is served by the cache");
    assertEquals(data.length, cache.readStatistics().fallbackBytes());
  }

  @Test
  void aThroughPutReachesS3() throws Exception {
    byte[] data = bytes(1_234_567, 3);
    cache.put("persisted/object", data, PutOptions.code(3, 2).writeMode(WriteMode.THROUGH));
    Path object = cluster.s3File("persisted~2Fobject"); // one file under the prefix: see UnderStorePaths
    assertArrayEquals(data, Files.readAllBytes(object));
    assertArrayEquals(data, cache.get("persisted/object"));
  }

  @Test
  void everyObjectStillReadsWithAWorkerStopped() throws Exception {
    List<byte[]> objects = new java.util.ArrayList<>();
    for (int i = 0; i < 12; i++) {
      byte[] data = bytes(200_000 + i * 1000, 100 + i);
      objects.add(data);
      cache.put("survivor-" + i, data, PutOptions.code(3, 2));
    }
    cluster.stopWorker(1);
    cluster.awaitLiveWorkers(WORKERS - 1);
    int degraded = 0;
    for (int i = 0; i < objects.size(); i++) {
      ObjectStat stat = cache.stat("survivor-" + i);
      if (stat.liveSplits() < 5) {
        degraded++;
      }
      assertArrayEquals(objects.get(i), cache.get("survivor-" + i), "survivor-" + i);
      assertArrayEquals(objects.get(i), cache.get("survivor-" + i, 0), "survivor-" + i + " delta 0");
    }
    assertTrue(degraded > 0, "some objects had a split on the stopped worker");
    assertTrue(cache.readStatistics().decodes() > 0);
    cluster.startWorker(1);
    cluster.awaitLiveWorkers(WORKERS);
  }

  @Test
  void hundredsOfGetsWithAWorkerDyingLeaveNoBufferOut() throws Exception {
    List<byte[]> objects = new java.util.ArrayList<>();
    for (int i = 0; i < 6; i++) {
      byte[] data = bytes(300_000 + i * 999, 300 + i);
      objects.add(data);
      cache.put("pooled-" + i, data, PutOptions.code(3, 2));
    }
    try (EcCacheClient dataFirst = ClientTestCluster.client(cluster, ClientKeys.READ_CHOICE,
        ReadChoice.DATA_FIRST)) {
      // Both choices, delta = 1: late binding's extra read is running when most GETs return.
      // The worker dies without notice: until the master notices, reads from it fail and are
      // replaced; after, its splits are missing and decoded.
      cluster.stopWorker(2);
      long grownBy = 0;
      for (int i = 0; i < 300; i++) {
        EcCacheClient client = i % 2 == 0 ? cache : dataFirst;
        int o = i % objects.size();
        assertArrayEquals(objects.get(o), client.get("pooled-" + o, 1), "GET " + i);
        if (i == 100) {
          cluster.awaitLiveWorkers(WORKERS - 1);
          grownBy = cache.context().pool().allocations() + dataFirst.context().pool().allocations();
        }
      }
      for (EcCacheClient client : List.of(cache, dataFirst)) {
        DirectBufferPool pool = client.context().pool();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (pool.outstanding() != 0 && System.nanoTime() < deadline) {
          Thread.sleep(10);
        }
        assertEquals(0, pool.outstanding(), "pooled buffers not given back");
      }
      long grown = cache.context().pool().allocations() + dataFirst.context().pool().allocations();
      assertTrue(grown - grownBy <= 8, "the pools kept allocating: " + grownBy + " buffers after"
          + " 100 GETs, " + grown + " after 300");
    } finally {
      cluster.startWorker(2);
      cluster.awaitLiveWorkers(WORKERS);
    }
  }

  @Test
  void withMoreThanRWorkersGoneReadsFallBackToS3() throws Exception {
    byte[] data = bytes(900_000, 4);
    cache.put("fragile", data, PutOptions.code(3, 1).writeMode(WriteMode.THROUGH));
    byte[] cachedOnly = bytes(1000, 8);
    cache.put("cached-only", cachedOnly, PutOptions.code(3, 1));
    for (int i = 0; i < 3; i++) {
      cluster.stopWorker(i);
    }
    cluster.awaitLiveWorkers(WORKERS - 3);
    cache.readStatistics().reset();
    // 2 live workers: at most 2 of 4 splits, fewer than k = 3, for every object.
    assertArrayEquals(data, cache.get("fragile"));
    assertEquals(1, cache.readStatistics().fallbacks());
    assertEquals(data.length, cache.readStatistics().fallbackBytes());
    UnavailableException lost = assertThrows(UnavailableException.class,
        () -> cache.get("cached-only"));

    assertTrue(lost.getMessage().contains("PUT the object again"), lost.getMessage());
    for (int i = 0; i < 3; i++) {
      cluster.startWorker(i);
    }
    cluster.awaitLiveWorkers(WORKERS);
  }

  @Test
  void aStaleS3CopyIsNeverServed() throws Exception {
    byte[] old = bytes(50_000, 1);
    byte[] current = bytes(50_000, 2);
    cache.put("stale", old, PutOptions.code(2, 1).writeMode(WriteMode.THROUGH));
    cache.put("stale", current, PutOptions.code(3, 0)); // cache only: S3 still has `old`
    // Lose the cached splits: stop every worker holding one.
    Set<Integer> holders = new HashSet<>();
    String dir = new ObjectPaths("/.eccache").objectDirectory("stale");
    String write = cluster.fileSystem().listStatus(new AlluxioURI(dir)).get(0).getPath();
    for (var split : cluster.fileSystem().listStatus(new AlluxioURI(write))) {
      String host = split.getFileBlockInfos().get(0).getBlockInfo().getLocations().get(0)
          .getWorkerAddress().getHost();
      holders.add(cluster.workerIndex(host));
    }
    int stopped = 0;
    for (int w : holders) {
      if (stopped++ < 1) {
        cluster.stopWorker(w);
      }
    }
    cluster.awaitLiveWorkers(WORKERS - 1);
    assertThrows(UnavailableException.class, () -> cache.get("stale"),
        "RS(3,0) missing a split must not fall back to the older S3 copy");
    for (int w : holders) {
      if (!cluster.isWorkerRunning(w)) {
        cluster.startWorker(w);
      }
    }
    cluster.awaitLiveWorkers(WORKERS);
    assertArrayEquals(current, cache.get("stale"));
  }

  @Test
  void concurrentPutsOfOneKeyLeaveOneWholeVersion() throws Exception {
    byte[][] versions = new byte[4][];
    for (int v = 0; v < versions.length; v++) {
      versions[v] = bytes(400_000 + v * 1000, 1000 + v);
    }
    cache.put("contended", versions[0], PutOptions.code(3, 1));
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(3);
    try {
      List<java.util.concurrent.Future<?>> tasks = new java.util.ArrayList<>();
      for (int w = 0; w < 2; w++) {
        final int writer = w;
        tasks.add(pool.submit(() -> {
          for (int i = 0; i < 5; i++) {
            cache.put("contended", versions[1 + (writer + i) % 3], PutOptions.code(3, 1));
          }
          return null;
        }));
      }
      tasks.add(pool.submit(() -> {
        for (int i = 0; i < 20; i++) {
          byte[] got = cache.get("contended");
          assertTrue(java.util.Arrays.stream(versions).anyMatch(v -> java.util.Arrays.equals(v, got)),
              "a GET during concurrent PUTs returned bytes of no single version");
        }
        return null;
      }));
      for (java.util.concurrent.Future<?> t : tasks) {
        t.get();
      }
    } finally {
      pool.shutdownNow();
    }
    byte[] last = cache.get("contended");
    assertTrue(java.util.Arrays.stream(versions).anyMatch(v -> java.util.Arrays.equals(v, last)));
    assertEquals(List.of("contended"), cache.list("contended"));
    // Only the committed write's splits remain.
    String dir = new ObjectPaths("/.eccache").objectDirectory("contended");
    assertEquals(1, cluster.fileSystem().listStatus(new AlluxioURI(dir)).size());
  }

  @Test
  void streamedPutsAndGetsSpanManyStripesAndWindows() throws Exception {
    byte[] data = bytes(3_000_001, 12);
    // Length not known: striped as it arrives. 64 KB cells, k = 3: 16 stripes.
    cache.put("streamed", new java.io.ByteArrayInputStream(data), PutOptions.code(3, 2));
    ObjectStat stat = cache.stat("streamed");
    assertEquals(data.length, stat.size());
    assertEquals(16, stat.stripes());
    assertArrayEquals(data, cache.get("streamed"));
    assertArrayEquals(data, readInOddChunks(cache.openStream("streamed", 1)));
    assertArrayEquals(data, readInOddChunks(cache.openStream("streamed", 0)));
    // Length given; below the small-object threshold the default is whole copies, streamed too.
    byte[] small = bytes(300_000, 13);
    cache.put("streamed-small", new java.io.ByteArrayInputStream(small), small.length,
        PutOptions.defaults());
    assertEquals(RedundancyScheme.Kind.REPLICATED, cache.stat("streamed-small").scheme().kind());
    assertArrayEquals(small, readInOddChunks(cache.openStream("streamed-small")));
    // A stream shorter or longer than declared is refused and the stored version kept.
    for (long declared : new long[] {data.length - 1, data.length + 1}) {
      alluxio.exception.status.InvalidArgumentException wrong = assertThrows(
          alluxio.exception.status.InvalidArgumentException.class, () -> cache.put("streamed",
              new java.io.ByteArrayInputStream(bytes(data.length, 99)), declared,
              PutOptions.code(3, 2)));
      assertTrue(wrong.getMessage().contains("exact length"), wrong.getMessage());
    }
    assertArrayEquals(data, cache.get("streamed"));
    // An object larger than an array is refused by get(key), which says to stream it.
    alluxio.exception.status.InvalidArgumentException huge = assertThrows(
        alluxio.exception.status.InvalidArgumentException.class,
        () -> EcCacheClient.checkArraySize("big", 10L << 30));
    assertTrue(huge.getMessage().contains("openStream"), huge.getMessage());
  }

  /** Reads a stream to its end in chunks of varying sizes, as a consumer might. */
  private static byte[] readInOddChunks(java.io.InputStream in) throws Exception {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    byte[] buf = new byte[100_003];
    Random sizes = new Random(7);
    try (in) {
      int first = in.read();
      if (first < 0) {
        return out.toByteArray();
      }
      out.write(first);
      for (int n; (n = in.read(buf, 0, 1 + sizes.nextInt(buf.length))) >= 0; ) {
        out.write(buf, 0, n);
      }
    }
    return out.toByteArray();
  }

  @Test
  void aStreamFinishesFromS3WhenWorkersDieMidRead() throws Exception {
    byte[] data = bytes(2_500_000, 14);
    cache.put("mid-read", data, PutOptions.code(3, 1).writeMode(WriteMode.THROUGH));
    cache.readStatistics().reset();
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    try (java.io.InputStream in = cache.openStream("mid-read")) {
      byte[] first = in.readNBytes(500_000); // the first windows come from the cache
      out.write(first);
      for (int i = 0; i < 3; i++) {
        cluster.stopWorker(i);
      }
      in.transferTo(out); // 2 workers left: fewer than k splits, so the rest comes from S3
    } finally {
      for (int i = 0; i < 3; i++) {
        cluster.startWorker(i);
      }
    }
    assertArrayEquals(data, out.toByteArray());
    assertEquals(1, cache.readStatistics().fallbacks());
    cluster.awaitLiveWorkers(WORKERS);
  }

  @Test
  void anAsyncPutReachesS3AndIsThenMarkedPersisted() throws Exception {
    byte[] data = bytes(1_500_000, 15);
    cache.put("async", data, PutOptions.code(3, 1).writeMode(WriteMode.ASYNC));
    Path object = cluster.s3File("async");
    long deadline = System.currentTimeMillis() + 60_000;
    while (!cache.stat("async").persisted() && System.currentTimeMillis() < deadline) {
      Thread.sleep(50);
    }
    assertTrue(cache.stat("async").persisted(), "marked persisted once the copy is in S3");
    assertArrayEquals(data, Files.readAllBytes(object));
  }

  @Test
  void withS3DownAThroughPutFailsCleanlyAndTheCacheStillServes() throws Exception {
    byte[] before = bytes(1_200_000, 16);
    cache.put("s3-outage", before, PutOptions.code(3, 1).writeMode(WriteMode.THROUGH));
    cluster.s3().stop();
    try {
      java.io.IOException failed = assertThrows(java.io.IOException.class, () -> cache.put(
          "s3-outage", bytes(1_200_000, 17), PutOptions.code(3, 1).writeMode(WriteMode.THROUGH)));
      assertTrue(failed.getMessage().contains("S3"), failed.getMessage());
      assertArrayEquals(before, cache.get("s3-outage"), "the stored version is untouched");
      byte[] cachedOnly = bytes(1_100_000, 18);
      cache.put("during-outage", cachedOnly, PutOptions.code(3, 1));
      assertArrayEquals(cachedOnly, cache.get("during-outage"));
      assertThrows(java.io.IOException.class, () -> cache.get("only-in-s3-but-s3-is-down"));
    } finally {
      cluster.s3().restart();
    }
    // The failed PUT left nothing in the way: the key is writable and readable again.
    byte[] after = bytes(900_000, 19);
    cache.put("s3-outage", after, PutOptions.code(3, 1).writeMode(WriteMode.THROUGH));
    assertTrue(cache.evict("s3-outage"));
    assertArrayEquals(after, cache.get("s3-outage"));
  }

  @Test
  void smallObjectsAreStoredAsWholeCopiesOnDistinctWorkers() throws Exception {
    byte[] small = bytes(200_000, 13);
    cache.put("small", small);
    ObjectStat stat = cache.stat("small");
    assertEquals(RedundancyScheme.replicated(2), stat.scheme(), "2 copies by default");
    assertTrue(stat.tuned(), "small objects take part in the popularity budget");
    String dir = new ObjectPaths("/.eccache").objectDirectory("small");
    String write = cluster.fileSystem().listStatus(new AlluxioURI(dir)).get(0).getPath();
    Set<String> hosts = new HashSet<>();
    for (var copy : cluster.fileSystem().listStatus(new AlluxioURI(write))) {
      assertEquals(small.length, copy.getLength(), copy.getPath() + " is a whole copy");
      hosts.add(copy.getFileBlockInfos().get(0).getBlockInfo().getLocations().get(0)
          .getWorkerAddress().getHost());
    }
    assertEquals(2, hosts.size());
    assertArrayEquals(small, cache.get("small"));
    // Either copy serves it: stop the worker of one.
    int stopped = cluster.workerIndex(hosts.iterator().next());
    cluster.stopWorker(stopped);
    cluster.awaitLiveWorkers(WORKERS - 1);
    for (int i = 0; i < 5; i++) {
      assertArrayEquals(small, cache.get("small"));
    }
    cluster.startWorker(stopped);
    cluster.awaitLiveWorkers(WORKERS);
    // Large objects and explicit codes are still split.
    cache.put("large-default", bytes(3_000_000, 14));
    assertEquals(RedundancyScheme.Kind.ERASURE_CODED,
        cache.stat("large-default").scheme().kind());
  }
}
