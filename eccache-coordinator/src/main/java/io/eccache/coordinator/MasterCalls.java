package io.eccache.coordinator;

import alluxio.conf.Configuration;
import alluxio.exception.AlluxioException;
import alluxio.grpc.DeletePOptions;
import alluxio.grpc.ExistsPOptions;
import alluxio.grpc.FileSystemMasterCommonPOptions;
import alluxio.grpc.GetStatusPOptions;
import alluxio.grpc.ListStatusPOptions;
import alluxio.grpc.LoadMetadataPType;
import alluxio.master.file.contexts.DeleteContext;
import alluxio.master.file.contexts.ExistsContext;
import alluxio.master.file.contexts.GetStatusContext;
import alluxio.master.file.contexts.ListStatusContext;
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

  /** eccache's own directories live only in Alluxio: never look for them in the under store. */
  static GetStatusContext noSync() {
    return GetStatusContext.mergeFrom(GetStatusPOptions.newBuilder()
        .setLoadMetadataType(LoadMetadataPType.NEVER)
        .setCommonOptions(FileSystemMasterCommonPOptions.newBuilder().setSyncIntervalMs(-1)));
  }

  /**
   * Whether a path is in Alluxio's namespace, without Alluxio looking for it in the under store.
   * Unlike a status call, Alluxio's {@code exists} does not hand a missing path to its absent-path
   * cache, which would ask S3 for it (a HEAD and a listing) on a thread of its own.
   */
  static ExistsContext noSyncExists() {
    return ExistsContext.mergeFrom(ExistsPOptions.newBuilder()
        .setLoadMetadataType(LoadMetadataPType.NEVER)
        .setCommonOptions(FileSystemMasterCommonPOptions.newBuilder().setSyncIntervalMs(-1)));
  }

  static ListStatusContext noSyncList() {
    return ListStatusContext.mergeFrom(ListStatusPOptions.newBuilder()
        .setLoadMetadataType(LoadMetadataPType.NEVER)
        .setCommonOptions(FileSystemMasterCommonPOptions.newBuilder().setSyncIntervalMs(-1)));
  }

  /** Under-store paths: load what S3 holds once, so an object another tool wrote is seen. */
  static GetStatusContext loadOnce() {
    return GetStatusContext.mergeFrom(GetStatusPOptions.newBuilder()
        .setLoadMetadataType(LoadMetadataPType.ONCE));
  }

  /**
   * A path the under store was just seen to hold: load it even where Alluxio remembers it as
   * absent (its absent-path cache, filled by earlier lookups), as the client's read-through does.
   */
  static GetStatusContext loadAlways() {
    return GetStatusContext.mergeFrom(GetStatusPOptions.newBuilder()
        .setLoadMetadataType(LoadMetadataPType.ALWAYS));
  }

  static DeleteContext alluxioOnlyRecursive() {
    return DeleteContext.mergeFrom(
        DeletePOptions.newBuilder().setRecursive(true).setAlluxioOnly(true));
  }

  /**
   * Deletes a directory in Alluxio only if it is empty, which the master checks under the same
   * lock as it deletes (a non-empty one: {@code DirectoryNotEmptyException}).
   */
  static DeleteContext alluxioOnlyIfEmpty() {
    return DeleteContext.mergeFrom(
        DeletePOptions.newBuilder().setRecursive(false).setAlluxioOnly(true));
  }

  /** Deletes in Alluxio and in the under store. */
  static DeleteContext everywhere() {
    return DeleteContext.mergeFrom(DeletePOptions.newBuilder().setRecursive(false)
        .setAlluxioOnly(false).setUnchecked(true));
  }
}
