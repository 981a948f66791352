package io.eccache.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.exception.status.AbortedException;
import alluxio.exception.status.FailedPreconditionException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.wire.FileInfo;
import alluxio.wire.WorkerNetAddress;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.proto.AllocateRequest;
import io.eccache.common.proto.AllocateResponse;
import io.eccache.common.proto.ApplyChangeRequest;
import io.eccache.common.proto.CommitUpdateRequest;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.MaintenanceTask;
import io.eccache.common.proto.PackedSeal;
import io.eccache.common.proto.PackedSealed;
import io.eccache.common.proto.PackedSlot;
import io.eccache.common.proto.PackedUpdate;
import io.eccache.common.proto.SealValue;
import io.eccache.common.proto.Stripe;
import io.eccache.common.proto.StripeUnit;
import io.eccache.common.proto.UpdateOutcomeResponse;
import io.eccache.coordinator.form.HostPort;
import io.eccache.coordinator.form.NamespacePort;
import io.eccache.coordinator.form.packed.PackedForm;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The packed form's rules (LogECMem) over the in-memory namespace: a small value of a packed
 * namespace is stored as r + 1 replicas and queued; a full stripe's worth of units becomes one
 * SEAL_STRIPE task once log nodes are live; a seal's report moves the values still current to
 * their slots and retires their replicas, leaves a replaced one alone, and is refused, changing
 * nothing, when a unit is missing.
 */
class PackedFormTest {
  /** RS(2, 2) stripes of 100-byte units: two 50-byte values fill a unit. */
  private final RulesFixture fixture = new RulesFixture(6, false, "kv=packed-2-2:100B");

  @BeforeEach
  void setUp() throws Exception {
    fixture.ns.createDirectory("/kv", NamespacePort.NewDirectory.ensured().mode((short) 0755)
        .ownedBy("alice", "alice"));
  }

  @AfterEach
  void close() {
    fixture.close();
  }

  private void announceLogNode(int worker) {
    String host = "10.0.0." + worker;
    fixture.logNodes.announce(new HostPort(host, 29999), host, 40000 + worker, "");
  }

  @Test
  void aSmallValueWaitsAsReplicasAndLargerOnesAreStriped() throws Exception {
    Layout small = fixture.put("alice", "kv/a", 50);
    assertTrue(small.hasPacked());
    assertEquals(0, small.getPacked().getStripe());
    assertEquals(RedundancyScheme.replicated(3), SchemeProtos.of(small));
    Layout large = fixture.put("alice", "kv/big", 101);
    assertFalse(large.hasPacked(), "larger than a unit: an ordinary object");
    InvalidArgumentException named = assertThrows(InvalidArgumentException.class,
        () -> fixture.writes.allocate(Caller.named("alice"), AllocateRequest.newBuilder()
            .setKey("kv/b").setObjectSize(50).setScheme(SchemeProtos.toProto(
                RedundancyScheme.replicated(2))).build()));
    assertTrue(named.getMessage().contains("packed namespace"), named.getMessage());
  }

  @Test
  void fullUnitsBecomeOneSealOnceLogNodesAreLive() throws Exception {
    // Keys spread over 6 workers' queues; 24 values of 50 bytes close about 6 units.
    for (int i = 0; i < 24; i++) {
      fixture.put("alice", "kv/v" + i, 50);
    }
    assertTrue(fixture.queue.plan(10).getTasksList().isEmpty(), "no log node yet: no seal");
    announceLogNode(1);
    fixture.put("alice", "kv/trigger", 50);
    List<MaintenanceTask> tasks = fixture.queue.plan(10).getTasksList();
    assertFalse(tasks.isEmpty(), "a seal once a log node is live");
    for (MaintenanceTask task : tasks) {
      assertEquals(MaintenanceTask.Kind.SEAL_STRIPE, task.getKind());
      PackedSeal seal = task.getSeal();
      assertEquals(2, seal.getUnitsCount());
      assertEquals(3, seal.getWorkersCount(), "k data units and P1");
      Set<String> hosts = new HashSet<>();
      seal.getWorkersList().forEach(w -> hosts.add(w.getHost()));
      assertEquals(3, hosts.size(), "on distinct workers");
      assertEquals(List.of("10.0.0.1:40001"), seal.getLogNodesList());
      for (int u = 0; u < 2; u++) {
        assertEquals(2, seal.getUnits(u).getValuesCount(), "a full unit: two values");
      }
    }
  }

