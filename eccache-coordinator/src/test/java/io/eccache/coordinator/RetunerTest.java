package io.eccache.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.wire.WorkerNetAddress;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.MaintenanceTask;
import io.eccache.coordinator.form.striped.NamespaceSchemes;
import io.eccache.coordinator.form.striped.SchemeChooser;
import io.eccache.policy.PopularityTracker;
import io.eccache.policy.RedundancyPlanner;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Passes over a fake namespace with a clock the test moves: popularity periods fold when (and only
 * when) they are over, and the pass turns popularity into targets, drops and queued additions.
 */
class RetunerTest {
  private static final long PERIOD_MS = 60_000;
  private static final List<WorkerNetAddress> WORKERS = new ArrayList<>();

  static {
    for (int i = 0; i < 8; i++) {
      WORKERS.add(new WorkerNetAddress().setHost("10.0.0." + i).setRpcPort(29999));
    }
  }

  private final AdjustableClock clock =
      new AdjustableClock(Clock.fixed(Instant.ofEpochMilli(5_000_000), ZoneOffset.UTC));
  private final CoordinatorMetrics metrics = new CoordinatorMetrics();
  private final MaintenanceQueue queue = new MaintenanceQueue(null, metrics, clock, 60_000);
  private final FakeNamespace namespace = new FakeNamespace();
  private final PopularityTracker popularity = new PopularityTracker(1.0);
  private final Retuner retuner = new Retuner(namespace, popularity,
      new SchemeChooser(NamespaceSchemes.parse(""), RedundancyScheme.erasureCoded(3, 1), 1024, 2),
      new RedundancyPlanner(0.6, 125e6), queue, metrics, clock, PERIOD_MS, new Random(1));

  /** Tuned RS(3, r) objects of 3,000 bytes, splits on workers 0, 1, ... */
  private static final class FakeNamespace implements Retuner.Namespace {
    final List<Retuner.Placed> objects = new ArrayList<>();
    final List<RedundancyPlanner.Drop> dropped = new ArrayList<>();

    void add(String key, int r) {
      Layout l = Layout.newBuilder().setKey(key)
          .setScheme(SchemeProtos.toProto(RedundancyScheme.erasureCoded(3, r)))
          .setObjectSize(3000).setCellSize(1000).setSplitSize(1000).setWriteId("w-" + key)
          .setTuned(true).build();
      objects.add(new Retuner.Placed(l, new ArrayList<>(WORKERS.subList(0, 3 + r))));
    }

    @Override
    public List<WorkerNetAddress> liveWorkers() {
      return WORKERS;
    }

    @Override
    public List<Retuner.Placed> objects() {
      return objects;
    }

    @Override
    public int drop(RedundancyPlanner.Drop drop) {
      dropped.add(drop);
      return SchemeProtos.of(objects.stream().filter(o -> o.layout.getKey().equals(drop.key))
          .findFirst().orElseThrow().layout).splits() - drop.to.splits();
    }
  }

  private void read(String key, int times) {
    for (int i = 0; i < times; i++) {
      metrics.lookups.incrementAndGet();
      retuner.recordAccess(key);
    }
  }

  @Test
  void aPeriodFoldsOnlyOnceItIsOver() throws Exception {
    namespace.add("a", 1);
    read("a", 10);
    retuner.retune();
    assertEquals(0, retuner.popularity("a"), 1e-9, "the first period is not over yet");
    clock.advance(Duration.ofMillis(PERIOD_MS - 1));
    retuner.retune();
    assertEquals(0, retuner.popularity("a"), 1e-9);
    clock.advance(Duration.ofMillis(1));
    retuner.retune();
    assertEquals(10, retuner.popularity("a"), 1e-9, "folded with weight 1: the period's count");
    read("a", 4);
    clock.advance(Duration.ofMillis(PERIOD_MS / 2));
    retuner.retune();
    assertEquals(10, retuner.popularity("a"), 1e-9, "half a period after the fold: no new fold");
    clock.advance(Duration.ofMillis(PERIOD_MS / 2));
    retuner.retune();
    assertEquals(4, retuner.popularity("a"), 1e-9);
    assertEquals(5, metrics.retunePasses.get());
  }

  @Test
  void aHotObjectIsQueuedForParitiesAndACooledOneDropsThem() throws Exception {
    namespace.add("hot", 1);
    namespace.add("cooled", 3);
    namespace.add("cold", 1);
    read("hot", 50);
    clock.advance(Duration.ofMillis(PERIOD_MS));
    retuner.heartbeat(Long.MAX_VALUE);
    // A 60% budget over 9,000 bytes of RS(3, 1) objects buys 2 extra parities, all for "hot".
    assertEquals(RedundancyScheme.erasureCoded(3, 3), retuner.target("hot"));
    assertEquals(RedundancyScheme.erasureCoded(3, 1), retuner.target("cooled"));
    assertEquals(1, namespace.dropped.size());
    assertEquals("cooled", namespace.dropped.get(0).key);
    assertEquals(2, metrics.splitsDropped.get());
    List<MaintenanceTask> tasks = queue.plan(10).getTasksList();
    assertEquals(1, tasks.size(), tasks.toString());
    assertEquals("hot", tasks.get(0).getKey());
    assertEquals(MaintenanceTask.Kind.ADD_SPLITS, tasks.get(0).getKind());
    assertEquals(2, tasks.get(0).getSplitsCount());
  }

  @Test
  void theRequestRateIsLookupsPerSecondOfTheClock() throws Exception {
    // Observed through SP-Cache's planner: with no reads measured, nothing is partitioned.
    Retuner.Placed unsplit = partitioned("p");
    namespace.objects.add(unsplit);
    read("p", 1000);
    clock.advance(Duration.ofMillis(PERIOD_MS));
    retuner.retune();
    assertTrue(retuner.target("p").dataSplits() > 1, "1000 reads a minute: " + retuner.target("p"));
    clock.advance(Duration.ofMillis(PERIOD_MS));
    retuner.retune(); // no reads since the last pass: a rate of 0, nothing to balance
    assertEquals(RedundancyScheme.partitioned(1), retuner.target("p"));
  }

  private static Retuner.Placed partitioned(String key) {
    Layout l = Layout.newBuilder().setKey(key)
        .setScheme(SchemeProtos.toProto(RedundancyScheme.partitioned(1)))
        .setObjectSize(100_000_000).setCellSize(1 << 20).setSplitSize(100_000_000)
        .setWriteId("w-" + key).setTuned(true).build();
    return new Retuner.Placed(l, new ArrayList<>(WORKERS.subList(0, 1)));
  }
}
