package io.eccache.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.AlluxioURI;
import alluxio.client.block.stream.BlockWorkerClient;
import alluxio.client.file.FileInStream;
import alluxio.client.file.FileOutStream;
import alluxio.client.file.FileSystem;
import alluxio.client.file.FileSystemContext;
import alluxio.client.file.URIStatus;
import alluxio.client.file.options.InStreamOptions;
import alluxio.conf.Configuration;
import alluxio.conf.InstancedConfiguration;
import alluxio.conf.PropertyKey;
import alluxio.grpc.CacheRequest;
import alluxio.grpc.CreateFilePOptions;
import alluxio.grpc.OpenFilePOptions;
import alluxio.grpc.ReadPType;
import alluxio.grpc.WritePType;
import alluxio.resource.CloseableResource;
import alluxio.wire.BlockLocation;
import alluxio.wire.FileBlockInfo;
import alluxio.wire.WorkerNetAddress;
import io.eccache.policy.agar.AgarRegions;
import io.eccache.testkit.LoopbackRegions.RunningRegion;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stock Alluxio's own mechanics over loopback regions, as Agar's integration will use them: chunks
 * written THROUGH to a region mount, read NO_CACHE from the region, cached on one chosen worker
 * (a synchronous CacheRequest), freed, and read while the region is down.
 */
@Timeout(180)
class LoopbackRegionsTest {
  private static final Logger LOG = LoggerFactory.getLogger(LoopbackRegionsTest.class);

  /** EmbeddedClusterTest's spec, so the two classes share one cluster. */
  @RegisterExtension
  static final SharedCluster CLUSTER = SharedCluster.of(EmbeddedCluster.builder().workers(3)
      .workerMemoryBytes(64L << 20)
      .workerTimeout("3s"));

  private static LoopbackRegions regions;
  private static RunningRegion near;
  private static RunningRegion far;

  @BeforeAll
  static void mountRegions() throws Exception {
    // Table I scaled by 1/8: Dublin 25 ms, N. Virginia 75 ms per chunk read.
    regions = LoopbackRegions.start(null,
        LoopbackRegions.specs(AgarRegions.fromFrankfurt(0.125).subList(1, 3), 0));
    near = regions.regions().get(0);
    far = regions.regions().get(1);
    regions.mount(CLUSTER.cluster().fileSystem(), LoopbackRegions.FAIL_FAST);
  }

  @AfterAll
  static void unmountRegions() throws Exception {
    if (regions != null) {
      try {
        regions.unmount(CLUSTER.cluster().fileSystem());
      } finally {
        regions.close();
      }
    }
  }

  @AfterEach
  void regionsUp() throws Exception {
    for (RunningRegion r : regions.regions()) {
      r.proxy().setDown(false);
    }
  }

  private static FileSystem fs() throws Exception {
    return CLUSTER.cluster().fileSystem();
  }

  private static AlluxioURI chunkIn(RunningRegion region, String name) {
    return new AlluxioURI(region.mountPoint() + "/" + CLUSTER.key(name));
  }

  private static byte[] writeThrough(AlluxioURI uri, int size) throws Exception {
    byte[] data = new byte[size];
    new Random(uri.hashCode()).nextBytes(data);
    try (FileOutStream out = fs().createFile(uri, CreateFilePOptions.newBuilder()
        .setWriteType(WritePType.THROUGH).setRecursive(true).build())) {
      out.write(data);
    }
    return data;
  }

  private static byte[] read(AlluxioURI uri, ReadPType type) throws Exception {
    return read(fs(), uri, type);
  }

  private static byte[] read(FileSystem fs, AlluxioURI uri, ReadPType type) throws Exception {
    try (FileInStream in = fs.openFile(uri,
        OpenFilePOptions.newBuilder().setReadType(type).build())) {
      return in.readAllBytes();
    }
  }

  /** Hosts of the workers holding the file's blocks, as the master knows them. */
  private static List<String> cachedOn(AlluxioURI uri) throws Exception {
    List<String> hosts = new ArrayList<>();
    for (FileBlockInfo b : fs().getStatus(uri).getFileBlockInfos()) {
      for (BlockLocation l : b.getBlockInfo().getLocations()) {
        hosts.add(l.getWorkerAddress().getHost());
      }
    }
    return hosts;
  }

