package io.eccache.coordinator;

import alluxio.conf.Configuration;
import alluxio.exception.status.UnauthenticatedException;
import alluxio.security.User;
import alluxio.security.authentication.AuthenticatedClientUser;
import alluxio.util.SecurityUtils;
import java.util.Objects;

/**
 * Who sent a coordinator RPC: the user Alluxio authenticated on the client's connection (its
 * {@code AuthenticatedUserInjector} sets it on the RPC's thread). Captured first, before any step
 * runs as the master, and decided on; eccache's own bookkeeping then runs as the master.
 *
 * <p>With Alluxio's security off (NOSASL, or permission checks disabled) Alluxio checks no one, and
 * neither does eccache: the caller is {@link #UNCHECKED}.
 */
final class Caller {
  /** Security is off: every request is allowed, as Alluxio allows every file operation then. */
  static final Caller UNCHECKED = new Caller(null);

  private final String user;

  private Caller(String user) {
    this.user = user;
  }

  /** A caller known by name (tests, and the RPC layer). */
  static Caller named(String user) {
    return new Caller(Objects.requireNonNull(user, "user"));
  }

  /**
   * The user of the RPC running on this thread.
   *
   * @throws UnauthenticatedException when security is on and the connection names no user (a
   *     call that did not come through Alluxio's authenticated channel)
   */
  static Caller current() throws UnauthenticatedException {
    if (!SecurityUtils.isSecurityEnabled(Configuration.global())) {
      return UNCHECKED;
    }
    User user = AuthenticatedClientUser.getOrNull();
    if (user == null) {
      throw new UnauthenticatedException("the request to eccache's coordinator names no user:"
          + " connect through an Alluxio client, which authenticates as"
          + " alluxio.security.login.username or the OS user");
    }
    return named(user.getName());
  }

  /** Whether permissions are checked for this caller (security is on). */
  boolean checked() {
    return user != null;
  }

  /** The user's name; only for a {@link #checked()} caller. */
  String user() {
    if (user == null) {
      throw new IllegalStateException("an unchecked caller has no user");
    }
    return user;
  }

  /** Whether {@code other} is this caller's user ({@code ""}, a write from before users: no one). */
  boolean is(String other) {
    return user == null || user.equals(other);
  }

  @Override
  public String toString() {
    return user == null ? "(security off)" : user;
  }
}
