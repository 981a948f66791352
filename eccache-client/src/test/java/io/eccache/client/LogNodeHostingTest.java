package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.ClientContext;
import alluxio.conf.Configuration;
import alluxio.exception.status.FailedPreconditionException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.PermissionDeniedException;
import alluxio.wire.WorkerInfo;
import com.google.protobuf.ByteString;
import io.eccache.common.proto.AppendDeltaRequest;
import io.eccache.common.proto.DecideRequest;
import io.eccache.common.proto.LogId;
import io.eccache.common.proto.LogStatus;
import io.eccache.common.proto.PutBaseRequest;
import io.eccache.common.proto.ReadParityRequest;
import io.eccache.common.proto.ReadParityResponse;
import io.eccache.coordinator.form.HostPort;
import io.eccache.coordinator.form.packed.LogNodes;
import io.eccache.isal.CodeMatrix;
import io.eccache.isal.ErasureCoder;
import io.eccache.isal.ReedSolomon;
import io.eccache.client.form.packed.LogNodeClient;
import io.eccache.testkit.EmbeddedCluster;
import io.eccache.testkit.SharedCluster;
import io.eccache.testkit.TestUsers;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Log nodes hosted by stock Alluxio workers through the eccache worker plugin (the shared
 * five-worker cluster runs one on every worker): every worker that
 * enables one announces it to the coordinator; a node serves parity rows over Alluxio's
 * authenticated gRPC, merges a delta only once its update commits, keeps what it holds across its
 * worker's restart (the node flushes on stop and recovers on its next request), and leaves setting
 * bases to administrators.
 */
@Timeout(120)
class LogNodeHostingTest {
  private static final int K = 3;
  private static final int R = 3;
  private static final int UNIT = 4096;
  private static final LogId ROW_1 = LogId.newBuilder().setNamespace("hosting").setDataUnits(K)
      .setParityUnits(R).setRow(1).setUnitSize(UNIT).build();

  @RegisterExtension
  static final SharedCluster CLUSTER = ClientTestCluster.fiveWorkers();
  private static final int WORKERS = ClientTestCluster.WORKERS;

  private EmbeddedCluster cluster;
  private LogNodeClient superuser;

  @BeforeEach
  void setUp() throws Exception {
    cluster = CLUSTER.cluster();
    superuser = new LogNodeClient(ClientContext.create(Configuration.copyGlobal()), 10_000);
  }

  @AfterEach
  void tearDown() {
    superuser.close();
  }

  @Test
  void everyWorkerAnnouncesItsLogNodeOnItsOwnHost() throws Exception {
    List<LogNodes.Node> nodes = awaitLogNodes(WORKERS);
    Set<String> hosts = new HashSet<>();
    for (LogNodes.Node node : nodes) {
      hosts.add(node.host);
      assertEquals(node.host, node.worker.toString().split(":")[0]);
      assertTrue(superuser.status(node.address()).getLogsList().stream()
          .allMatch(log -> log.getScheme().equals("PLM")), node.address());
    }
    assertEquals(WORKERS, hosts.size(), "one node per worker: " + nodes);
  }

