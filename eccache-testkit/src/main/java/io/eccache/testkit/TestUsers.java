package io.eccache.testkit;

import alluxio.client.file.FileSystem;
import alluxio.client.file.FileSystemContext;
import alluxio.conf.Configuration;
import alluxio.conf.InstancedConfiguration;
import alluxio.conf.PropertyKey;
import alluxio.security.group.GroupMappingService;
import java.util.List;

/**
 * The users tests act as, and their groups: Alluxio's group mapping for every test cluster
 * ({@code alluxio.security.group.mapping.class}), as Alluxio's own {@code PermissionCheckTest}
 * fixes one, so no test depends on the machine's accounts.
 *
 * <p>Every user is in a group of its own name and in {@value #STAFF}; {@value #ADMIN} is also in
 * Alluxio's default supergroup, {@value #SUPERGROUP}. The master's own user (the OS user running
 * the tests) is Alluxio's superuser.
 */
public final class TestUsers implements GroupMappingService {
  /** A user who owns files and keys in tests. */
  public static final String ALICE = "alice";
  /** A second user, who must not reach what is alice's alone. */
  public static final String BOB = "bob";
  /** A user in the supergroup: an administrator who is not the superuser. */
  public static final String ADMIN = "carol";
  /** The group every test user is in. */
  public static final String STAFF = "staff";
  /** Alluxio's default supergroup ({@code alluxio.security.authorization.permission.supergroup}). */
  public static final String SUPERGROUP = "supergroup";

  /** Alluxio creates the mapping by reflection. */
  public TestUsers() {}

  @Override
  public List<String> getGroups(String user) {
    return ADMIN.equals(user) ? List.of(user, STAFF, SUPERGROUP) : List.of(user, STAFF);
  }

  /** A configuration of this JVM's cluster in which clients log in as {@code user}. */
  public static InstancedConfiguration as(String user) {
    InstancedConfiguration conf = Configuration.copyGlobal();
    conf.set(PropertyKey.SECURITY_LOGIN_USERNAME, user);
    return conf;
  }

  /** A plain Alluxio client of this JVM's cluster acting as {@code user}; the caller closes it. */
  public static FileSystem fileSystem(String user) {
    return FileSystem.Factory.create(FileSystemContext.create(as(user)));
  }
}
