package io.eccache.coordinator;

import alluxio.conf.Configuration;
import alluxio.exception.AlluxioException;
import alluxio.security.User;
import alluxio.security.authentication.AuthenticatedClientUser;
import alluxio.security.user.ServerUserState;
import alluxio.util.SecurityUtils;
import java.io.IOException;

/** How the coordinator calls Alluxio's FileSystemMaster: as the master's own user, with fixed options. */
final class MasterCalls {
  private MasterCalls() {}

  /** A namespace operation. */
  interface MasterCall<T> {
    T call() throws IOException, AlluxioException;
  }

  /**
   * Runs namespace operations as the master's own user (Alluxio's superuser), as Alluxio's REST
   * handlers do: eccache's directories belong to eccache, not to whichever client wrote first.
   */
  static <T> T asMaster(MasterCall<T> call) throws IOException, AlluxioException {
    return as(null, call);
  }

  /**
   * Runs namespace operations as {@code user} (the master's own user when null), so Alluxio checks
   * them as it would that user's own call (and names that user in its audit log).
   */
  static <T> T as(String user, MasterCall<T> call) throws IOException, AlluxioException {
    User previous = AuthenticatedClientUser.getOrNull();
    try {
      if (SecurityUtils.isSecurityEnabled(Configuration.global())) {
        AuthenticatedClientUser.set(user != null ? user
            : ServerUserState.global().getUser().getName());
      }
      return call.call();
    } finally {
      if (previous != null) {
        AuthenticatedClientUser.set(previous);
      } else {
        AuthenticatedClientUser.remove();
      }
    }
  }
}