  /** Puts values until a seal is planned; returns it (leased). */
  private MaintenanceTask planSeal() throws Exception {
    announceLogNode(2);
    for (int i = 0; i < 60; i++) {
      fixture.put("alice", "kv/s" + i, 50);
      List<MaintenanceTask> tasks = fixture.queue.plan(1).getTasksList();
      if (!tasks.isEmpty()) {
        return tasks.get(0);
      }
    }
    throw new AssertionError("no seal after 60 values");
  }

  /** Plays the maintainer: writes the units and reports every value queued, at 50-byte slots. */
  private PackedSealed writeUnits(PackedSeal seal, int skipUnit) throws Exception {
    PackedSealed.Builder sealed = PackedSealed.newBuilder();
    for (int i = 0; i <= seal.getDataUnits(); i++) {
      String path = seal.getDirectory() + "/u" + i;
      if (i != skipUnit) {
        fixture.ns.createFile(path, new NamespacePort.NewFile(100, (short) 0600, null, null));
        alluxio.grpc.WorkerNetAddress w = seal.getWorkers(i);
        fixture.ns.write(path, 100, new WorkerNetAddress().setHost(w.getHost())
            .setRpcPort(w.getRpcPort()));
      }
      StripeUnit.Builder unit = StripeUnit.newBuilder().setPath(path).setWorker(seal.getWorkers(i));
      if (i < seal.getDataUnits()) {
        int offset = 0;
        for (SealValue v : seal.getUnits(i).getValuesList()) {
          unit.addSlots(PackedSlot.newBuilder().setKey(v.getKey()).setWriteId(v.getWriteId())
              .setOffset(offset).setLength(50).setCrc32C(offset + 1));
          offset += 50;
        }
      }
      sealed.addUnits(unit);
    }
    return sealed.build();
  }

  @Test
  void aSealMovesCurrentValuesToTheirSlotsAndLeavesAReplacedOneAlone() throws Exception {
    MaintenanceTask task = planSeal();
    PackedSeal seal = task.getSeal();
    String replaced = seal.getUnits(0).getValues(0).getKey();
    Layout newer = fixture.put("alice", replaced, 40); // after the seal was planned
    String moved = seal.getUnits(1).getValues(1).getKey();
    Layout before = fixture.committed(moved);

    assertTrue(fixture.queue.applyChange(ApplyChangeRequest.newBuilder()
        .setLease(task.getLease()).setSealed(writeUnits(seal, -1)).build()).getApplied());

    Layout after = fixture.committed(moved);
    assertEquals(before.getWriteId(), after.getWriteId(), "the same version, packed");
    assertEquals(seal.getStripe(), after.getPacked().getStripe());
    assertEquals(1, after.getPacked().getUnit());
    assertEquals(1, after.getPacked().getSlot());
    assertEquals(RedundancyScheme.erasureCoded(2, 2), SchemeProtos.of(after));
    assertEquals(List.of(51), after.getCrc32CList(), "the slot's checksum");
    assertFalse(fixture.ns.exists(before.getDirectory()), "its replicas are retired");

    assertEquals(newer, fixture.committed(replaced), "a version written since is untouched");
    LookupResponse lookup = fixture.layouts.describe(moved).build();
    assertEquals(seal.getStripe(), lookup.getStripe().getId());
    assertEquals(1, lookup.getStripe().getVersion());
    assertEquals(3, lookup.getSplitsCount());
    assertTrue(lookup.getSplits(1).getLive());
    assertEquals("10.0.0.2:40002", lookup.getStripe().getLogParities(0).getLogNode());
  }

  @Test
  void aSealWithAUnitMissingIsRefusedChangesNothingAndComesBack() throws Exception {
    MaintenanceTask task = planSeal();
    PackedSeal seal = task.getSeal();
    String key = seal.getUnits(0).getValues(0).getKey();
    Layout before = fixture.committed(key);
    FailedPreconditionException missing = assertThrows(FailedPreconditionException.class,
        () -> fixture.queue.applyChange(ApplyChangeRequest.newBuilder()
            .setLease(task.getLease()).setSealed(writeUnits(seal, 2)).build()));
    assertTrue(missing.getMessage().contains("not written"), missing.getMessage());
    assertEquals(before, fixture.committed(key));
    List<MaintenanceTask> again = fixture.queue.plan(10).getTasksList();
    assertTrue(again.stream().anyMatch(t -> t.getSeal().getStripe() == seal.getStripe()),
        "the seal is handed out again");
  }

