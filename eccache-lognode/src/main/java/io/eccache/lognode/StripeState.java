package io.eccache.lognode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One stripe's parity row on this node, in memory: what its parity is made of and which updates are
 * still open. Every method is {@code synchronized} on the instance and does no I/O.
 *
 * <p><b>The chain.</b> The parity at the held version {@link #version()} is the chain: a base, then
 * deltas whose versions follow one another without a gap up to the held version. Each link lies in
 * memory or on disk; flushes and merges replace links with equivalent ones elsewhere
 * ({@link #replacePrefix}), so the chain always reads the same parity. Only committed deltas enter it.
 *
 * <p><b>Open updates.</b> An appended delta waits in {@code undecided} for its outcome; an abort drops
 * it. A commit for version {@code held + 1} extends the chain; a commit further ahead (outcomes can
 * arrive out of order) waits in {@code ahead} until the versions between have committed, so the chain
 * never skips a version and the node never serves a version it does not fully hold. Neither map is
 * ever flushed: an undecided or out-of-order delta lives only in memory.
 *
 * <p>A little over 350 lines: the version rules and their error messages are one state machine and
 * read best in one place.
 */
final class StripeState {
  final long id;
  private final List<Part> chain = new ArrayList<>();
  private long version;
  private final Map<Long, Pending> undecided = new LinkedHashMap<>();
  private final TreeMap<Long, Part> ahead = new TreeMap<>();
  private boolean dropped;

  /** A new stripe whose chain is {@code parts} (a base first, consecutive versions after). */
  StripeState(long id, List<Part> parts) {
    this.id = id;
    if (parts.isEmpty() || !parts.get(0).isBase()) {
      throw new IllegalArgumentException("a chain starts with a base: " + parts);
    }
    chain.addAll(parts);
    version = parts.get(parts.size() - 1).toVersion;
  }

  /** An appended delta waiting for its outcome. */
  private static final class Pending {
    final Part part;
    final long baseVersion;
    final long appendedAtMillis;

    Pending(Part part, long baseVersion, long appendedAtMillis) {
      this.part = part;
      this.baseVersion = baseVersion;
      this.appendedAtMillis = appendedAtMillis;
    }
  }

  /**
   * What this stripe holds in the buffer, by kind: {undecided, out of order, committed in the
   * chain} charges, for a full buffer's error to say what fills it.
   */
  synchronized long[] charges() {
    long[] held = new long[3];
    for (Pending pending : undecided.values()) {
      held[0] += pending.part.charge();
    }
    for (Part part : ahead.values()) {
      held[1] += part.charge();
    }
    for (Part part : chain) {
      held[2] += part.charge();
    }
    return held;
  }

  /** The held version, or -1 once dropped. */
  synchronized long version() {
    return dropped ? -1 : version;
  }

  synchronized boolean isDropped() {
    return dropped;
  }

  /** Throws unless {@code updateId} could be appended with {@code baseVersion} now. */
  synchronized void checkAppend(long updateId, long baseVersion) {
    requireLive();
    if (undecided.containsKey(updateId) || aheadIdOf(updateId) != null) {
      throw new IllegalStateException("update " + updateId + " of stripe " + id + " was already appended: "
          + "an update id is used once");
    }
    if (baseVersion < version) {
      throw new IllegalStateException("update " + updateId + " of stripe " + id + " starts from version "
          + baseVersion + " but the stripe is already at version " + version + ": it can never commit");
    }
  }

  /** Adds an appended delta (already charged to the buffer) as undecided. */
  synchronized void addUndecided(long updateId, long baseVersion, int offset, byte[] parityDelta, long nowMillis) {
    checkAppend(updateId, baseVersion);
    Part part = Part.update(updateId, baseVersion + 1, offset, parityDelta);
    undecided.put(updateId, new Pending(part, baseVersion, nowMillis));
  }

  /**
   * Commits an undecided update as {@code newVersion}.
   *
   * @return true if this call committed it; false if it was committed before (a repeated outcome)
   */
  synchronized boolean commit(long updateId, long newVersion) {
    requireLive();
    Pending pending = undecided.get(updateId);
    if (pending == null) {
      return repeatedCommit(updateId, newVersion);
    }
    if (newVersion != pending.baseVersion + 1) {
      throw new IllegalArgumentException("update " + updateId + " of stripe " + id + " started from version "
          + pending.baseVersion + ", so it commits as version " + (pending.baseVersion + 1) + ", not "
          + newVersion);
    }
    if (newVersion <= version || ahead.containsKey(newVersion)) {
      Long other = newVersion <= version ? null : ahead.get(newVersion).updateId;
      throw new IllegalStateException("version " + newVersion + " of stripe " + id + " is already committed"
          + (other == null ? " (the node holds version " + version + ")" : " by update " + other)
          + ": update " + updateId + " cannot commit as it too; abort it");
    }
    undecided.remove(updateId);
    ahead.put(newVersion, pending.part);
    while (!ahead.isEmpty() && ahead.firstKey() == version + 1) {
      chain.add(ahead.pollFirstEntry().getValue());
      version++;
    }
    return true;
  }

  private boolean repeatedCommit(long updateId, long newVersion) {
    Long aheadVersion = aheadIdOf(updateId);
    Long chainVersion = aheadVersion != null ? aheadVersion : chainVersionOf(updateId);
    if (chainVersion != null) {
      if (chainVersion != newVersion) {
        throw new IllegalStateException("update " + updateId + " of stripe " + id + " is committed as version "
            + chainVersion + ", not " + newVersion);
      }
      return false;
    }
    if (newVersion <= version) {
      // Its delta is in the held parity and no longer known by id (flushed or merged): a repeated outcome.
      return false;
    }
    throw new IllegalStateException("update " + updateId + " of stripe " + id + " is unknown here: its delta"
        + " never reached this node or was lost from its buffer in a restart; the stripe stays at version "
        + version + " until it is rebuilt with putBase");
  }

  /**
   * Aborts an undecided update.
   *
   * @return the buffer charge released, or -1 if the update is unknown (never appended, lost in a
   *     restart, or already aborted): aborting it is then a no-op
   */
  synchronized long abort(long updateId) {
    requireLive();
    Pending pending = undecided.remove(updateId);
    if (pending != null) {
      return pending.part.charge();
    }
    Long committed = aheadIdOf(updateId);
    if (committed == null) {
      committed = chainVersionOf(updateId);
    }
    if (committed != null) {
      throw new IllegalStateException("update " + updateId + " of stripe " + id + " is committed as version "
          + committed + ": it cannot be aborted");
    }
    return -1;
  }

  /** Throws unless a base at {@code newVersion} may replace the parity now. */
  synchronized void checkRebase(long newVersion) {
    requireLive();
    if (newVersion < version) {
      throw new IllegalStateException("stripe " + id + " is at version " + version + ": a base at version "
          + newVersion + " would take it backwards");
    }
  }

  /**
   * Replaces the parity by a base (already charged): the chain restarts from it, and every open update
   * it makes moot (undecided ones that start before it, out-of-order commits up to it) is dropped.
   *
   * @return the buffer charge released
   */
  synchronized long rebase(long newVersion, byte[] parity) {
    checkRebase(newVersion);
    long released = 0;
    for (Part part : chain) {
      released += part.charge();
    }
    chain.clear();
    chain.add(Part.base(newVersion, parity));
    version = newVersion;
    for (Iterator<Pending> it = undecided.values().iterator(); it.hasNext(); ) {
      Pending pending = it.next();
      if (pending.baseVersion < newVersion) {
        released += pending.part.charge();
        it.remove();
      }
    }
    while (!ahead.isEmpty() && ahead.firstKey() <= newVersion) {
      released += ahead.pollFirstEntry().getValue().charge();
    }
    while (!ahead.isEmpty() && ahead.firstKey() == version + 1) {
      chain.add(ahead.pollFirstEntry().getValue());
      version++;
    }
    return released;
  }

  /** Marks the stripe dropped; returns the buffer charge released. */
  synchronized long drop() {
    requireLive();
    dropped = true;
    long released = 0;
    for (Part part : chain) {
      released += part.charge();
    }
    for (Pending pending : undecided.values()) {
      released += pending.part.charge();
    }
    for (Part part : ahead.values()) {
      released += part.charge();
    }
    chain.clear();
    undecided.clear();
    ahead.clear();
    return released;
  }

  /** The held version, and the chain if that is {@code wanted}. */
  synchronized Held held(long wanted) {
    requireLive();
    return new Held(version, wanted == version ? new ArrayList<>(chain) : null);
  }

  /** A version and, if it was the one wanted, the chain that makes it. */
  static final class Held {
    final long version;
    final List<Part> chain;

    Held(long version, List<Part> chain) {
      this.version = version;
      this.chain = chain;
    }
  }

  /**
   * What a flush takes: the chain as it is now, if it has links in memory (they are always its tail).
   * Returns null if there is nothing to flush.
   */
  synchronized List<Part> flushable() {
    if (dropped || !chain.get(chain.size() - 1).inMemory()) {
      return null;
    }
    return new ArrayList<>(chain);
  }

  /**
   * What a PLM merge takes: the chain's leading links that are in the stripe's file or in one of the
   * {@code sealed} log segments, if any of them is in the log. Returns null otherwise.
   */
  synchronized List<Part> mergeable(Set<Long> sealed) {
    if (dropped) {
      return null;
    }
    List<Part> prefix = new ArrayList<>();
    boolean logged = false;
    for (Part part : chain) {
      boolean inSealedLog = part.disk != null && part.disk.store == DiskRef.Store.LOG
          && sealed.contains(part.disk.segment);
      if (!inSealedLog && (part.disk == null || part.disk.store != DiskRef.Store.FILE)) {
        break;
      }
      logged |= inSealedLog;
      prefix.add(part);
    }
    return logged ? prefix : null;
  }

  /** Whether the chain still starts with exactly these links (the same objects). */
  synchronized boolean hasPrefix(List<Part> expected) {
    if (dropped || chain.size() < expected.size()) {
      return false;
    }
    for (int i = 0; i < expected.size(); i++) {
      if (chain.get(i) != expected.get(i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Replaces the chain's first links by equivalent ones (same parity, same last version), if the chain
   * still starts with {@code expected}; a flush or merge calls it when its writes are done. Does nothing
   * if the stripe was dropped or re-based meanwhile (the links were released then).
   *
   * @return the buffer charge released (of the links that left memory)
   */
  synchronized long replacePrefix(List<Part> expected, List<Part> replacement) {
    if (!hasPrefix(expected)) {
      return 0;
    }
    Part oldLast = expected.get(expected.size() - 1);
    Part newLast = replacement.get(replacement.size() - 1);
    if (!replacement.get(0).isBase() || oldLast.toVersion != newLast.toVersion) {
      throw new IllegalStateException("stripe " + id + ": " + replacement + " does not replace " + expected);
    }
    long released = 0;
    for (Part part : expected) {
      released += part.charge();
    }
    for (Part part : replacement) {
      released -= part.charge();
    }
    List<Part> rest = new ArrayList<>(chain.subList(expected.size(), chain.size()));
    chain.clear();
    chain.addAll(replacement);
    chain.addAll(rest);
    return released;
  }

  /** Undecided updates appended before {@code cutoffMillis}. */
  synchronized List<UndecidedUpdate> undecidedBefore(long cutoffMillis) {
    List<UndecidedUpdate> old = new ArrayList<>();
    for (Map.Entry<Long, Pending> entry : undecided.entrySet()) {
      Pending pending = entry.getValue();
      if (pending.appendedAtMillis < cutoffMillis) {
        old.add(new UndecidedUpdate(id, entry.getKey(), pending.baseVersion,
            Instant.ofEpochMilli(pending.appendedAtMillis)));
      }
    }
    return old;
  }

  private Long aheadIdOf(long updateId) {
    for (Map.Entry<Long, Part> entry : ahead.entrySet()) {
      Long id = entry.getValue().updateId;
      if (id != null && id == updateId) {
        return entry.getKey();
      }
    }
    return null;
  }

  private Long chainVersionOf(long updateId) {
    for (Part part : chain) {
      if (part.updateId != null && part.updateId == updateId) {
        return part.toVersion;
      }
    }
    return null;
  }

  private void requireLive() {
    if (dropped) {
      throw new IllegalStateException("stripe " + id + " is not held by this log node (dropped)");
    }
  }

  @Override
  public synchronized String toString() {
    return "StripeState{" + id + " v" + version + ", chain " + chain + ", undecided " + undecided.keySet()
        + ", ahead " + ahead.keySet() + (dropped ? ", dropped" : "") + "}";
  }
}