  @Test
  void aDeltaJoinsTheParityOnlyOnceCommittedAndOutlivesItsWorkersRestart() throws Exception {
    ErasureCoder coder = ReedSolomon.coder(K, R, CodeMatrix.XOR_FIRST_CAUCHY);
    Random random = new Random(37);
    byte[][] data = new byte[K][UNIT];
    for (byte[] unit : data) {
      random.nextBytes(unit);
    }
    byte[] base = parityRow1(coder, data);
    byte[] changed = data[2].clone();
    for (int i = 100; i < 400; i++) {
      changed[i] = (byte) random.nextInt();
    }
    byte[] delta = new byte[300];
    for (int i = 0; i < delta.length; i++) {
      delta[i] = (byte) (data[2][100 + i] ^ changed[100 + i]);
    }
    data[2] = changed;
    byte[] updated = parityRow1(coder, data);

    LogNodes.Node node = awaitLogNodes(WORKERS).get(0);
    long stripe = 1000 + random.nextInt(1000);
    superuser.putBase(node.address(), PutBaseRequest.newBuilder().setLog(ROW_1)
        .setStripe(stripe).setVersion(1).setParity(ByteString.copyFrom(base)).build());
    AppendDeltaRequest append = AppendDeltaRequest.newBuilder().setLog(ROW_1)
        .setStripe(stripe).setUpdateId(7).setBaseVersion(1).setDataIndex(2).setOffset(100)
        .setDelta(ByteString.copyFrom(delta)).build();
    // Only with the capability of an update the coordinator leased, even for the superuser.
    PermissionDeniedException forged = assertThrows(PermissionDeniedException.class,
        () -> superuser.appendDelta(node.address(), append.toBuilder()
            .setCapability(capability(stripe, 8, 1)).build()));
    assertTrue(forged.getMessage().contains("no capability"), forged.getMessage());
    assertThrows(PermissionDeniedException.class, () -> superuser.appendDelta(node.address(),
        append));
    superuser.appendDelta(node.address(), append.toBuilder()
        .setCapability(capability(stripe, 7, 1)).build());
    ReadParityResponse before = read(node.address(), stripe, 1);
    assertEquals(ReadParityResponse.Outcome.AT_VERSION, before.getOutcome());
    assertArrayEquals(base, before.getParity().toByteArray(), "an undecided delta is not merged");
    assertEquals(ReadParityResponse.Outcome.BEHIND, read(node.address(), stripe, 2).getOutcome());

    DecideRequest commit = DecideRequest.newBuilder().setLog(ROW_1).setStripe(stripe)
        .setUpdateId(7).setCommitted(true).setNewVersion(2).setBaseVersion(1).build();
    assertThrows(PermissionDeniedException.class, () -> superuser.decide(node.address(),
        commit), "no decision without the capability either");
    assertEquals(ReadParityResponse.Outcome.BEHIND, read(node.address(), stripe, 2).getOutcome());
    assertTrue(superuser.decide(node.address(), commit.toBuilder()
        .setCapability(capability(stripe, 7, 1)).build()));
    assertArrayEquals(updated, read(node.address(), stripe, 2).getParity().toByteArray(),
        "the parity after the commit is a fresh encode's");
    assertEquals(ReadParityResponse.Outcome.AHEAD, read(node.address(), stripe, 1).getOutcome());

    // The worker stops (its node flushes) and comes back: a new node, on a new port.
    int worker = cluster.workerIndex(node.host);
    cluster.stopWorker(worker);
    cluster.startWorker(worker);
    cluster.awaitLiveWorkers(WORKERS);
    LogNodes.Node again = awaitNodeOn(node.host, node.port);
    assertNotEquals(node.port, again.port);
    ReadParityResponse after = read(again.address(), stripe, 2);
    assertEquals(ReadParityResponse.Outcome.AT_VERSION, after.getOutcome());
    assertArrayEquals(updated, after.getParity().toByteArray());
    LogStatus log = superuser.status(again.address()).getLogs(0);
    assertTrue(log.getDiskReads() > 0, "recovered from its disk: " + log);
  }

