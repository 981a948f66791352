package io.eccache.lognode;

import java.util.Objects;

/**
 * The answer to {@link LogNode#readParity}: the parity at exactly the version asked for, or which
 * version the node holds instead. A node holds one version of a stripe at a time, the newest one whose
 * every update's outcome it knows ({@link LogNode} explains why), so:
 * <ul>
 *   <li>{@link Status#AT_VERSION}: {@link #parity()} is the base plus every committed delta up to the
 *       version asked for;</li>
 *   <li>{@link Status#BEHIND}: the node holds an older version: an outcome it needs has not reached
 *       it yet (ask again after the coordinator's next outcome notice), or its copy went stale when it
 *       lost its buffer in a restart (then the caller rebuilds it with {@link LogNode#putBase});</li>
 *   <li>{@link Status#AHEAD}: the node holds a newer version: the stripe moved on since the reader
 *       looked it up, so the reader must look it up again (its other units are from the old version
 *       too).</li>
 * </ul>
 */
public final class ParityRead {
  /** Whether the node could answer at the version asked for. */
  public enum Status {
    /** The parity is at the version asked for. */
    AT_VERSION,
    /** The node holds an older version. */
    BEHIND,
    /** The node holds a newer version. */
    AHEAD
  }

  private final long requestedVersion;
  private final long heldVersion;
  private final byte[] parity;

  private ParityRead(long requestedVersion, long heldVersion, byte[] parity) {
    this.requestedVersion = requestedVersion;
    this.heldVersion = heldVersion;
    this.parity = parity;
  }

  static ParityRead at(long version, byte[] parity) {
    return new ParityRead(version, version, Objects.requireNonNull(parity, "parity"));
  }

  static ParityRead notAt(long requestedVersion, long heldVersion) {
    if (requestedVersion == heldVersion) {
      throw new IllegalArgumentException("version " + heldVersion + " is held: answer with the parity");
    }
    return new ParityRead(requestedVersion, heldVersion, null);
  }

  /** Whether the node answered at the version asked for, and how it missed if not. */
  public Status status() {
    if (parity != null) {
      return Status.AT_VERSION;
    }
    return heldVersion < requestedVersion ? Status.BEHIND : Status.AHEAD;
  }

  /** Whether {@link #parity()} is available. */
  public boolean atVersion() {
    return parity != null;
  }

  /** The version the reader asked for. */
  public long requestedVersion() {
    return requestedVersion;
  }

  /** The version the node holds: the one asked for if {@link #atVersion()}. */
  public long heldVersion() {
    return heldVersion;
  }

  /**
   * A copy of the parity unit at the version asked for.
   *
   * @throws IllegalStateException if the node did not hold that version
   */
  public byte[] parity() {
    if (parity == null) {
      throw new IllegalStateException("no parity: the node holds version " + heldVersion + ", not "
          + requestedVersion + " (" + status() + ")");
    }
    return parity.clone();
  }

  @Override
  public String toString() {
    return atVersion() ? "ParityRead{AT_VERSION " + requestedVersion + ", " + parity.length + " B}"
        : "ParityRead{" + status() + ": asked " + requestedVersion + ", holds " + heldVersion + "}";
  }
}
