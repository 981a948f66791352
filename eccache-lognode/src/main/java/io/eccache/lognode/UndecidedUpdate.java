package io.eccache.lognode;

import java.time.Instant;

/**
 * An update whose delta a log node holds without knowing its outcome, from
 * {@link LogNode#undecidedOlderThan}: what a host asks the coordinator about after its outcome notices
 * went missing.
 */
public final class UndecidedUpdate {
  private final long stripe;
  private final long updateId;
  private final long baseVersion;
  private final Instant appendedAt;

  UndecidedUpdate(long stripe, long updateId, long baseVersion, Instant appendedAt) {
    this.stripe = stripe;
    this.updateId = updateId;
    this.baseVersion = baseVersion;
    this.appendedAt = appendedAt;
  }

  /** The stripe. */
  public long stripe() {
    return stripe;
  }

  /** The update's id. */
  public long updateId() {
    return updateId;
  }

  /** The version the update started from; it commits as {@code baseVersion + 1}. */
  public long baseVersion() {
    return baseVersion;
  }

  /** When the delta was appended, by the node's clock. */
  public Instant appendedAt() {
    return appendedAt;
  }

  @Override
  public String toString() {
    return "UndecidedUpdate{stripe " + stripe + ", update " + updateId + ", base version " + baseVersion
        + ", appended " + appendedAt + "}";
  }
}
