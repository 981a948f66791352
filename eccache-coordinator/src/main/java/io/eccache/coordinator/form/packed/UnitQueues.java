package io.eccache.coordinator.form.packed;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * LogECMem's packing of one namespace's new values: a queue of units per worker, each unit filled
 * first come, first served with whole values (a value never spans units) and closed when the next
 * value does not fit; once k workers each have a closed unit, the oldest closed unit of each of k
 * of them make a stripe. Values wait here, stored as replicas meanwhile, until their stripe is
 * sealed; a value updated or deleted meanwhile leaves its unit.
 *
 * <p>Pure logic and soft state: a restarted coordinator rebuilds the queues from the keys still
 * stored as replicas. Not thread-safe; its form calls it under its own lock.
 */
final class UnitQueues {
  /** One value waiting for its stripe. */
  static final class Value {
    final String key;
    /** The write that stored it as replicas: a seal checks the key still holds it. */
    final String writeId;
    final int length;

    Value(String key, String writeId, int length) {
      this.key = key;
      this.writeId = writeId;
      this.length = length;
    }

    @Override
    public String toString() {
      return key + "(" + length + ")";
    }
  }

  /** A unit: its worker, its values in order (a value's offset is the lengths before it). */
  static final class Unit {
    final String worker;
    final List<Value> values = new ArrayList<>();
    long bytes;
    /** When it closed (a sequence number); -1 while open. */
    long closedAt = -1;

    Unit(String worker) {
      this.worker = worker;
    }

    /** The offset of value {@code i} in the unit. */
    long offsetOf(int i) {
      long offset = 0;
      for (int j = 0; j < i; j++) {
        offset += values.get(j).length;
      }
      return offset;
    }
  }

  private final int k;
  private final long unitSize;
  /** worker -> its units, oldest first; the last may be open. Insertion order for ties. */
  private final Map<String, Deque<Unit>> queues = new LinkedHashMap<>();
  /** key -> the unit holding it. */
  private final Map<String, Unit> unitOf = new HashMap<>();
  private long closes;

  UnitQueues(int k, long unitSize) {
    if (k < 1 || unitSize < 1) {
      throw new IllegalArgumentException("k " + k + " and unit size " + unitSize
          + " must be positive");
    }
    this.k = k;
    this.unitSize = unitSize;
  }

  /**
   * Appends {@code value} to {@code worker}'s open unit, closing it first when the value does not
   * fit; a key already waiting leaves its old unit first (its newer write replaces it).
   *
   * @throws IllegalArgumentException for a value longer than a unit, or empty
   */
  void add(String worker, Value value) {
    if (value.length < 1 || value.length > unitSize) {
      throw new IllegalArgumentException("a value of " + value.length + " bytes cannot be packed"
          + " into units of " + unitSize + " bytes");
    }
    remove(value.key);
    Deque<Unit> queue = queues.computeIfAbsent(worker, w -> new ArrayDeque<>());
    Unit open = queue.peekLast();
    if (open == null || open.closedAt >= 0) {
      open = new Unit(worker);
      queue.addLast(open);
    } else if (open.bytes + value.length > unitSize) {
      open.closedAt = closes++;
      open = new Unit(worker);
      queue.addLast(open);
    }
    open.values.add(value);
    open.bytes += value.length;
    unitOf.put(value.key, open);
    if (open.bytes == unitSize) {
      open.closedAt = closes++; // exactly full: nothing more fits
    }
  }

  /** Takes {@code key} out of its unit (updated or deleted before its stripe); whether it waited. */
  boolean remove(String key) {
    Unit unit = unitOf.remove(key);
    if (unit == null) {
      return false;
    }
    for (int i = 0; i < unit.values.size(); i++) {
      if (unit.values.get(i).key.equals(key)) {
        unit.bytes -= unit.values.remove(i).length;
        break;
      }
    }
    if (unit.values.isEmpty()) {
      queues.get(unit.worker).remove(unit);
    }
    return true;
  }

  /**
   * The next stripe's data units, if k workers each have a closed unit: the oldest closed unit of
   * each, from the k workers whose oldest closed unit closed first, taken out of the queues.
   */
  Optional<List<Unit>> takeStripe() {
    List<Unit> ready = new ArrayList<>();
    for (Deque<Unit> queue : queues.values()) {
      Unit first = queue.peekFirst();
      if (first != null && first.closedAt >= 0) {
        ready.add(first);
      }
    }
    if (ready.size() < k) {
      return Optional.empty();
    }
    ready.sort((a, b) -> Long.compare(a.closedAt, b.closedAt));
    List<Unit> stripe = new ArrayList<>(ready.subList(0, k));
    for (Unit unit : stripe) {
      queues.get(unit.worker).removeFirst();
      for (Value v : unit.values) {
        unitOf.remove(v.key);
      }
    }
    return Optional.of(Collections.unmodifiableList(stripe));
  }

  /**
   * Empties {@code worker}'s queue (the worker was lost: no unit can be placed there) and returns
   * its values in order, to be added to other workers' queues.
   */
  List<Value> drain(String worker) {
    Deque<Unit> queue = queues.remove(worker);
    List<Value> values = new ArrayList<>();
    if (queue != null) {
      for (Unit unit : queue) {
        for (Value v : unit.values) {
          unitOf.remove(v.key);
          values.add(v);
        }
      }
    }
    return values;
  }

  /** How many values wait. */
  int waiting() {
    return unitOf.size();
  }
}
