package io.eccache.coordinator.form.packed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How new values are packed into units and units into stripes (LogECMem's FCFS queues). */
class UnitQueuesTest {
  private static UnitQueues.Value value(String key, int length) {
    return new UnitQueues.Value(key, "w-" + key, length);
  }

  private static List<String> keys(UnitQueues.Unit unit) {
    List<String> keys = new ArrayList<>();
    unit.values.forEach(v -> keys.add(v.key));
    return keys;
  }

  @Test
  void aUnitClosesWhenTheNextValueDoesNotFitAndKClosedUnitsMakeAStripe() {
    UnitQueues queues = new UnitQueues(2, 100);
    queues.add("a", value("a1", 60));
    queues.add("a", value("a2", 30));
    queues.add("b", value("b1", 100)); // exactly full: closed at once
    assertTrue(queues.takeStripe().isEmpty(), "a's unit is still open");
    queues.add("a", value("a3", 20)); // does not fit: a's first unit closes
    List<UnitQueues.Unit> stripe = queues.takeStripe().orElseThrow();
    assertEquals(List.of("b", "a"), List.of(stripe.get(0).worker, stripe.get(1).worker),
        "oldest closed first");
    assertEquals(List.of("a1", "a2"), keys(stripe.get(1)));
    assertEquals(60, stripe.get(1).offsetOf(1));
    assertEquals(1, queues.waiting(), "a3 waits in a's next unit");
  }

  @Test
  void aValueUpdatedOrDeletedBeforeItsStripeLeavesItsUnit() {
    UnitQueues queues = new UnitQueues(1, 100);
    queues.add("a", value("x", 40));
    queues.add("a", value("y", 40));
    assertTrue(queues.remove("x"));
    assertFalse(queues.remove("x"));
    queues.add("a", value("y", 50)); // a newer write of y replaces the waiting one
    queues.add("a", value("z", 60)); // 50 + 60 > 100: the unit closes with y alone
    UnitQueues.Unit unit = queues.takeStripe().orElseThrow().get(0);
    assertEquals(List.of("y"), keys(unit));
    assertEquals(50, unit.bytes);
  }

  @Test
  void aLostWorkersValuesAreHandedBackInOrder() {
    UnitQueues queues = new UnitQueues(2, 100);
    queues.add("a", value("a1", 70));
    queues.add("a", value("a2", 70));
    queues.add("b", value("b1", 10));
    List<String> drained = new ArrayList<>();
    queues.drain("a").forEach(v -> drained.add(v.key));
    assertEquals(List.of("a1", "a2"), drained);
    assertEquals(1, queues.waiting());
    assertTrue(queues.takeStripe().isEmpty());
  }

  @Test
  void valuesLargerThanAUnitAreRefused() {
    UnitQueues queues = new UnitQueues(2, 100);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> queues.add("a", value("big", 101)));
    assertTrue(e.getMessage().contains("101 bytes"), e.getMessage());
    assertEquals(0, queues.waiting());
  }

  @Test
  void everyWaitingValueIsSealedOnceInAUnitThatFitsAndNoOtherIs() {
    Random random = new Random(5);
    UnitQueues queues = new UnitQueues(4, 4096);
    Set<String> waiting = new HashSet<>();
    int sealed = 0;
    for (int i = 0; i < 5000; i++) {
      String key = "k" + random.nextInt(3000);
      if (random.nextInt(10) == 0) {
        assertEquals(waiting.remove(key), queues.remove(key));
      } else {
        queues.add("w" + random.nextInt(6), value(key, 1 + random.nextInt(4096)));
        waiting.add(key);
      }
      for (List<UnitQueues.Unit> stripe = queues.takeStripe().orElse(null); stripe != null;
          stripe = queues.takeStripe().orElse(null)) {
        assertEquals(4, stripe.size());
        Set<String> workers = new HashSet<>();
        for (UnitQueues.Unit unit : stripe) {
          assertTrue(workers.add(unit.worker), "k distinct workers");
          long sum = 0;
          for (UnitQueues.Value v : unit.values) {
            sum += v.length;
            assertTrue(waiting.remove(v.key), v.key + " sealed but not waiting (or twice)");
            sealed++;
          }
          assertEquals(unit.bytes, sum);
          assertTrue(sum > 0 && sum <= 4096, "a unit of " + sum + " bytes");
        }
      }
    }
    assertEquals(waiting.size(), queues.waiting());
    assertTrue(sealed > 1000, "stripes were made: " + sealed + " values sealed");
  }
}
