package io.eccache.coordinator;

import alluxio.exception.AccessControlException;
import alluxio.exception.AlluxioException;
import alluxio.security.authorization.Mode;
import java.io.IOException;

/**
 * What {@link KeyAccess} asks of Alluxio: whether a path is in its namespace, whether a user may
 * act on one, and who administers the cluster. A port, so the rules have unit tests over an
 * in-memory namespace; {@link AlluxioAccess} answers from the FileSystemMaster.
 */
interface AccessPort {
  /** Whether {@code path} is in Alluxio's namespace now (not asking the under store). */
  boolean exists(String path) throws IOException, AlluxioException;

  /** Whether {@code path} is a directory in Alluxio's namespace now. */
  boolean isDirectory(String path) throws IOException, AlluxioException;

  /**
   * Checks as Alluxio checks {@code user}'s own calls: {@code bits} on {@code path} and execute on
   * every directory above it (the superuser and the supergroup pass).
   *
   * @throws AccessControlException when Alluxio would refuse it
   */
  void check(String user, String path, Mode.Bits bits) throws IOException, AlluxioException;

  /** Whether {@code user} is Alluxio's superuser (the master's user) or in its supergroup. */
  boolean isAdministrator(String user) throws IOException;

  /** {@code user}'s primary group, as Alluxio's group mapping gives it ("" when it has none). */
  String primaryGroup(String user) throws IOException;
}
