package io.eccache.coordinator.form.packed;

import alluxio.exception.AlluxioException;
import alluxio.exception.FileDoesNotExistException;
import alluxio.exception.status.AbortedException;
import alluxio.exception.status.AlreadyExistsException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.NotFoundException;
import alluxio.wire.FileInfo;
import com.google.common.util.concurrent.Striped;
import com.google.protobuf.InvalidProtocolBufferException;
import io.eccache.common.proto.Stripe;
import io.eccache.common.proto.UpdateOutcomeResponse;
import io.eccache.coordinator.form.NamespacePort;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Lock;
import java.util.function.UnaryOperator;

/**
 * The packed stripes as the coordinator keeps them, and the rule every mutation of one obeys: a
 * stripe is a directory {@code <stripes>/<id>} whose xattr holds its {@link Stripe} record (its
 * unit files sit in it); a mutation (an update, a repair, a compaction) first takes the stripe's
 * lease, then commits the next version in one xattr update, and only while it still holds the
 * lease and the stripe is still at the version it leased. Leases are soft state with a deadline: a
 * client that dies mid-update loses its lease, and a restarted master has none, so an update in
 * flight then fails its commit and the stripe stays at its version.
 */
final class StripeStore {
  /** The xattr holding a stripe's record. */
  static final String STRIPE_XATTR = "eccache.stripe";

  private final NamespacePort ns;
  private final String root;
  private final Clock clock;
  private final long leaseMs;
  private final Striped<Lock> locks = Striped.lock(64);
  /** stripe id -> its lease; guarded by the stripe's lock. */
  private final Map<Long, Lease> leases = new HashMap<>();

  /** One mutation's hold on a stripe: which update, the version it read, until when. */
  static final class Lease {
    final String updateId;
    final long version;
    final long deadlineMs;

    Lease(String updateId, long version, long deadlineMs) {
      this.updateId = updateId;
      this.version = version;
      this.deadlineMs = deadlineMs;
    }
  }

  /**
   * @param root the directory of all stripes
   * @param leaseMs how long a lease holds without its commit
   */
  StripeStore(NamespacePort ns, String root, Clock clock, long leaseMs) {
    this.ns = ns;
    this.root = root;
    this.clock = clock;
    this.leaseMs = leaseMs;
  }

  /** How long a lease holds without its commit. */
  long leaseMs() {
    return leaseMs;
  }

  /** A check of a stripe's next version before it commits (its files are written). */
  interface Check {
    void verify(Stripe next) throws IOException, AlluxioException;
  }

  /** The directory of every stripe. */
  String root() {
    return root;
  }

  /** The ids of every stripe directory (a dropped stripe's, until retired, among them). */
  List<Long> ids() throws IOException, AlluxioException {
    List<Long> ids = new ArrayList<>();
    if (!ns.exists(root)) {
      return ids;
    }
    for (FileInfo dir : ns.list(root, NamespacePort.Load.NEVER)) {
      try {
        ids.add(Long.parseLong(dir.getName()));
      } catch (NumberFormatException notAStripe) {
        // not one of ours
      }
    }
    return ids;
  }

  /** The directory of stripe {@code id}: its record and its unit files. */
  String directory(long id) {
    return root + "/" + id;
  }

  /**
   * Records a sealed stripe at version 1.
   *
   * @throws AlreadyExistsException when the stripe has a record already
   */
  void create(Stripe stripe) throws IOException, AlluxioException {
    if (stripe.getVersion() != 1) {
      throw new InvalidArgumentException("a new stripe starts at version 1, not "
          + stripe.getVersion());
    }
    Lock lock = locks.get(stripe.getId());
    lock.lock();
    try {
      String dir = directory(stripe.getId());
      ns.createDirectory(dir, NamespacePort.NewDirectory.ensured());
      if (read(stripe.getId()) != null) {
        throw new AlreadyExistsException("stripe " + stripe.getId() + " exists already");
      }
      ns.putXattr(dir, STRIPE_XATTR, stripe.toByteArray());
    } finally {
      lock.unlock();
    }
  }

  /** Stripe {@code id} at its current version, or null when there is none. */
  Stripe read(long id) throws IOException, AlluxioException {
    FileInfo dir;
    try {
      dir = ns.status(directory(id));
    } catch (FileDoesNotExistException none) {
      return null;
    }
    byte[] bytes = dir.getXAttr() == null ? null : dir.getXAttr().get(STRIPE_XATTR);
    if (bytes == null || bytes.length == 0) {
      return null;
    }
    try {
      return Stripe.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IOException("stripe " + id + " has an unreadable record: " + e.getMessage(), e);
    }
  }