  /**
   * Caches every block of the file on worker {@code i} from the file's under store: Alluxio 2.9's
   * CacheRequest, as {@code fs load} and async caching send it, but synchronous. The worker reads
   * from the UFS because the source host is local to it (every 127.x address is).
   */
  private static void cacheOn(int i, AlluxioURI uri) throws Exception {
    EmbeddedCluster cluster = CLUSTER.cluster();
    FileSystemContext context = cluster.fileSystemContext();
    WorkerNetAddress worker = cluster.workerAddress(i);
    URIStatus status = fs().getStatus(uri);
    InStreamOptions options = new InStreamOptions(status, context.getClusterConf());
    for (FileBlockInfo b : status.getFileBlockInfos()) {
      long blockId = b.getBlockInfo().getBlockId();
      CacheRequest request = CacheRequest.newBuilder().setBlockId(blockId)
          .setLength(b.getBlockInfo().getLength())
          .setOpenUfsBlockOptions(options.getOpenUfsBlockOptions(blockId))
          .setSourceHost(worker.getHost()).setSourcePort(worker.getDataPort())
          .setAsync(false).build();
      try (CloseableResource<BlockWorkerClient> client =
          context.acquireBlockWorkerClient(worker)) {
        client.get().cache(request);
      }
    }
  }

