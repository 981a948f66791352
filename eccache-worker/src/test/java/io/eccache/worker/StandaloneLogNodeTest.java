package io.eccache.worker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.conf.Configuration;
import alluxio.conf.InstancedConfiguration;
import alluxio.conf.PropertyKey;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.PermissionDeniedException;
import alluxio.exception.status.UnavailableException;
import alluxio.security.authentication.AuthType;
import com.google.protobuf.ByteString;
import io.eccache.common.EcCacheKeys;
import io.eccache.common.UpdateCapability;
import io.eccache.common.WorkerKeys;
import io.eccache.common.proto.AppendDeltaRequest;
import io.eccache.common.proto.DecideAllRequest;
import io.eccache.common.proto.DecideRequest;
import io.eccache.common.proto.LogId;
import io.eccache.common.proto.PutBaseRequest;
import io.eccache.common.proto.ReadParityRequest;
import io.eccache.common.proto.ReadParityResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A log node served on its own, called over its plain socket as LogECMem's testbed calls it. */
class StandaloneLogNodeTest {
  private static final LogId LOG = LogId.newBuilder().setNamespace("kv").setDataUnits(2)
      .setParityUnits(2).setRow(1).setUnitSize(16).build();

  @TempDir
  Path dir;

  private InstancedConfiguration conf() {
    EcCacheKeys.registerAll();
    InstancedConfiguration conf = Configuration.copyGlobal();
    conf.set(PropertyKey.SECURITY_AUTHENTICATION_TYPE, AuthType.NOSASL);
    conf.set(WorkerKeys.LOG_NODE_DIR, dir.toString());
    conf.set(WorkerKeys.LOG_NODE_FSYNC, false);
    return conf;
  }

  @Test
  void theSocketCarriesTheServicesCallsAndItsRefusals() throws Exception {
    byte[] key = UpdateCapability.newKey();
    try (StandaloneLogNode node = StandaloneLogNode.start("127.0.0.1", key, conf());
        LogNodeSocketClient client = new LogNodeSocketClient(5_000)) {
      String at = node.socketAddress();
      client.putBase(at, PutBaseRequest.newBuilder().setLog(LOG).setStripe(7).setVersion(0)
          .setParity(ByteString.copyFrom(new byte[16])).build());
      AppendDeltaRequest.Builder delta = AppendDeltaRequest.newBuilder().setLog(LOG).setStripe(7)
          .setUpdateId(1).setBaseVersion(0).setDataIndex(0).setOffset(0)
          .setDelta(ByteString.copyFrom(new byte[] {1, 2, 3}));
      PermissionDeniedException forged = assertThrows(PermissionDeniedException.class,
          () -> client.appendDelta(at, delta.setCapability(ByteString.copyFrom(new byte[32]))
              .build()));
      assertTrue(forged.getMessage().contains("capability"), forged.getMessage());
      byte[] capability = UpdateCapability.of(key, 7, 1, 0);
      client.appendDelta(at, delta.setCapability(ByteString.copyFrom(capability)).build());
      assertTrue(client.decide(at, DecideRequest.newBuilder().setLog(LOG).setStripe(7)
          .setUpdateId(1).setCommitted(true).setNewVersion(1).setBaseVersion(0)
          .setCapability(ByteString.copyFrom(capability)).build()));
      ReadParityResponse read = client.readParity(at, ReadParityRequest.newBuilder().setLog(LOG)
          .setStripe(7).setVersion(1).build());
      assertEquals(ReadParityResponse.Outcome.AT_VERSION, read.getOutcome());
      // Row 1 of a zero stripe after data unit 0 changed by {1,2,3}: that delta times a non-zero
      // coefficient, so the first three bytes are non-zero and the rest stay zero.
      byte[] parity = read.getParity().toByteArray();
      assertTrue(parity[0] != 0 && parity[1] != 0 && parity[2] != 0);
      assertArrayEquals(new byte[13], java.util.Arrays.copyOfRange(parity, 3, 16));
      assertEquals(1, client.status(at).getLogs(0).getStripes());

      // Batched notices: one forged capability refuses the batch and applies none of it.
      byte[] second = UpdateCapability.of(key, 7, 2, 1);
      client.appendDelta(at, delta.setUpdateId(2).setBaseVersion(1)
          .setCapability(ByteString.copyFrom(second)).build());
      DecideRequest commit = DecideRequest.newBuilder().setLog(LOG).setStripe(7).setUpdateId(2)
          .setCommitted(true).setNewVersion(2).setBaseVersion(1)
          .setCapability(ByteString.copyFrom(second)).build();
      DecideRequest forgedCommit = commit.toBuilder().setStripe(8).build();
      assertThrows(PermissionDeniedException.class, () -> client.decideAll(at,
          DecideAllRequest.newBuilder().addDecisions(commit).addDecisions(forgedCommit).build()));
      assertEquals(1, client.status(at).getLogs(0).getUndecided(), "nothing applied");
      assertEquals(1, client.decideAll(at, DecideAllRequest.newBuilder().addDecisions(commit)
          .addDecisions(commit).build()), "the second notice changes nothing");
      assertEquals(ReadParityResponse.Outcome.AT_VERSION, client.readParity(at,
          ReadParityRequest.newBuilder().setLog(LOG).setStripe(7).setVersion(2).build())
          .getOutcome());
      assertThrows(InvalidArgumentException.class, () -> client.readParity(at,
          ReadParityRequest.newBuilder().setLog(LOG.toBuilder().setNamespace("no/such"))
              .setStripe(7).setVersion(1).build()));
      node.close();
      assertThrows(UnavailableException.class, () -> client.status(at));
    }
  }

  @Test
  void aNodeWithoutItsDirectoryOrKeyIsRefused() {
    InstancedConfiguration conf = conf();
    assertThrows(IllegalArgumentException.class,
        () -> StandaloneLogNode.start("127.0.0.1", new byte[3], conf));
    conf.unset(WorkerKeys.LOG_NODE_DIR);
    assertThrows(IllegalArgumentException.class,
        () -> StandaloneLogNode.start("127.0.0.1", UpdateCapability.newKey(), conf));
  }
}