  /**
   * Takes stripe {@code id}'s lease for {@code updateId} and returns the stripe as leased.
   *
   * @throws NotFoundException when there is no such stripe
   * @throws AbortedException when another mutation holds it: retry after it ends
   */
  Stripe lease(long id, String updateId) throws IOException, AlluxioException {
    Lock lock = locks.get(id);
    lock.lock();
    try {
      Stripe stripe = read(id);
      if (stripe == null) {
        throw new NotFoundException("no stripe " + id + ": it was compacted or deleted; look the"
            + " key up again");
      }
      long now = clock.millis();
      Lease held = leases.get(id);
      if (held != null && held.deadlineMs > now && !held.updateId.equals(updateId)) {
        throw new AbortedException("stripe " + id + " is being changed by update "
            + held.updateId + " for at most " + (held.deadlineMs - now) + " ms more; try again");
      }
      leases.put(id, new Lease(updateId, stripe.getVersion(), now + leaseMs));
      return stripe;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Commits {@code updateId}'s change of stripe {@code id}: the next version, {@code change}
   * applied to the leased record, in one xattr update; the lease ends.
   *
   * @throws AbortedException when the lease was lost (it expired, or the master restarted) or the
   *     stripe moved on since it was leased: nothing changes, the update is to be done again
   */
  Stripe commit(long id, String updateId, UnaryOperator<Stripe.Builder> change)
      throws IOException, AlluxioException {
    return commit(id, updateId, change, next -> { });
  }

  /**
   * As {@link #commit(long, String, UnaryOperator)}, once {@code check} accepts the next version
   * (it throws, and nothing changes, when it does not; the lease is kept).
   */
  Stripe commit(long id, String updateId, UnaryOperator<Stripe.Builder> change, Check check)
      throws IOException, AlluxioException {
    Lock lock = locks.get(id);
    lock.lock();
    try {
      Lease lease = leases.get(id);
      if (lease == null || !lease.updateId.equals(updateId)
          || lease.deadlineMs <= clock.millis()) {
        throw new AbortedException("update " + updateId + " of stripe " + id + " no longer holds"
            + " the stripe's lease (it expired after " + leaseMs + " ms, or the master"
            + " restarted): nothing was changed; do the update again");
      }
      Stripe current = read(id);
      if (current == null || current.getVersion() != lease.version) {
        leases.remove(id);
        throw new AbortedException("stripe " + id + " moved from version " + lease.version
            + " to " + (current == null ? "none" : current.getVersion()) + " since update "
            + updateId + " leased it: nothing was changed; do the update again");
      }
      Stripe next = change.apply(current.toBuilder()).setId(id)
          .setVersion(current.getVersion() + 1).setLastUpdateId(updateId).build();
      check.verify(next);
      ns.putXattr(directory(id), STRIPE_XATTR, next.toByteArray());
      leases.remove(id);
      return next;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Changes where stripe {@code id}'s parts are (a repair: the same bytes on other workers or log
   * nodes) without a new version: only while it is still at {@code version} and no update holds
   * it, once {@code check} accepts the change.
   *
   * @return false when the stripe moved on or an update holds it (nothing changes: plan again)
   */
  boolean relocate(long id, long version, UnaryOperator<Stripe.Builder> change, Check check)
      throws IOException, AlluxioException {
    Lock lock = locks.get(id);
    lock.lock();
    try {
      Lease held = leases.get(id);
      if (held != null && held.deadlineMs > clock.millis()) {
        return false; // an update in flight read the old parts, and its deltas go to old nodes
      }
      Stripe current = read(id);
      if (current == null || current.getVersion() != version) {
        return false;
      }
      Stripe next = change.apply(current.toBuilder()).setId(id).setVersion(version).build();
      check.verify(next);
      ns.putXattr(directory(id), STRIPE_XATTR, next.toByteArray());
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Removes stripe {@code id}'s record (a drop: no value lives in it), only while it is still at
   * {@code version} and no update holds it; its directory and unit files stay for the caller to
   * retire.
   *
   * @return false when the stripe moved on or an update holds it (nothing changes)
   */
  boolean remove(long id, long version) throws IOException, AlluxioException {
    Lock lock = locks.get(id);
    lock.lock();
    try {
      Lease held = leases.get(id);
      if (held != null && held.deadlineMs > clock.millis()) {
        return false;
      }
      Stripe current = read(id);
      if (current == null || current.getVersion() != version) {
        return false;
      }
      ns.removeXattr(directory(id), STRIPE_XATTR);
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * What became of update {@code updateId} of stripe {@code id} from {@code baseVersion}: it made
   * the next version; it still holds the lease (and may); or it never can (its lease ended,
   * another update moved the stripe, or the stripe is gone). A commit needs a live lease, so an
   * update without one at its base version can only abort.
   */
  UpdateOutcomeResponse.Outcome outcome(long id, String updateId, long baseVersion)
      throws IOException, AlluxioException {
    Lock lock = locks.get(id);
    lock.lock();
    try {
      Stripe current = read(id);
      if (current == null) {
        return UpdateOutcomeResponse.Outcome.ABORTED;
      }
      if (current.getVersion() == baseVersion + 1
          && current.getLastUpdateId().equals(updateId)) {
        return UpdateOutcomeResponse.Outcome.COMMITTED;
      }
      Lease held = leases.get(id);
      if (current.getVersion() == baseVersion && held != null
          && held.updateId.equals(updateId) && held.deadlineMs > clock.millis()) {
        return UpdateOutcomeResponse.Outcome.PENDING;
      }
      return UpdateOutcomeResponse.Outcome.ABORTED;
    } finally {
      lock.unlock();
    }
  }

  /** Ends {@code updateId}'s lease of stripe {@code id} without a change (an aborted update). */
  void release(long id, String updateId) {
    Lock lock = locks.get(id);
    lock.lock();
    try {
      Lease lease = leases.get(id);
      if (lease != null && lease.updateId.equals(updateId)) {
        leases.remove(id);
      }
    } finally {
      lock.unlock();
    }
  }
}
