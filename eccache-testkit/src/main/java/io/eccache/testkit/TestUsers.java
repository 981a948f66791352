package io.eccache.testkit;

import alluxio.AlluxioURI;
import alluxio.client.file.FileSystem;
import alluxio.client.file.FileSystemContext;
import alluxio.conf.Configuration;
import alluxio.conf.InstancedConfiguration;
import alluxio.conf.PropertyKey;
import alluxio.exception.AlluxioException;
import alluxio.grpc.CreateDirectoryPOptions;
import alluxio.grpc.SetAttributePOptions;
import alluxio.grpc.WritePType;
import alluxio.security.authorization.Mode;
import java.io.IOException;

/**
 * The users tests act as, as Alluxio's own {@code PermissionCheckTest} fixes them, so no test
 * depends on the machine's accounts: every test cluster maps each user to one group of its own
 * name (Alluxio's {@code IdentityUserGroupsMapping}, which every client has, also the shaded one
 * and Spark's) and makes {@value #ADMIN}'s group its supergroup. The OS user running the tests is
 * the master's, Alluxio's superuser.
 */
public final class TestUsers {
  /** A user who owns files and keys in tests. */
  public static final String ALICE = "alice";
  /** A second user, who must not reach what is alice's alone. */
  public static final String BOB = "bob";
  /** A user in the supergroup: an administrator who is not the superuser. */
  public static final String ADMIN = "carol";
  /** Alluxio's supergroup on test clusters: {@value #ADMIN}'s own group. */
  public static final String SUPERGROUP = ADMIN;
  /** The group mapping of test clusters. */
  static final String GROUP_MAPPING = "alluxio.security.group.provider.IdentityUserGroupsMapping";

  private TestUsers() {}

  /** A configuration of this JVM's cluster in which clients log in as {@code user}. */
  public static InstancedConfiguration as(String user) {
    InstancedConfiguration conf = Configuration.copyGlobal();
    conf.set(PropertyKey.SECURITY_LOGIN_USERNAME, user);
    return conf;
  }

  /**
   * Makes {@code path} a directory (in Alluxio and the under store, with its parents) owned by
   * {@code owner} with {@code mode}, through {@code superuser}, a client acting as the superuser.
   */
  public static void directory(FileSystem superuser, String path, String owner, int mode)
      throws IOException, AlluxioException {
    AlluxioURI uri = new AlluxioURI(path);
    superuser.createDirectory(uri, CreateDirectoryPOptions.newBuilder().setRecursive(true)
        .setAllowExists(true).setWriteType(WritePType.CACHE_THROUGH).build());
    SetAttributePOptions.Builder attributes = SetAttributePOptions.newBuilder()
        .setMode(new Mode((short) mode).toProto());
    if (owner != null) {
      attributes.setOwner(owner);
    }
    superuser.setAttribute(uri, attributes.build());
  }

  /** A plain Alluxio client of this JVM's cluster acting as {@code user}; the caller closes it. */
  public static FileSystem fileSystem(String user) {
    return FileSystem.Factory.create(FileSystemContext.create(as(user)));
  }

  /**
   * Drops Alluxio's JVM-wide group mapping (created once, from whichever configuration asked first,
   * and kept: {@code GroupMappingService.Factory}), so the next one made is this cluster's. A
   * client of a process cluster asked first with the machine's mapping, and an in-process master
   * started after it in the same JVM found carol in no group: PermissionTest failed when it ran
   * after CrashTest alone. As Alluxio's own tests reset it (GroupMappingServiceTestUtils).
   */
  static void forgetCachedGroupMapping() {
    try {
      java.lang.reflect.Field cached = alluxio.security.group.GroupMappingService.Factory.class
          .getDeclaredField("sCachedGroupMapping");
      cached.setAccessible(true);
      cached.set(null, null);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Alluxio's group mapping cache is not where 2.9.6 keeps it;"
          + " users' groups in this JVM may be the first configuration's", e);
    }
  }
}
