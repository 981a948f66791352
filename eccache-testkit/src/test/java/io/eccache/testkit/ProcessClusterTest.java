package io.eccache.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.AlluxioURI;
import alluxio.client.file.FileInStream;
import alluxio.client.file.FileOutStream;
import alluxio.client.file.FileSystem;
import alluxio.client.file.FileSystemContext;
import alluxio.grpc.CreateFilePOptions;
import alluxio.grpc.WritePType;
import io.eccache.localcluster.ProcessCluster;
import java.nio.file.Files;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The process cluster itself: real processes, SIGKILL, restarts that keep the namespace. */
class ProcessClusterTest {
  /** Its servers are other JVMs: close this JVM's shared cluster, if any, first. */
  @RegisterExtension
  static final SharedCluster NO_SHARED_CLUSTER = SharedCluster.none();

  @Test
  void workersAndTheMasterSurviveSigkillAndRestart() throws Exception {
    byte[] data = new byte[300_000];
    new Random(3).nextBytes(data);
    List<Long> pids;
    ProcessCluster cluster = ProcessCluster.builder().workers(3).start();
    try {
      pids = cluster.pids();
      assertTrue(pids.size() == 4, pids.toString());
      write(cluster, "/kept", data, WritePType.THROUGH);
      assertArrayEquals(data, read(cluster, "/kept"));

      cluster.killWorker(1); // SIGKILL: the master notices the silent worker within its timeout
      cluster.awaitLiveWorkers(2, 30_000);
      cluster.startWorker(1);
      cluster.awaitLiveWorkers(3, 60_000);

      cluster.killMaster();
      cluster.startMaster(); // the journal survives: what was written before is still there
      cluster.awaitLiveWorkers(3, 60_000);
      assertArrayEquals(data, read(cluster, "/kept"));
    } finally {
      cluster.close();
    }
    for (long pid : pids) {
      assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
          "process " + pid + " survived close()");
    }
    assertFalse(Files.exists(cluster.directory()));
  }

  private static void write(ProcessCluster cluster, String path, byte[] data, WritePType type)
      throws Exception {
    try (FileSystemContext context = FileSystemContext.create(cluster.clientConfiguration());
        FileSystem fs = FileSystem.Factory.create(context);
        FileOutStream out = fs.createFile(new AlluxioURI(path),
            CreateFilePOptions.newBuilder().setWriteType(type).build())) {
      out.write(data);
    }
  }

  private static byte[] read(ProcessCluster cluster, String path) throws Exception {
    try (FileSystemContext context = FileSystemContext.create(cluster.clientConfiguration());
        FileSystem fs = FileSystem.Factory.create(context);
        FileInStream in = fs.openFile(new AlluxioURI(path))) {
      return in.readAllBytes();
    }
  }
}
