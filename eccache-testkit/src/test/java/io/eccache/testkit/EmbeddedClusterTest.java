package io.eccache.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.AlluxioURI;
import alluxio.client.file.FileInStream;
import alluxio.client.file.FileOutStream;
import alluxio.client.file.FileSystem;
import alluxio.client.file.URIStatus;
import alluxio.grpc.CreateFilePOptions;
import alluxio.grpc.GrpcUtils;
import alluxio.grpc.WritePType;
import alluxio.wire.BlockLocation;
import alluxio.wire.WorkerInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A real cluster of 3 workers on 127.0.0.2-4 over s3proxy, shared (see SharedCluster). */
class EmbeddedClusterTest {
  @RegisterExtension
  static final SharedCluster CLUSTER = SharedCluster.of(EmbeddedCluster.builder().workers(3)
      .workerMemoryBytes(64L << 20)
      .workerTimeout("3s"));
  private EmbeddedCluster cluster;

  @BeforeEach
  void cluster() throws Exception {
    cluster = CLUSTER.cluster();
  }

  /** Closing (here, once the class is done) stops every process and removes every directory. */
  @AfterAll
  static void closeStopsEverythingAndRemovesTheDirectory() throws Exception {
    EmbeddedCluster cluster = CLUSTER.cluster();
    Path dir = cluster.directory();
    CLUSTER.discard(); // the next class of this spec, if any, starts another
    assertFalse(cluster.s3().isRunning(), "s3proxy child process must be gone");
    assertFalse(Files.exists(dir), "cluster directory must be removed");
  }

  private static byte[] bytes(int n, long seed) {
    return TestData.randomBytes(n, seed);
  }

  private static void write(FileSystem fs, String path, byte[] data, CreateFilePOptions options)
      throws Exception {
    try (FileOutStream out = fs.createFile(new AlluxioURI(path), options)) {
      out.write(data);
    }
  }

  private static byte[] read(FileSystem fs, String path) throws Exception {
    try (FileInStream in = fs.openFile(new AlluxioURI(path))) {
      return in.readAllBytes();
    }
  }

  @Test
  void workersRegisterOnTheirOwnLoopbackAddresses() throws Exception {
    Set<String> hosts = cluster.blockMaster().getWorkerInfoList().stream()
        .map(w -> w.getAddress().getHost()).collect(Collectors.toCollection(TreeSet::new));
    assertEquals(Set.of("127.0.0.2", "127.0.0.3", "127.0.0.4"), hosts);
  }

  @Test
  void aWritePinnedToAWorkerIsCachedThere() throws Exception {
    FileSystem fs = cluster.fileSystem();
    for (int i = 0; i < cluster.workerCount(); i++) {
      byte[] data = bytes(300_000 + i, i);
      String path = "/pinned-" + i;
      write(fs, path, data, CreateFilePOptions.newBuilder().setWriteType(WritePType.MUST_CACHE)
          .setWorkerLocation(GrpcUtils.toProto(cluster.workerAddress(i))).setRecursive(true).build());
      URIStatus status = fs.getStatus(new AlluxioURI(path));
      List<BlockLocation> locations = status.getFileBlockInfos().get(0).getBlockInfo().getLocations();
      assertEquals(1, locations.size());
      assertEquals(cluster.workerHost(i), locations.get(0).getWorkerAddress().getHost());
      assertArrayEquals(data, read(fs, path));
    }
  }

  @Test
  void aThroughWriteReachesS3() throws Exception {
    byte[] data = bytes(123_457, 7);
    write(cluster.fileSystem(), "/through/object.bin", data, CreateFilePOptions.newBuilder()
        .setWriteType(WritePType.CACHE_THROUGH).setRecursive(true).build());
    Path object = cluster.s3File("through/object.bin");
    assertTrue(Files.isRegularFile(object), "expected " + object + " in s3proxy's store");
    assertArrayEquals(data, Files.readAllBytes(object));
  }

  @Test
  void aStoppedWorkerIsLostAndComesBack() throws Exception {
    // A cache-only file whose one copy is on worker 2.
    write(cluster.fileSystem(), "/lost-pinned-2", bytes(300_002, 2), CreateFilePOptions.newBuilder()
        .setWriteType(WritePType.MUST_CACHE).setWorkerLocation(GrpcUtils.toProto(
            cluster.workerAddress(2))).setRecursive(true).build());
    cluster.stopWorker(2);
    assertFalse(cluster.isWorkerRunning(2));
    cluster.awaitLiveWorkers(2);
    List<WorkerInfo> live = cluster.blockMaster().getWorkerInfoList();
    assertTrue(live.stream().noneMatch(w -> w.getAddress().getHost().equals("127.0.0.4")));
    // Its only copy of /lost-pinned-2 went with it: the master no longer lists a location for the
    // block.
    URIStatus lost = cluster.fileSystem().getStatus(new AlluxioURI("/lost-pinned-2"));
    assertTrue(lost.getFileBlockInfos().get(0).getBlockInfo().getLocations().isEmpty());

    cluster.startWorker(2);
    cluster.awaitLiveWorkers(3);
    // Back in service: a write pinned to it lands there and reads back. (Re-reading another worker's
    // cache-only file here flaked once in CI: its block briefly had no location after this restart.)
    byte[] again = bytes(200_000, 22);
    write(cluster.fileSystem(), "/pinned-2-again", again, CreateFilePOptions.newBuilder()
        .setWriteType(WritePType.MUST_CACHE).setWorkerLocation(GrpcUtils.toProto(cluster.workerAddress(2)))
        .build());
    assertEquals("127.0.0.4", cluster.fileSystem().getStatus(new AlluxioURI("/pinned-2-again"))
        .getFileBlockInfos().get(0).getBlockInfo().getLocations().get(0).getWorkerAddress().getHost());
    assertArrayEquals(again, read(cluster.fileSystem(), "/pinned-2-again"));
  }

  @Test
  void theNamespaceSurvivesAMasterRestart() throws Exception {
    write(cluster.fileSystem(), "/restart/object.bin", bytes(123_457, 7), CreateFilePOptions
        .newBuilder().setWriteType(WritePType.CACHE_THROUGH).setRecursive(true).build());
    cluster.restartMaster();
    assertTrue(cluster.fileSystem().exists(new AlluxioURI("/restart/object.bin")));
    assertArrayEquals(bytes(123_457, 7), read(cluster.fileSystem(), "/restart/object.bin"));
    // Workers re-register with the new master. (Their cache-only blocks do not get their locations
    // back in 2.9.6 here: seen, not yet explained; eccache treats such splits as lost.)
    assertEquals(3, cluster.blockMaster().getWorkerCount());
  }
}
