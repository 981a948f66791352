package io.eccache.coordinator;

import alluxio.AlluxioURI;
import alluxio.conf.Configuration;
import alluxio.conf.PropertyKey;
import alluxio.exception.AlluxioException;
import alluxio.exception.FileDoesNotExistException;
import alluxio.grpc.CheckAccessPOptions;
import alluxio.grpc.FileSystemMasterCommonPOptions;
import alluxio.master.file.FileSystemMaster;
import alluxio.master.file.contexts.CheckAccessContext;
import alluxio.security.authorization.Mode;
import alluxio.security.user.ServerUserState;
import alluxio.util.CommonUtils;
import io.eccache.coordinator.form.NamespacePort;
import java.io.IOException;
import java.util.List;

/** {@link AccessPort} over the FileSystemMaster: Alluxio's own permission checker decides. */
final class AlluxioAccess implements AccessPort {
  private final FileSystemMaster fs;
  private final NamespacePort ns;

  AlluxioAccess(FileSystemMaster fs, NamespacePort ns) {
    this.fs = fs;
    this.ns = ns;
  }

  @Override
  public boolean exists(String path) throws IOException, AlluxioException {
    return ns.exists(path);
  }

  @Override
  public boolean isDirectory(String path) throws IOException, AlluxioException {
    if (!ns.exists(path)) {
      return false;
    }
    try {
      return ns.status(path).isFolder();
    } catch (FileDoesNotExistException removed) {
      return false;
    }
  }

  @Override
  public void check(String user, String path, Mode.Bits bits)
      throws IOException, AlluxioException {
    // As the user: Alluxio's checkAccess then decides (owner, group, other, ACLs, superuser and
    // supergroup), and its audit log names the user.
    MasterCalls.as(user, () -> {
      fs.checkAccess(new AlluxioURI(path), CheckAccessContext.mergeFrom(
          CheckAccessPOptions.newBuilder().setBits(bits.toProto()).setCommonOptions(
              FileSystemMasterCommonPOptions.newBuilder().setSyncIntervalMs(-1))));
      return null;
    });
  }

  @Override
  public boolean isAdministrator(String user) throws IOException {
    if (user.equals(ServerUserState.global().getUser().getName())) {
      return true;
    }
    String supergroup =
        Configuration.getString(PropertyKey.SECURITY_AUTHORIZATION_PERMISSION_SUPERGROUP);
    List<String> groups;
    try {
      groups = CommonUtils.getGroups(user, Configuration.global());
    } catch (IOException unknown) {
      return false; // a user the group mapping does not know is in no group
    }
    return groups.contains(supergroup);
  }

  @Override
  public String primaryGroup(String user) {
    try {
      return CommonUtils.getPrimaryGroupName(user, Configuration.global());
    } catch (IOException unknown) {
      // As Alluxio's own file creation: a user the group mapping does not know has no group.
      return "";
    }
  }
}
