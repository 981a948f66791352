package io.eccache.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.exception.status.FailedPreconditionException;
import alluxio.exception.status.PermissionDeniedException;
import alluxio.grpc.GrpcUtils;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.ApplyChangeRequest;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.MaintenanceTask;
import io.eccache.common.proto.PlaceSplitRequest;
import io.eccache.common.proto.Split;
import io.eccache.coordinator.form.NamespacePort;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The rules of changes after or beside a commit, over an in-memory namespace: a parity a
 * maintainer adds becomes visible in one layout update only when whole and only on the version it
 * was planned for; a split whose worker failed mid-PUT gets a worker holding none of the write's
 * others; marking a version persisted is its writer's or an administrator's.
 */
class MaintenanceRulesTest {
  private final RulesFixture rules = new RulesFixture(6);

  MaintenanceRulesTest() throws Exception {
    rules.ns.createDirectory("/alice", NamespacePort.NewDirectory.ensured()
        .mode((short) 0755).ownedBy("alice", "alice"));
  }

  @AfterEach
  void tearDown() {
    rules.close();
  }

  /** A task adding parity 5 (RS(3, 2) to RS(3, 3)) to {@code layout}, leased. */
  private MaintenanceTask addParity(Layout layout) {
    rules.queue.refill(List.of(MaintenanceTask.newBuilder()
        .setKind(MaintenanceTask.Kind.ADD_SPLITS).setKey(layout.getKey())
        .setWriteId(layout.getWriteId()).addSplits(5)
        .setTarget(SchemeProtos.toProto(RedundancyScheme.erasureCoded(3, 3))).build()));
    return rules.queue.plan(1).getTasks(0);
  }

  private ApplyChangeRequest done(MaintenanceTask task, Layout layout) {
    ApplyChangeRequest.Builder report = ApplyChangeRequest.newBuilder().setLease(task.getLease());
    for (int i = 0; i < StripeGeometry.of(layout).checksums(1); i++) {
      report.addCrc32C(7);
    }
    return report.build();
  }

  @Test
  void anAddedParityIsVisibleOnlyOnceWholeInOneLayoutUpdate() throws Exception {
    Layout layout = rules.put("root", "k", 10_000);
    MaintenanceTask task = addParity(layout);
    String parity = layout.getDirectory() + "/" + RedundancyScheme.erasureCoded(3, 3).splitName(5);
    rules.ns.createFile(parity, new NamespacePort.NewFile(layout.getSplitSize(), (short) 0600,
        null, null));
    assertThrows(FailedPreconditionException.class,
        () -> rules.queue.applyChange(done(task, layout)), "incomplete");
    assertEquals(RedundancyScheme.erasureCoded(3, 2), SchemeProtos.of(rules.committed("k")));

    MaintenanceTask again = addParity(layout);
    rules.ns.write(parity, layout.getSplitSize(), null);
    assertTrue(rules.queue.applyChange(done(again, layout)).getApplied());
    Layout grown = rules.committed("k");
    assertEquals(RedundancyScheme.erasureCoded(3, 3), SchemeProtos.of(grown));
    assertEquals(layout.getCrc32CCount() + StripeGeometry.of(layout).checksums(1),
        grown.getCrc32CCount());
  }

  @Test
  void aParityPlannedForAReplacedVersionIsNotRecorded() throws Exception {
    Layout layout = rules.put("root", "k", 10_000);
    MaintenanceTask task = addParity(layout);
    rules.put("root", "k", 10_000);
    assertFalse(rules.queue.applyChange(done(task, layout)).getApplied());
    assertEquals(RedundancyScheme.erasureCoded(3, 2), SchemeProtos.of(rules.committed("k")));
  }

  @Test
  void aReplacementSplitGoesToAWorkerHoldingNoneOfTheWritesOthers() throws Exception {
    AllocateResponse write = rules.allocate("alice", "alice/k", 10_000);
    PlaceSplitRequest.Builder request = PlaceSplitRequest.newBuilder().setKey("alice/k")
        .setWriteId(write.getLayout().getWriteId());
    Set<String> used = new HashSet<>();
    for (Split split : write.getSplitsList()) {
      request.addExclude(split.getWorker());
      used.add(split.getWorker().getHost());
    }
    for (int i = 0; i < 10; i++) {
      String host = rules.writes.placeSplit(Caller.named("alice"), request.build()).getWorker()
          .getHost();
      assertFalse(used.contains(host), host + " holds another split of the write");
    }
    assertThrows(PermissionDeniedException.class,
        () -> rules.writes.placeSplit(Caller.named("bob"), request.build()));
    rules.ns.live().forEach(w -> request.addExclude(GrpcUtils.toProto(w.getAddress())));
    FailedPreconditionException none = assertThrows(FailedPreconditionException.class,
        () -> rules.writes.placeSplit(Caller.named("alice"), request.build()));
    assertTrue(none.getMessage().contains("no live worker is left"), none.getMessage());
  }

  @Test
  void onlyItsWriterOrAnAdministratorMarksAVersionPersisted() throws Exception {
    Layout layout = rules.put("alice", "alice/k", 10_000);
    rules.ns.putInUnderStore(rules.ufsPaths.stagingPath(layout.getWriteId()), 10_000);
    assertThrows(PermissionDeniedException.class,
        () -> rules.writes.markPersisted(Caller.named("bob"), "alice/k", layout.getWriteId()));
    assertFalse(rules.committed("alice/k").getPersisted());
    assertTrue(rules.writes.markPersisted(Caller.named("alice"), "alice/k", layout.getWriteId()));
    assertTrue(rules.committed("alice/k").getPersisted());
    assertTrue(rules.ns.inUnderStore(rules.ufsPaths.objectPath("alice/k")));
    assertFalse(rules.writes.markPersisted(Caller.named("alice"), "alice/k", "another-write"),
        "the key holds another write: nothing marked");
  }
}
