package io.eccache.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.exception.status.NotFoundException;
import io.eccache.common.proto.ApplyChangeRequest;
import io.eccache.common.proto.MaintenanceTask;
import io.eccache.common.proto.PlanResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Leases, one task per object and expiry, on a clock that moves only when the test says so. */
class MaintenanceQueueTest {
  private static final long LEASE_MS = 60_000;

  private final AdjustableClock clock =
      new AdjustableClock(Clock.fixed(Instant.ofEpochMilli(1_000_000), ZoneOffset.UTC));
  private final CoordinatorMetrics metrics = new CoordinatorMetrics();
  // REPAIR and REPARTITION reports touch no layout: no namespace needed.
  private final MaintenanceQueue queue = new MaintenanceQueue(null, metrics, clock, LEASE_MS);

  private static MaintenanceTask repair(String key) {
    return MaintenanceTask.newBuilder().setKind(MaintenanceTask.Kind.REPAIR).setKey(key)
        .addSplits(1).build();
  }

  private static ApplyChangeRequest done(String lease) {
    return ApplyChangeRequest.newBuilder().setLease(lease).setBytes(100).build();
  }

  @Test
  void tasksAreHandedOutOncePerObjectUnderLeases() {
    queue.refill(List.of(repair("a"), repair("a"), repair("b"), repair("c")));
    assertEquals(4, queue.pending());
    PlanResponse first = queue.plan(2);
    assertEquals(List.of("a", "b"), keys(first), "the second task of a waits: a is leased");
    assertEquals(3, queue.pending(), "c queued, a and b leased");
    PlanResponse second = queue.plan(10);
    assertEquals(List.of("c"), keys(second));
    assertEquals(0, queue.plan(10).getTasksCount());
    assertEquals(3, queue.pending());
  }

  @Test
  void aLeasedObjectGetsNoNewTaskUntilItsLeaseEnds() throws Exception {
    queue.refill(List.of(repair("a")));
    String lease = queue.plan(1).getTasks(0).getLease();
    queue.refill(List.of(repair("a"), repair("b")));
    assertEquals(List.of("b"), keys(queue.plan(10)), "a's task is out: not planned again");
    assertTrue(queue.applyChange(done(lease)).getApplied());
    assertEquals(1, metrics.splitsRepaired.get());
    assertEquals(100, metrics.maintenanceBytes.get());
    queue.refill(List.of(repair("a")));
    assertEquals(List.of("a"), keys(queue.plan(10)), "reported: a may be planned again");
  }

  @Test
  void anExpiredLeaseIsGivenUpAndItsReportRefused() throws Exception {
    queue.refill(List.of(repair("a")));
    String lease = queue.plan(1).getTasks(0).getLease();
    clock.advance(Duration.ofMillis(LEASE_MS)); // at the deadline: still held
    queue.refill(List.of(repair("a")));
    assertEquals(0, queue.plan(10).getTasksCount());
    clock.advance(Duration.ofMillis(1)); // past it: given up at the next pass
    queue.refill(List.of(repair("a")));
    assertEquals(1, queue.pending(), "the old lease is gone, the new task queued");
    String again = queue.plan(10).getTasks(0).getLease();
    NotFoundException late = assertThrows(NotFoundException.class,
        () -> queue.applyChange(done(lease)));
    assertTrue(late.getMessage().contains("expired after 60 s"), late.getMessage());
    assertTrue(queue.applyChange(done(again)).getApplied());
    assertEquals(0, queue.pending());
  }

  @Test
  void aFailedTaskIsCountedAndNotApplied() throws Exception {
    queue.refill(List.of(MaintenanceTask.newBuilder().setKind(MaintenanceTask.Kind.REPARTITION)
        .setKey("p").build()));
    String lease = queue.plan(1).getTasks(0).getLease();
    assertFalse(queue.applyChange(done(lease).toBuilder().setFailed(true).setError("disk full")
        .build()).getApplied());
    assertEquals(1, metrics.tasksFailed.get());
    assertEquals(0, metrics.repartitions.get());
    assertThrows(NotFoundException.class, () -> queue.applyChange(done(lease)),
        "a lease is reported once");
  }

  private static List<String> keys(PlanResponse plan) {
    return plan.getTasksList().stream().map(MaintenanceTask::getKey)
        .collect(java.util.stream.Collectors.toList());
  }
}
