package io.eccache.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.common.RedundancyScheme;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RedundancyPlannerTest {
  private static final List<String> WORKERS = new ArrayList<>();

  static {
    for (int i = 0; i < 8; i++) {
      WORKERS.add("10.0.0." + i + ":29999");
    }
  }

  /** An RS(k, r) object of k x 1,000 bytes. */
  private static final class Ec {
    final String key;
    final int k;
    final int r;
    final boolean tuned;
    final boolean persisted;

    Ec(String key, int k, int r, boolean tuned, boolean persisted) {
      this.key = key;
      this.k = k;
      this.r = r;
      this.tuned = tuned;
      this.persisted = persisted;
    }
  }

  private static Ec ec(String key, int k, int r, boolean tuned, boolean persisted) {
    return new Ec(key, k, r, tuned, persisted);
  }

  /** Splits on workers first, first + 1, ...; those listed in {@code dead} are not readable. */
  private static RedundancyPlanner.ObjectState state(Ec o, int first, double popularity,
      Integer... dead) {
    List<String> at = new ArrayList<>();
    for (int i = 0; i < o.k + o.r; i++) {
      at.add(Arrays.asList(dead).contains(i) ? null : WORKERS.get((first + i) % WORKERS.size()));
    }
    return new RedundancyPlanner.ObjectState(o.key, "w-" + o.key,
        RedundancyScheme.erasureCoded(o.k, o.r), o.k * 1000L, 1000, o.tuned, o.persisted, at,
        popularity, 1);
  }

  @Test
  void aLostSplitIsRepairedOnAWorkerHoldingNoneOfTheObject() {
    RedundancyPlanner planner = new RedundancyPlanner(0.15, 125e6);
    RedundancyPlanner.ObjectState o = state(ec("a", 3, 1, false, false), 0, 0, 1);
    RedundancyPlanner.Result plan = planner.plan(List.of(o), WORKERS, 0, new Random(1));
    assertEquals(1, plan.tasks.size());
    RedundancyPlanner.Task t = plan.tasks.get(0);
    assertEquals(RedundancyPlanner.TaskKind.REPAIR, t.kind);
    assertEquals(List.of(1), t.splits);
    Set<String> holders = new HashSet<>(List.of("10.0.0.0:29999", "10.0.0.2:29999",
        "10.0.0.3:29999"));
    assertFalse(holders.contains(t.workers.get(0)), t.workers.toString());
    assertEquals(RedundancyScheme.erasureCoded(3, 1), plan.targets.get("a"),
        "a fixed code keeps its r");
  }

  @Test
  void anObjectLostFromCacheAndS3IsLeftAlone_butOneInS3IsStoredAgain() {
    RedundancyPlanner planner = new RedundancyPlanner(0.15, 125e6);
    RedundancyPlanner.ObjectState gone = state(ec("gone", 3, 1, false, false), 0, 0, 0, 1);
    RedundancyPlanner.ObjectState inS3 = state(ec("in-s3", 3, 1, false, true), 0, 0, 0, 1);
    RedundancyPlanner.Result plan = planner.plan(List.of(gone, inS3), WORKERS, 0, new Random(1));
    assertEquals(1, plan.tasks.size());
    assertEquals("in-s3", plan.tasks.get(0).key);
    assertEquals(List.of(), plan.tasks.get(0).splits, "no split indexes: re-read from S3");
  }

  @Test
  void theHottestTunedObjectGainsParitiesAndAColdOneWithExtrasLosesThem() {
    // 3 objects of 3,000 bytes, k = 3: splits of 1,000 bytes; base r = 1 costs 3,000 of a 60%
    // budget of 5,400 bytes: room for 2 extra splits, both to the only popular object.
    RedundancyPlanner planner = new RedundancyPlanner(0.6, 125e6);
    RedundancyPlanner.ObjectState hot = state(ec("hot", 3, 1, true, false), 0, 10);
    RedundancyPlanner.ObjectState cooled = state(ec("cooled", 3, 3, true, false), 2, 0);
    RedundancyPlanner.ObjectState cold = state(ec("cold", 3, 1, true, false), 4, 0);
    RedundancyPlanner.Result plan = planner.plan(List.of(cold, cooled, hot), WORKERS, 0,
        new Random(1));
    assertEquals(RedundancyScheme.erasureCoded(3, 3), plan.targets.get("hot"));
    assertEquals(RedundancyScheme.erasureCoded(3, 1), plan.targets.get("cooled"));
    assertEquals(RedundancyScheme.erasureCoded(3, 1), plan.targets.get("cold"));
    assertEquals(1, plan.drops.size());
    assertEquals("cooled", plan.drops.get(0).key);
    assertEquals(RedundancyScheme.erasureCoded(3, 1), plan.drops.get(0).to);
    assertEquals(1, plan.tasks.size());
    RedundancyPlanner.Task add = plan.tasks.get(0);
    assertEquals(RedundancyPlanner.TaskKind.ADD_SPLITS, add.kind);
    assertEquals(List.of(4, 5), add.splits, "parities p01 and p02 after d0-d2, p00");
    assertEquals(RedundancyScheme.erasureCoded(3, 3), add.target);
    Set<String> targets = new HashSet<>(add.workers);
    assertEquals(2, targets.size());
    assertTrue(targets.stream().noneMatch(h -> h.matches("10\\.0\\.0\\.[0-3]:.*")),
        targets.toString());
  }

  @Test
  void surplusParitiesAreDroppedEvenWhileASplitIsLost() {
    // RS(3,5) on all 8 workers, one lost, now cold: no free worker to repair on until the drop.
    RedundancyPlanner planner = new RedundancyPlanner(0.15, 125e6);
    RedundancyPlanner.ObjectState o = state(ec("cooled", 3, 5, true, false), 0, 0, 2);
    List<String> live = WORKERS.subList(0, 8);
    RedundancyPlanner.Result plan = planner.plan(List.of(o), live, 0, new Random(1));
    assertEquals(1, plan.drops.size());
    assertEquals(RedundancyScheme.erasureCoded(3, 1), plan.drops.get(0).to);
  }

  @Test
  void repairsComeBeforeAdditions() {
    // The tuned object alone: a 100% budget of 3,000 bytes, 1,000 for the base parity, 2 extras.
    RedundancyPlanner planner = new RedundancyPlanner(1.0, 125e6);
    RedundancyPlanner.ObjectState hot = state(ec("hot", 3, 1, true, false), 0, 10);
    RedundancyPlanner.ObjectState broken = state(ec("broken", 3, 1, false, false), 4, 0, 2);
    RedundancyPlanner.Result plan = planner.plan(List.of(hot, broken), WORKERS, 0, new Random(1));
    assertEquals(2, plan.tasks.size());
    assertEquals(RedundancyPlanner.TaskKind.REPAIR, plan.tasks.get(0).kind);
    assertEquals(RedundancyPlanner.TaskKind.ADD_SPLITS, plan.tasks.get(1).kind);
  }

  @Test
  void memoryIsReportedPerScheme() {
    RedundancyPlanner planner = new RedundancyPlanner(0.15, 125e6);
    RedundancyPlanner.Result plan = planner.plan(List.of(state(ec("a", 3, 1, false, false), 0, 0),
        state(ec("b", 3, 2, false, false), 0, 0)), WORKERS, 0, new Random(1));
    RedundancyPlanner.Totals ec = plan.totals.get(RedundancyScheme.Kind.ERASURE_CODED);
    assertEquals(2, ec.objects);
    assertEquals(6000, ec.objectBytes);
    assertEquals(4000 + 5000, ec.cachedBytes);
    assertEquals(900, ec.budgetBytes);
  }

  @Test
  void aWarmObjectIsSplitAtOnce_butNeighbouringTargetsDoNotRewriteItBackAndForth() {
    assertTrue(RedundancyPlanner.repartitions(1, 2), "a warm object's first split halves reads");
    assertTrue(RedundancyPlanner.repartitions(4, 5), "growing by a quarter");
    assertFalse(RedundancyPlanner.repartitions(11, 12), "growing by less than a quarter");
    assertTrue(RedundancyPlanner.repartitions(8, 10));
    assertFalse(RedundancyPlanner.repartitions(2, 1), "shrinking by one never");
    assertFalse(RedundancyPlanner.repartitions(12, 10), "shrinking by less than a quarter");
    assertTrue(RedundancyPlanner.repartitions(12, 9));
    assertFalse(RedundancyPlanner.repartitions(6, 6));
    for (int n = 1; n <= 64; n++) {
      assertFalse(RedundancyPlanner.repartitions(n, n + 1)
          && RedundancyPlanner.repartitions(n + 1, n),
          n + " <-> " + (n + 1) + " would rewrite the object on every pass");
    }
  }
}
