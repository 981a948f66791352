package io.eccache.policy;

import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Per-object popularity as an exponentially weighted moving average of accesses per period, as Agar
 * (ICDCS'17) does with weight 0.8: at the end of each period
 * {@code pop = weight * count + (1 - weight) * pop}.
 *
 * <p>Thread-safe. {@link #record} is called on every read and only takes a shared lock and bumps a
 * {@link LongAdder}; {@link #roll}, {@link #forget} take the lock exclusively, so every access lands in
 * exactly one period. Readers see the averages as of the last roll. Rolling periodically is the caller's
 * job (it owns the clock); this class starts no threads.
 */
public final class PopularityTracker {
  /** Below this, with no access in the period, a key is dropped so deleted or cold keys do not pile up. */
  static final double FORGET_BELOW = 1e-6;

  private final double weight;
  private final ConcurrentHashMap<String, LongAdder> counts = new ConcurrentHashMap<>();
  private final ReadWriteLock lock = new ReentrantReadWriteLock();
  /** Replaced, never mutated, so readers need no lock. */
  private volatile Map<String, Double> averages = Collections.emptyMap();

  /**
   * @param weight the weight of the newest period, in (0, 1]; Agar uses 0.8, and 1 keeps only the last period
   * @throws IllegalArgumentException if the weight is outside (0, 1]
   */
  public PopularityTracker(double weight) {
    if (!(weight > 0 && weight <= 1)) {
      throw new IllegalArgumentException("weight must be in (0, 1] but was " + weight);
    }
    this.weight = weight;
  }

  /**
   * Counts one access to {@code key} in the current period.
   *
   * @param key the object read
   */
  public void record(String key) {
    record(key, 1);
  }

  /**
   * Counts {@code accesses} accesses to {@code key} in the current period at once (reads a client
   * served from a cached layout and reported together).
   *
   * @param key the object read
   * @param accesses how many times, at least 1
   * @throws IllegalArgumentException if {@code accesses} is less than 1
   */
  public void record(String key, long accesses) {
    Objects.requireNonNull(key, "key");
    if (accesses < 1) {
      throw new IllegalArgumentException("accesses must be at least 1, not " + accesses);
    }
    lock.readLock().lock();
    try {
      counts.computeIfAbsent(key, unused -> new LongAdder()).add(accesses);
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * Closes the current period: folds its counts into the averages, starts a new period with no counts,
   * and drops keys whose average fell below {@value #FORGET_BELOW} without an access in the period.
   */
  public void roll() {
    lock.writeLock().lock();
    try {
      Map<String, Double> previous = averages;
      Set<String> keys = new HashSet<>(previous.keySet());
      keys.addAll(counts.keySet());
      Map<String, Double> next = new HashMap<>(keys.size() * 2);
      for (String key : keys) {
        LongAdder adder = counts.get(key);
        long count = adder == null ? 0 : adder.sum();
        double average = weight * count + (1 - weight) * previous.getOrDefault(key, 0.0);
        if (count > 0 || average >= FORGET_BELOW) {
          next.put(key, average);
        }
      }
      counts.clear();
      averages = Collections.unmodifiableMap(next);
    } finally {
      lock.writeLock().unlock();
    }
  }

  /**
   * @param key an object key
   * @return its average accesses per period as of the last roll, 0 if unknown
   */
  public double popularity(String key) {
    return averages.getOrDefault(Objects.requireNonNull(key, "key"), 0.0);
  }

  /** @return every known key's average as of the last roll; an immutable map that later rolls leave alone */
  public Map<String, Double> snapshot() {
    return averages;
  }

  /**
   * Drops everything known about {@code key}, e.g. because the object was deleted.
   *
   * @param key the key to drop; unknown keys are ignored
   */
  public void forget(String key) {
    Objects.requireNonNull(key, "key");
    lock.writeLock().lock();
    try {
      counts.remove(key);
      Map<String, Double> previous = averages;
      if (previous.containsKey(key)) {
        // Copy on write keeps reads lock-free; deletes are rare next to reads.
        Map<String, Double> next = new HashMap<>(previous);
        next.remove(key);
        averages = Collections.unmodifiableMap(next);
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public String toString() {
    return "PopularityTracker{weight=" + weight + ", keys=" + averages.size() + "}";
  }
}