  @Test
  void aDeltaItsWriterNeverDecidesIsDecidedByAskingTheCoordinator() throws Exception {
    LogNodes.Node node = awaitLogNodes(WORKERS).get(2);
    long stripe = 5000 + new Random().nextInt(1000); // a stripe the coordinator never had
    byte[] base = new byte[UNIT];
    superuser.putBase(node.address(), PutBaseRequest.newBuilder().setLog(ROW_1)
        .setStripe(stripe).setVersion(1).setParity(ByteString.copyFrom(base)).build());
    superuser.appendDelta(node.address(), AppendDeltaRequest.newBuilder().setLog(ROW_1)
        .setStripe(stripe).setUpdateId(11).setBaseVersion(1).setDataIndex(0).setOffset(0)
        .setDelta(ByteString.copyFrom(new byte[] {1, 2, 3}))
        .setCapability(capability(stripe, 11, 1)).build());
    assertTrue(undecided(node) > 0, "buffered, undecided");
    // Its writer is gone: within a few periods the node asks, and no such update committed.
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    while (undecided(node) > 0 && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    assertEquals(0, undecided(node), "decided by the coordinator's answer");
    ReadParityResponse now = read(node.address(), stripe, 1);
    assertEquals(ReadParityResponse.Outcome.AT_VERSION, now.getOutcome(), "aborted, not merged");
    assertArrayEquals(base, now.getParity().toByteArray());
  }

  /** Deltas the node buffers without their outcome, over its logs. */
  private long undecided(LogNodes.Node node) throws Exception {
    return superuser.status(node.address()).getLogsList().stream()
        .mapToLong(LogStatus::getUndecided).sum();
  }

  @Test
  void onlyAdministratorsSetBasesAndALogKeepsItsCode() throws Exception {
    LogNodes.Node node = awaitLogNodes(WORKERS).get(1);
    PutBaseRequest put = PutBaseRequest.newBuilder().setLog(ROW_1).setStripe(5).setVersion(1)
        .setParity(ByteString.copyFrom(new byte[UNIT])).build();
    try (LogNodeClient bob = new LogNodeClient(
        ClientContext.create(TestUsers.as(TestUsers.BOB)), 10_000)) {
      PermissionDeniedException refused = assertThrows(PermissionDeniedException.class,
          () -> bob.putBase(node.address(), put));
      assertTrue(refused.getMessage().contains("bob"), refused.getMessage());
    }
    try (LogNodeClient carol = new LogNodeClient(
        ClientContext.create(TestUsers.as(TestUsers.ADMIN)), 10_000)) {
      carol.putBase(node.address(), put); // the supergroup maintains stripes too
    }
    InvalidArgumentException otherCode = assertThrows(InvalidArgumentException.class,
        () -> superuser.putBase(node.address(), put.toBuilder()
            .setLog(ROW_1.toBuilder().setDataUnits(K + 1)).build()));
    assertTrue(otherCode.getMessage().contains("code changed"), otherCode.getMessage());
    FailedPreconditionException unknown = assertThrows(FailedPreconditionException.class,
        () -> superuser.decide(node.address(), DecideRequest.newBuilder().setLog(ROW_1)
            .setStripe(99_999).setUpdateId(1).setCommitted(true).setNewVersion(2)
            .setBaseVersion(1).setCapability(capability(99_999, 1, 1)).build()));
    assertTrue(unknown.getMessage().contains(node.address()), unknown.getMessage());
    assertEquals(ReadParityResponse.Outcome.NOT_HELD, read(node.address(), 99_999, 1)
        .getOutcome());
    assertFalse(superuser.status(node.address()).getLogsList().isEmpty());
  }

  /** The capability the coordinator gives update {@code updateId} of {@code stripe}. */
  private ByteString capability(long stripe, long updateId, long baseVersion) {
    return ByteString.copyFrom(io.eccache.common.UpdateCapability.of(
        cluster.coordinator().logNodes().updateKey(), stripe, updateId, baseVersion));
  }

  private ReadParityResponse read(String node, long stripe, long version) throws Exception {
    return superuser.readParity(node, ReadParityRequest.newBuilder().setLog(ROW_1)
        .setStripe(stripe).setVersion(version).build());
  }

  private static byte[] parityRow1(ErasureCoder coder, byte[][] data) {
    ByteBuffer[] in = new ByteBuffer[K];
    for (int i = 0; i < K; i++) {
      in[i] = ByteBuffer.wrap(data[i]);
    }
    ByteBuffer[] parity = new ByteBuffer[R];
    for (int i = 0; i < R; i++) {
      parity[i] = ByteBuffer.allocate(UNIT);
    }
    coder.encode(in, parity);
    return parity[1].array();
  }

  private Set<HostPort> liveWorkers() throws Exception {
    Set<HostPort> live = new HashSet<>();
    for (WorkerInfo w : cluster.blockMaster().getWorkerInfoList()) {
      live.add(HostPort.of(w.getAddress()));
    }
    return live;
  }

  /** The nodes, once {@code n} have announced themselves (they do so as their workers start). */
  private List<LogNodes.Node> awaitLogNodes(int n) throws Exception {
    long deadline = System.currentTimeMillis() + 30_000;
    List<LogNodes.Node> nodes = cluster.coordinator().logNodes().live(liveWorkers());
    while (nodes.size() < n && System.currentTimeMillis() < deadline) {
      Thread.sleep(50);
      nodes = cluster.coordinator().logNodes().live(liveWorkers());
    }
    assertEquals(n, nodes.size(), "log nodes announced within 30 s: " + nodes);
    return nodes;
  }

  private LogNodes.Node awaitNodeOn(String host, int oldPort) throws Exception {
    long deadline = System.currentTimeMillis() + 30_000;
    while (System.currentTimeMillis() < deadline) {
      for (LogNodes.Node node : cluster.coordinator().logNodes().live(liveWorkers())) {
        if (node.host.equals(host) && node.port != oldPort) {
          return node;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("the restarted worker on " + host + " announced no new log node");
  }
}