  private static long millisSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  private static void awaitUncached(AlluxioURI uri, long timeoutMs) throws Exception {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (!cachedOn(uri).isEmpty() || fs().getStatus(uri).getInAlluxioPercentage() != 0) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError(uri + " still cached on " + cachedOn(uri) + " " + timeoutMs
            + " ms after free (workers drop freed blocks on their heartbeat)");
      }
      Thread.sleep(100);
    }
  }

  @Test
  void aThroughWriteLandsInTheRegionsBucketAndNoWorker() throws Exception {
    AlluxioURI uri = chunkIn(far, "chunk-0");
    long writes = far.proxy().writesToTarget();
    long start = System.nanoTime();
    byte[] data = writeThrough(uri, 64 << 10);
    LOG.info("THROUGH write of 64 KiB to {} ({} per round trip): {} ms, {} request bursts",
        far.slug(), far.spec().readLatency(), millisSince(start),
        far.proxy().writesToTarget() - writes);

    assertArrayEquals(data, Files.readAllBytes(far.objectFile(uri.getPath())));
    assertFalse(Files.exists(near.s3().dataDir().resolve(near.bucket())
        .resolve(CLUSTER.key("chunk-0"))));
    URIStatus status = fs().getStatus(uri);
    assertTrue(status.isPersisted());
    assertEquals(0, status.getInAlluxioPercentage());
    assertEquals(List.of(), cachedOn(uri));
  }

  @Test
  void aNoCacheReadComesFromTheRegionAndCachesNothing() throws Exception {
    // Alluxio's own cost of such a read, from the root mount's undelayed S3, for the log.
    AlluxioURI local = new AlluxioURI("/" + CLUSTER.key("undelayed"));
    writeThrough(local, 64 << 10);
    for (int i = 0; i < 3; i++) {
      long start = System.nanoTime();
      read(local, ReadPType.NO_CACHE);
      LOG.info("NO_CACHE read of 64 KiB from the undelayed root mount: {} ms", millisSince(start));
    }
    for (RunningRegion region : regions.regions()) {
      AlluxioURI uri = chunkIn(region, "chunk");
      byte[] data = writeThrough(uri, 64 << 10);
      long writes = region.proxy().writesToTarget();
      long connections = region.proxy().acceptedConnections();
      long start = System.nanoTime();
      assertArrayEquals(data, read(uri, ReadPType.NO_CACHE));
      long tookMs = millisSince(start);
      long requests = region.proxy().writesToTarget() - writes;
      LOG.info("NO_CACHE read of 64 KiB from {} ({} per read, {} one way): {} ms, {} request "
              + "bursts, {} new connections", region.slug(), region.spec().readLatency(),
          region.proxy().oneWayDelay(), tookMs, requests,
          region.proxy().acceptedConnections() - connections);
      assertTrue(tookMs >= region.spec().readLatency().toMillis(),
          "a read from " + region.slug() + " took " + tookMs + " ms");
      assertTrue(requests >= 1, "the read sent nothing to the region");
      // Twice more: the same cost each time, nothing cached in between.
      for (int i = 0; i < 2; i++) {
        start = System.nanoTime();
        assertArrayEquals(data, read(uri, ReadPType.NO_CACHE));
        tookMs = millisSince(start);
        LOG.info("NO_CACHE read again from {}: {} ms", region.slug(), tookMs);
        assertTrue(tookMs >= region.spec().readLatency().toMillis());
      }
      assertEquals(List.of(), cachedOn(uri));
      assertEquals(0, fs().getStatus(uri).getInAlluxioPercentage());
    }
  }

  @Test
  void aChunkCachedOnOneChosenWorkerIsReadWithoutItsRegion() throws Exception {
    AlluxioURI uri = chunkIn(far, "chunk-cached");
    byte[] data = writeThrough(uri, 64 << 10);
    int chosen = 1;

    long start = System.nanoTime();
    cacheOn(chosen, uri);
    LOG.info("synchronous CacheRequest from {} took {} ms", far.slug(), millisSince(start));

    assertEquals(List.of(CLUSTER.cluster().workerHost(chosen)), cachedOn(uri));
    assertEquals(100, fs().getStatus(uri).getInAlluxioPercentage());
    far.proxy().setDown(true);
    long writes = far.proxy().writesToTarget();
    assertArrayEquals(data, read(uri, ReadPType.NO_CACHE));
    assertArrayEquals(data, read(uri, ReadPType.CACHE));
    assertEquals(writes, far.proxy().writesToTarget());
    // Reads leave it where it was: still on the chosen worker alone.
    assertEquals(List.of(CLUSTER.cluster().workerHost(chosen)), cachedOn(uri));
  }

  @Test
  void freeUncachesAndTheRegionServesAgain() throws Exception {
    AlluxioURI uri = chunkIn(near, "chunk-freed");
    byte[] data = writeThrough(uri, 64 << 10);
    cacheOn(2, uri);
    assertEquals(List.of(CLUSTER.cluster().workerHost(2)), cachedOn(uri));

    long start = System.nanoTime();
    fs().free(uri);
    awaitUncached(uri, 15_000);
    LOG.info("free took {} ms to show in block locations", millisSince(start));

    start = System.nanoTime();
    assertArrayEquals(data, read(uri, ReadPType.NO_CACHE));
    long tookMs = millisSince(start);
    assertTrue(tookMs >= near.spec().readLatency().toMillis(), "read after free took " + tookMs);
    assertTrue(fs().exists(uri));
    assertArrayEquals(data, Files.readAllBytes(near.objectFile(uri.getPath())));
  }

  @Test
  void aReadFromARegionThatIsDownFailsWithinABound() throws Exception {
    AlluxioURI uri = chunkIn(near, "chunk-down");
    writeThrough(uri, 64 << 10);
    near.proxy().setDown(true);

    // The cluster's client: the worker's GET is refused at once (S3 SDK: 3 retries in well under a
    // second), and the client retries the block for alluxio.user.block.read.retry.max.duration
    // (EmbeddedCluster: 10 s).
    long start = System.nanoTime();
    Exception e = assertThrows(Exception.class, () -> read(fs(), uri, ReadPType.NO_CACHE));
    long tookMs = millisSince(start);
    LOG.info("NO_CACHE read with {} down failed after {} ms (block read retry {}): {}",
        near.slug(), tookMs, Configuration.getString(PropertyKey.USER_BLOCK_READ_RETRY_MAX_DURATION),
        e.toString());
    assertTrue(tookMs < 60_000, "failing took " + tookMs + " ms");

    // A client of its own with a short block read retry: the caller's bound.
    InstancedConfiguration conf = Configuration.copyGlobal();
    conf.set(PropertyKey.USER_BLOCK_READ_RETRY_MAX_DURATION, "200ms");
    try (FileSystemContext context = FileSystemContext.create(conf);
        FileSystem failFast = FileSystem.Factory.create(context)) {
      start = System.nanoTime();
      e = assertThrows(Exception.class, () -> read(failFast, uri, ReadPType.NO_CACHE));
      tookMs = millisSince(start);
      LOG.info("NO_CACHE read with {} down, block read retry 200ms, failed after {} ms: {}",
          near.slug(), tookMs, e.toString());
      // Measured well under this; the margin is for a busy machine.
      assertTrue(tookMs < 30_000, "failing took " + tookMs + " ms");

      // Caching it on a worker fails too, and leaves nothing cached (the RPC's deadline is
      // alluxio.user.rpc.retry.max.duration).
      start = System.nanoTime();
      e = assertThrows(Exception.class, () -> cacheOn(0, uri));
      LOG.info("CacheRequest with {} down failed after {} ms: {}", near.slug(), millisSince(start),
          e.toString());
      assertEquals(List.of(), cachedOn(uri));

      // A THROUGH write to the region fails too (the worker's PUT is refused).
      AlluxioURI other = chunkIn(near, "chunk-written-while-down");
      start = System.nanoTime();
      e = assertThrows(Exception.class, () -> writeThrough(other, 64 << 10));
      LOG.info("THROUGH write with {} down failed after {} ms: {}", near.slug(), millisSince(start),
          e.toString());
      assertFalse(Files.exists(near.objectFile(other.getPath())));

      near.proxy().setDown(false);
      assertEquals(64 << 10, read(failFast, uri, ReadPType.NO_CACHE).length);
    }
  }
}