  /** Plans, writes and applies a seal; returns a key it packed and that key's layout. */
  private Layout sealOne() throws Exception {
    MaintenanceTask task = planSeal();
    PackedSeal seal = task.getSeal();
    fixture.queue.applyChange(ApplyChangeRequest.newBuilder().setLease(task.getLease())
        .setSealed(writeUnits(seal, -1)).build());
    return fixture.committed(seal.getUnits(1).getValues(0).getKey());
  }

  private AllocateResponse beginUpdate(String key, long size) throws Exception {
    return fixture.writes.allocate(Caller.named("alice"), AllocateRequest.newBuilder()
        .setKey(key).setObjectSize(size).setInPlace(true).build());
  }

  /** Plays the updater: writes the next version's files (created for it) of the rewritten units. */
  private void writeRewritten(PackedUpdate update) throws Exception {
    for (int j = 0; j < update.getRewriteCount(); j++) {
      String path = update.getRewritePaths(j);
      alluxio.grpc.WorkerNetAddress w = update.getSplits(update.getRewrite(j)).getWorker();
      fixture.ns.write(path, 100, new WorkerNetAddress().setHost(w.getHost())
          .setRpcPort(w.getRpcPort()));
    }
  }

  private CommitUpdateRequest commitOf(String key, PackedUpdate update) {
    CommitUpdateRequest.Builder commit = CommitUpdateRequest.newBuilder().setKey(key)
        .setUpdateId(update.getUpdateId()).setValueCrc32C(777);
    for (int j = 0; j < update.getRewriteCount(); j++) {
      commit.addUnitCrc32C(900 + j);
    }
    return commit.build();
  }

  @Test
  void anUpdateOfTheSameSizeRewritesItsUnitAndP1AsTheStripesNextVersion() throws Exception {
    Layout before = sealOne();
    String key = before.getKey();
    PackedUpdate update = beginUpdate(key, 50).getUpdate();
    assertEquals(PackedUpdate.Mode.HYBRID, update.getMode());
    int unit = before.getPacked().getUnit();
    assertEquals(List.of(unit, 2), update.getRewriteList(), "the data unit, then P1");
    assertTrue(update.getRewritePaths(0).endsWith("/d" + unit + ".v2"), update.toString());
    assertTrue(update.getRewritePaths(1).endsWith("/p1.v2"), update.toString());
    assertTrue(update.getFilesCreated());
    for (String path : update.getRewritePathsList()) {
      FileInfo created = fixture.ns.status(path);
      assertEquals("alice", created.getOwner(), "the writer's, who may not create files there");
      assertFalse(created.isCompleted(), path);
    }
    assertTrue(beginUpdate(key, 50).getRetryAfterMs() > 0, "one update per stripe at a time");
    assertFalse(beginUpdate(key, 49).hasUpdate(), "another size: a new write");

    String oldUnit = update.getStripe().getUnits(unit).getPath();
    FailedPreconditionException unwritten = assertThrows(FailedPreconditionException.class,
        () -> fixture.writes.commitUpdate(Caller.named("alice"), commitOf(key, update)));
    assertTrue(unwritten.getMessage().contains("not written"), unwritten.getMessage());
    assertEquals(before, fixture.committed(key), "nothing changed");

    writeRewritten(update);
    assertEquals(2, fixture.writes.commitUpdate(Caller.named("alice"), commitOf(key, update))
        .getVersion());
    Layout after = fixture.committed(key);
    assertEquals(before.getPacked(), after.getPacked(), "the same slot");
    assertFalse(after.getWriteId().equals(before.getWriteId()), "a new version of the key");
    assertEquals(List.of(777), after.getCrc32CList());
    LookupResponse lookup = fixture.layouts.describe(key).build();
    assertEquals(2, lookup.getStripe().getVersion());
    assertEquals(update.getRewritePaths(0), lookup.getStripe().getUnits(unit).getPath());
    assertEquals(after.getWriteId(), lookup.getStripe().getUnits(unit)
        .getSlots(after.getPacked().getSlot()).getWriteId());
    assertFalse(fixture.ns.exists(oldUnit), "the previous unit file is retired");
    assertTrue(beginUpdate(key, 50).hasUpdate(), "the stripe is free again");
  }

