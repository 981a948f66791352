package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.exception.status.DeadlineExceededException;
import alluxio.exception.status.NotFoundException;
import alluxio.exception.status.UnavailableException;
import alluxio.grpc.FileInfo;
import alluxio.grpc.WorkerNetAddress;
import com.google.common.base.Ticker;
import io.eccache.common.ClientKeys;
import io.eccache.common.proto.Split;
import java.io.IOException;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The read plan's rules, driven by hand: no threads, no I/O, time from a fake clock. An RS(3, 2)
 * object's five splits, split i on worker w<i>, offered in index order (the strategies' shuffles
 * are beside the point here).
 */
class ReadPlanTest {
  private static final int K = 3;
  private static final long TIMEOUT_MS = 1_000;
  private static final long GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private final FakeTicker clock = new FakeTicker();
  private final WorkerHealth health = new WorkerHealth(clock, 5_000);
  private final ReadStatistics statistics = new ReadStatistics();

  private static Split split(int index) {
    return Split.newBuilder().setIndex(index).setPath("/o/w1/s" + index)
        .setWorker(WorkerNetAddress.newBuilder().setHost("w" + index).setRpcPort(29999))
        .setLive(true).setStatus(FileInfo.getDefaultInstance()).build();
  }

  private static List<Split> splits() {
    List<Split> all = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      all.add(split(i));
    }
    return all;
  }

  private ReadPlan plan(ReadStrategy strategy, int delta) {
    return new ReadPlan("key", strategy, splits(), K, delta, clock, health, statistics,
        TIMEOUT_MS, GRACE_NANOS);
  }

  private static List<Integer> indexes(List<ReadPlan.PlannedRead> reads) {
    return reads.stream().map(r -> r.split.getIndex()).collect(Collectors.toList());
  }

  private static ReadPlan.PlannedRead of(List<ReadPlan.PlannedRead> reads, int index) {
    return reads.stream().filter(r -> r.split.getIndex() == index).findFirst().orElseThrow();
  }

  @Test
  void theRandomChoiceAsksForKPlusDeltaAndIsDoneOnAnyK() throws Exception {
    ReadPlan plan = plan(ReadStrategy.RANDOM, 1);
    List<ReadPlan.PlannedRead> first = plan.start();
    assertEquals(List.of(0, 1, 2, 3), indexes(first));
    plan.arrived(of(first, 3));
    plan.arrived(of(first, 0));
    assertFalse(plan.complete());
    assertEquals(List.of(), plan.arrived(of(first, 2)), "nothing more to ask for");
    assertTrue(plan.complete(), "k arrived: the late one is not waited for");
  }

  @Test
  void aFailedReadIsReplacedByASplitNotYetAskedFor() throws Exception {
    ReadPlan plan = plan(ReadStrategy.RANDOM, 0);
    List<ReadPlan.PlannedRead> first = plan.start();
    assertEquals(List.of(0, 1, 2), indexes(first));
    List<ReadPlan.PlannedRead> instead = plan.failed(of(first, 1), new IOException("reset"));
    assertEquals(List.of(3), indexes(instead));
    List<ReadPlan.PlannedRead> again = plan.failed(of(instead, 3), new IOException("reset"));
    assertEquals(List.of(4), indexes(again));
    assertEquals(List.of(), plan.failed(of(again, 4), new IOException("reset")), "none left");
    plan.arrived(of(first, 0));
    plan.arrived(of(first, 2));
    UnavailableException e = assertThrows(UnavailableException.class, plan::waitNanos);
    assertTrue(e.getMessage().contains("could read only 2 of the k = 3"), e.getMessage());
  }

  @Test
  void hedgedAsksForTheParitiesAQuarterOfTheTimeAfterTheKMinusFirstArrived() throws Exception {
    ReadPlan plan = plan(ReadStrategy.HEDGED, 1);
    List<ReadPlan.PlannedRead> first = plan.start();
    assertEquals(List.of(0, 1, 2), indexes(first), "the data splits alone");
    clock.advanceMs(20);
    plan.arrived(of(first, 0));
    clock.advanceMs(20);
    plan.arrived(of(first, 1));
    assertEquals(TimeUnit.MILLISECONDS.toNanos(10), plan.waitNanos(), "a quarter of 40 ms");
    clock.advanceMs(9);
    assertEquals(List.of(), plan.due(), "not yet");
    clock.advanceMs(1);
    assertEquals(List.of(3), indexes(plan.due()), "delta = 1: one parity");
    assertEquals(1, statistics.hedges());
  }

  @Test
  void dataFirstGivesALateDataSplitAGraceOnceKArrived() throws Exception {
    ReadPlan plan = plan(ReadStrategy.DATA_FIRST, 1);
    List<ReadPlan.PlannedRead> first = plan.start();
    assertEquals(List.of(0, 1, 2, 3), indexes(first));
    clock.advanceMs(10);
    plan.arrived(of(first, 0));
    plan.arrived(of(first, 1));
    clock.advanceMs(30);
    plan.arrived(of(first, 3)); // a parity makes the k while data split 2 is on its way
    assertFalse(plan.complete(), "data split 2 gets a grace");
    assertEquals(TimeUnit.MILLISECONDS.toNanos(10), plan.waitNanos(), "a quarter of 40 ms");
    clock.advanceMs(10);
    assertEquals(List.of(), plan.due());
    assertTrue(plan.complete(), "the grace ran out: decode it");
  }

  @Test
  void aReadSilentWhileItsPeersDeliverIsGivenUpOnAndReplaced() throws Exception {
    ReadPlan plan = plan(ReadStrategy.RANDOM, 0);
    List<ReadPlan.PlannedRead> first = plan.start();
    assertEquals(TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS), plan.waitNanos(),
        "before any arrival only the timeout applies");
    clock.advanceMs(20);
    plan.arrived(of(first, 0));
    plan.arrived(of(first, 1));
    // The first arrival took 20 ms: a read silent for 4 x 20 = 80 ms is given up on.
    assertEquals(TimeUnit.MILLISECONDS.toNanos(60), plan.waitNanos());
    clock.advanceMs(60);
    List<ReadPlan.PlannedRead> instead = plan.due();
    assertEquals(List.of(3), indexes(instead), "an untried split in its place");
    assertEquals(1, statistics.stalledReads());
    assertFalse(health.avoided(split(2).getWorker()),
        "a busy worker is silent that long too: only the watchdog's quiet time trips it");
    plan.arrived(of(first, 2)); // it came after all: its bytes count
    assertTrue(plan.complete());
  }

  @Test
  void aReadGivenUpOnIsWaitedForAgainWhenEverySplitReadInItsPlaceFailed() throws Exception {
    // CrashTest's two dead of RS(3,2): the slow read was the last live split.
    ReadPlan plan = plan(ReadStrategy.RANDOM, 0);
    List<ReadPlan.PlannedRead> first = plan.start();
    clock.advanceMs(20);
    plan.arrived(of(first, 0));
    plan.arrived(of(first, 1));
    clock.advanceMs(60);
    List<ReadPlan.PlannedRead> instead = plan.due();
    assertEquals(List.of(3), indexes(instead));
    List<ReadPlan.PlannedRead> last =
        plan.failed(of(instead, 3), new UnavailableException("connection refused"));
    assertEquals(List.of(4), indexes(last));
    assertEquals(List.of(), indexes(
        plan.failed(of(last, 4), new UnavailableException("connection refused"))));
    assertTrue(plan.waitNanos() > 0, "the read given up on is still on its way: wait for it");
    plan.arrived(of(first, 2));
    assertTrue(plan.complete());
  }

  @Test
  void aReadStillSendingIsNotGivenUpOn() throws Exception {
    ReadPlan plan = plan(ReadStrategy.RANDOM, 0);
    List<ReadPlan.PlannedRead> first = plan.start();
    clock.advanceMs(10);
    plan.arrived(of(first, 0));
    plan.arrived(of(first, 1));
    clock.advanceMs(45);
    of(first, 2).advanced(); // bytes keep coming, slowly
    clock.advanceMs(10);
    assertEquals(List.of(), plan.due(), "silent for 10 ms of a 50 ms bound (the floor)");
    assertEquals(TimeUnit.MILLISECONDS.toNanos(40), plan.waitNanos());
    assertEquals(0, statistics.stalledReads());
    assertFalse(health.avoided(split(2).getWorker()));
  }

  @Test
  void withNoSplitLeftToTryASilentReadIsWaitedForUpToTheTimeout() throws Exception {
    ReadPlan plan = plan(ReadStrategy.RANDOM, 2);
    List<ReadPlan.PlannedRead> first = plan.start();
    assertEquals(5, first.size());
    clock.advanceMs(10);
    plan.arrived(of(first, 0));
    plan.arrived(of(first, 1));
    plan.failed(of(first, 2), new IOException("reset"));
    plan.failed(of(first, 3), new IOException("reset"));
    assertEquals(TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS), plan.waitNanos(),
        "no stall rule: nothing could replace it");
    clock.advanceMs(TIMEOUT_MS);
    DeadlineExceededException e = assertThrows(DeadlineExceededException.class, plan::due);
    assertTrue(e.getMessage().contains(ClientKeys.IO_TIMEOUT.getName())
        && e.getMessage().contains("no other split is left to try"), e.getMessage());
  }

  @Test
  void readsGivenNoAnswerInTheTimeoutAreReplacedAndTheirWorkersAvoided() throws Exception {
    ReadPlan plan = plan(ReadStrategy.RANDOM, 0);
    List<ReadPlan.PlannedRead> first = plan.start();
    clock.advanceMs(TIMEOUT_MS - 1);
    assertEquals(List.of(), plan.due());
    clock.advanceMs(1);
    assertEquals(List.of(3, 4), indexes(plan.due()), "two untried splits for three silent reads");
    assertTrue(health.avoided(split(0).getWorker()));
  }

  @Test
  void splitsOnAvoidedWorkersAreAskedForLastUntilTheirTimeRunsOut() throws Exception {
    health.failed(split(0).getWorker());
    health.failed(split(2).getWorker());
    assertEquals(List.of(1, 3, 4), indexes(plan(ReadStrategy.RANDOM, 0).start()));
    assertEquals(List.of(1, 3, 4, 0), indexes(plan(ReadStrategy.RANDOM, 1).start()),
        "an avoided worker is still read when too few others are left");
    clock.advanceMs(5_000);
    assertEquals(List.of(0, 1, 2), indexes(plan(ReadStrategy.RANDOM, 0).start()),
        "after the avoid time they are tried again");
  }

  @Test
  void aWorkerThatAnswersIsNoLongerAvoided() throws Exception {
    health.failed(split(0).getWorker());
    ReadPlan plan = plan(ReadStrategy.RANDOM, 2); // all five: the avoided one too
    List<ReadPlan.PlannedRead> first = plan.start();
    assertEquals(List.of(1, 2, 3, 4, 0), indexes(first));
    plan.arrived(of(first, 0));
    assertFalse(health.avoided(split(0).getWorker()));
  }

  @Test
  void onlyFailuresOfAnUnreachableWorkerTripIt() {
    assertTrue(ReadPlan.unreachable(new UnavailableException("refused")));
    assertTrue(ReadPlan.unreachable(new IOException("x", new ConnectException("refused"))));
    assertTrue(ReadPlan.unreachable(new DeadlineExceededException("no answer")));
    assertFalse(ReadPlan.unreachable(new SplitRanges.CorruptSplitException("bad cell")));
    assertFalse(ReadPlan.unreachable(new NotFoundException("replaced")));
    assertFalse(ReadPlan.unreachable(new IOException("split ended at byte 5")));
  }

  @Test
  void fewerLiveSplitsThanKIsUnavailableBeforeAnyRead() {
    ReadPlan plan = new ReadPlan("key", ReadStrategy.RANDOM, splits().subList(0, 2), K, 1, clock,
        health, statistics, TIMEOUT_MS, GRACE_NANOS);
    UnavailableException e = assertThrows(UnavailableException.class, plan::start);
    assertTrue(e.getMessage().contains("only 2 splits of 'key' are on live workers"),
        e.getMessage());
  }

  @Test
  void aReplicatedObjectsCopiesAllGoToPositionZero() {
    ReadPlan plan = plan(ReadStrategy.COPIES, 0);
    assertEquals(0, plan.position(split(3)));
    assertEquals(3, plan(ReadStrategy.RANDOM, 0).position(split(3)));
  }
}