  @Test
  void anUpdateWhoseLeaseExpiredCommitsNothing() throws Exception {
    Layout before = sealOne();
    PackedUpdate update = beginUpdate(before.getKey(), 50).getUpdate();
    writeRewritten(update);
    fixture.clock.advance(java.time.Duration.ofMillis(RulesFixture.ALLOCATION_TIMEOUT_MS + 1));
    assertThrows(AbortedException.class, () -> fixture.writes.commitUpdate(
        Caller.named("alice"), commitOf(before.getKey(), update)));
    assertEquals(before, fixture.committed(before.getKey()));
    assertThrows(alluxio.exception.status.PermissionDeniedException.class,
        () -> fixture.writes.allocate(Caller.named("bob"), AllocateRequest.newBuilder()
            .setKey(before.getKey()).setObjectSize(50).setInPlace(true).build()),
        "updating takes the right to PUT the key");
  }

  @Test
  void anAbortedUpdatesFilesAreReplacedByTheNextUpdateOfThatVersion() throws Exception {
    Layout before = sealOne();
    String key = before.getKey();
    PackedUpdate aborted = beginUpdate(key, 50).getUpdate();
    writeRewritten(aborted);
    fixture.writes.abortUpdate(Caller.named("alice"), key, aborted.getUpdateId());
    assertEquals(before, fixture.committed(key), "nothing changed");

    PackedUpdate next = beginUpdate(key, 50).getUpdate();
    assertEquals(aborted.getRewritePathsList(), next.getRewritePathsList(), "the same version's");
    for (String path : next.getRewritePathsList()) {
      assertFalse(fixture.ns.status(path).isCompleted(), "made anew, empty: " + path);
    }
    writeRewritten(next);
    assertEquals(2, fixture.writes.commitUpdate(Caller.named("alice"), commitOf(key, next))
        .getVersion());
  }

  @Test
  void aStripeOfFewLiveValuesIsCompactedThenDroppedOnceEmpty() throws Exception {
    Layout one = sealOne();
    Stripe stripe = fixture.layouts.describe(one.getKey()).build().getStripe();
    List<String> keys = new java.util.ArrayList<>();
    for (int u = 0; u < stripe.getDataUnits(); u++) {
      stripe.getUnits(u).getSlotsList().forEach(slot -> keys.add(slot.getKey()));
    }
    assertEquals(4, keys.size(), "two full units of two 50-byte values");
    assertEquals(0, fixture.packedForm.scanForCompactions(), "a full stripe stays");

    // Three of four values replaced (new versions elsewhere): 50 of 200 bytes live.
    for (String key : keys.subList(1, 4)) {
      fixture.put("alice", key, 40);
    }
    assertEquals(1, fixture.packedForm.scanForCompactions());
    assertEquals(0, fixture.packedForm.scanForCompactions(), "one task per stripe at a time");
    MaintenanceTask compact = planned(MaintenanceTask.Kind.COMPACT_STRIPE);
    assertEquals(List.of(keys.get(0)), compact.getCompaction().getLiveList().stream()
        .map(PackedSlot::getKey).collect(java.util.stream.Collectors.toList()));
    fixture.put("alice", keys.get(0), 50); // the maintainer writes the live value anew
    assertTrue(fixture.queue.applyChange(ApplyChangeRequest.newBuilder()
        .setLease(compact.getLease()).build()).getApplied());

    assertEquals(1, fixture.packedForm.scanForCompactions(), "now empty: dropped");
    MaintenanceTask drop = planned(MaintenanceTask.Kind.DROP_STRIPE);
    assertEquals(stripe, drop.getCompaction().getStripe());
    String dir = stripe.getUnits(0).getPath().substring(0,
        stripe.getUnits(0).getPath().lastIndexOf('/'));
    assertTrue(fixture.queue.applyChange(ApplyChangeRequest.newBuilder()
        .setLease(drop.getLease()).build()).getApplied());
    assertFalse(fixture.ns.exists(dir), "its record and unit files are retired");
    assertEquals(0, fixture.packedForm.scanForCompactions(), "nothing left to do");
  }

  @Test
  void aStripeAnUpdateHoldsIsNotDropped() throws Exception {
    Layout one = sealOne();
    Stripe stripe = fixture.layouts.describe(one.getKey()).build().getStripe();
    PackedUpdate update = beginUpdate(one.getKey(), 50).getUpdate();
    for (int u = 0; u < stripe.getDataUnits(); u++) {
      for (PackedSlot slot : stripe.getUnits(u).getSlotsList()) {
        fixture.put("alice", slot.getKey(), 40);
      }
    }
    assertEquals(1, fixture.packedForm.scanForCompactions());
    MaintenanceTask drop = planned(MaintenanceTask.Kind.DROP_STRIPE);
    assertFalse(fixture.queue.applyChange(ApplyChangeRequest.newBuilder()
        .setLease(drop.getLease()).build()).getApplied(), "the update's lease holds it");
    fixture.writes.abortUpdate(Caller.named("alice"), one.getKey(), update.getUpdateId());
    assertEquals(1, fixture.packedForm.scanForCompactions(), "planned again");
  }

  /** The one task of {@code kind} the queue hands out now. */
  private MaintenanceTask planned(MaintenanceTask.Kind kind) {
    List<MaintenanceTask> tasks = fixture.queue.plan(10).getTasksList().stream()
        .filter(t -> t.getKind() == kind).collect(java.util.stream.Collectors.toList());
    assertEquals(1, tasks.size(), kind + ": " + tasks);
    return tasks.get(0);
  }

  @Test
  void aReplacedOrDeletedValueMarksItsStripeForTheNextHeartbeat() throws Exception {
    Layout one = sealOne();
    Stripe stripe = fixture.layouts.describe(one.getKey()).build().getStripe();
    alluxio.heartbeat.HeartbeatExecutor heartbeat = fixture.packedForm.periodic().stream()
        .filter(p -> p.name.equals(PackedForm.COMPACTION_HEARTBEAT)).findFirst().orElseThrow()
        .executor;
    heartbeat.heartbeat(Long.MAX_VALUE); // the first looks at every stripe: nothing due
    assertTrue(fixture.queue.plan(10).getTasksList().stream()
        .noneMatch(t -> t.hasCompaction()));
    for (int u = 0; u < stripe.getDataUnits(); u++) {
      for (PackedSlot slot : stripe.getUnits(u).getSlotsList()) {
        fixture.put("alice", slot.getKey(), 40); // superseded: the stripe is marked
      }
    }
    heartbeat.heartbeat(Long.MAX_VALUE);
    assertEquals(stripe.getId(), planned(MaintenanceTask.Kind.DROP_STRIPE).getCompaction()
        .getStripe().getId(), "found through its marks, not a scan of every stripe");
  }

  @Test
  void aLogNodeLearnsWhatBecameOfAnUpdateFromTheStripeAndItsLease() throws Exception {
    Layout one = sealOne();
    long id = one.getPacked().getStripe();
    PackedUpdate update = beginUpdate(one.getKey(), 50).getUpdate();
    long updateId = update.getUpdateId();
    assertEquals(UpdateOutcomeResponse.Outcome.PENDING,
        fixture.packedForm.updateOutcome(id, updateId, 1), "it holds the lease");
    assertEquals(UpdateOutcomeResponse.Outcome.ABORTED,
        fixture.packedForm.updateOutcome(id, updateId + 1, 1), "another update never leased");
    writeRewritten(update);
    fixture.writes.commitUpdate(Caller.named("alice"), commitOf(one.getKey(), update));
    assertEquals(UpdateOutcomeResponse.Outcome.COMMITTED,
        fixture.packedForm.updateOutcome(id, updateId, 1));

    PackedUpdate lapsed = beginUpdate(one.getKey(), 50).getUpdate();
    fixture.clock.advance(java.time.Duration.ofMillis(RulesFixture.ALLOCATION_TIMEOUT_MS + 1));
    assertEquals(UpdateOutcomeResponse.Outcome.ABORTED, fixture.packedForm.updateOutcome(id,
        lapsed.getUpdateId(), 2), "its lease ended: it can never commit");
    assertEquals(UpdateOutcomeResponse.Outcome.ABORTED,
        fixture.packedForm.updateOutcome(id + 1, 1, 1), "no such stripe");
  }
}
