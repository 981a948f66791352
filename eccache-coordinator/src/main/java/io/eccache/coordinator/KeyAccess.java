package io.eccache.coordinator;

import alluxio.AlluxioURI;
import alluxio.exception.AccessControlException;
import alluxio.exception.AlluxioException;
import alluxio.exception.status.PermissionDeniedException;
import alluxio.security.authorization.Mode;
import io.eccache.common.UnderStorePaths;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Who may do what to a key: Alluxio's own permission model, applied to the Alluxio path that
 * governs the key, so administrators manage keys with {@code alluxio fs chmod/chown/setfacl} as
 * they manage files (docs/security.md).
 *
 * <p>A key {@code K} is governed by its plain path under the under-store prefix,
 * {@code <prefix>/K} (its escaped name when {@code K} is no plain path): the file another tool, or
 * a THROUGH PUT of a key without '/', keeps there. When that path is in Alluxio's namespace its
 * permissions are the key's, as a file's; otherwise the key is as a file in the nearest directory
 * above it that exists (files on the way are skipped: keys {@code a} and {@code a/b} may both
 * exist), and that directory's permissions decide:
 *
 * <table>
 *   <tr><th>action</th><th>the path exists</th><th>it does not</th></tr>
 *   <tr><td>READ (get, stat, lookup, ls)</td><td>r on it</td><td>r-x on the directory</td></tr>
 *   <tr><td>PUT</td><td>w on it and -wx on its parent</td><td>-wx on the directory</td></tr>
 *   <tr><td>DELETE</td><td>-wx on its parent</td><td>-wx on the directory</td></tr>
 * </table>
 *
 * <p>A PUT needs write on the parent too because replacing a key removes its copies in S3, as a
 * delete does. Alluxio checks execute on every directory above, and passes its superuser and
 * supergroup. The decisions are Alluxio's (its {@code checkAccess}, as the caller); this class only
 * chooses the path and the bits.
 */
final class KeyAccess {
  /** What a request does to a key. */
  enum Action {
    READ("read"), PUT("write"), DELETE("delete");

    private final String verb;

    Action(String verb) {
      this.verb = verb;
    }
  }

  private final AccessPort port;
  private final UnderStorePaths ufs;

  KeyAccess(AccessPort port, UnderStorePaths ufs) {
    this.port = port;
    this.ufs = ufs;
  }

  /** The Alluxio path whose permissions govern {@code key} (a valid key). */
  String governingPath(String key) {
    return ufs.governingPath(key);
  }

  /**
   * Checks that {@code caller} may do {@code action} to {@code key}.
   *
   * @throws PermissionDeniedException when Alluxio would refuse it; the message names the user,
   *     the key and Alluxio's reason (the path, its owner and mode)
   */
  void check(Caller caller, String key, Action action) throws IOException, AlluxioException {
    if (!caller.checked()) {
      return;
    }
    try {
      checkOrThrow(caller.user(), key, action, null);
    } catch (AccessControlException e) {
      throw denied(caller, key, action, e);
    }
  }

  /**
   * Whether {@code caller} may do {@code action} to {@code key}; {@code memo} (one per request,
   * e.g. a listing) remembers the checks of paths many keys share.
   */
  boolean allows(Caller caller, String key, Action action, Map<String, Boolean> memo)
      throws IOException, AlluxioException {
    if (!caller.checked()) {
      return true;
    }
    try {
      checkOrThrow(caller.user(), key, action, memo);
      return true;
    } catch (AccessControlException e) {
      return false;
    }
  }

  /** A memo for {@link #allows}. */
  static Map<String, Boolean> memo() {
    return new HashMap<>();
  }

  /**
   * Checks that {@code caller} is Alluxio's superuser or in its supergroup, as eccache's
   * maintenance needs ({@code what} names it in the refusal).
   *
   * @throws PermissionDeniedException for anyone else
   */
  void checkAdministrator(Caller caller, String what) throws IOException {
    if (!isAdministrator(caller)) {
      throw new PermissionDeniedException("user " + caller.user() + " may not " + what + ": only"
          + " Alluxio's superuser and its supergroup"
          + " (alluxio.security.authorization.permission.supergroup) administer eccache; run it"
          + " as one of them");
    }
  }

  /** Whether {@code caller} is Alluxio's superuser or in its supergroup (or security is off). */
  boolean isAdministrator(Caller caller) throws IOException {
    return !caller.checked() || port.isAdministrator(caller.user());
  }

  /** {@code user}'s primary group, to own the files it writes. */
  String primaryGroup(Caller caller) throws IOException {
    return caller.checked() ? port.primaryGroup(caller.user()) : "";
  }

  private void checkOrThrow(String user, String key, Action action, Map<String, Boolean> memo)
      throws IOException, AlluxioException {
    AlluxioURI governing = new AlluxioURI(governingPath(key));
    if (exists(governing, memo)) {
      switch (action) {
        case READ:
          check(user, governing, Mode.Bits.READ, memo);
          return;
        case PUT:
          check(user, governing, Mode.Bits.WRITE, memo);
          check(user, governing.getParent(), Mode.Bits.WRITE_EXECUTE, memo);
          return;
        default:
          check(user, governing.getParent(), Mode.Bits.WRITE_EXECUTE, memo);
          return;
      }
    }
    // A file on the way is skipped: keys a and a/b both exist, the file a being the first's.
    AlluxioURI directory = governing.getParent();
    while (!directory.isRoot() && !isDirectory(directory, memo)) {
      directory = directory.getParent();
    }
    check(user, directory, action == Action.READ ? Mode.Bits.READ_EXECUTE
        : Mode.Bits.WRITE_EXECUTE, memo);
  }

  /** A question about the namespace, asked of the port. */
  private interface Question {
    boolean ask(String path) throws IOException, AlluxioException;
  }

  private boolean exists(AlluxioURI path, Map<String, Boolean> memo)
      throws IOException, AlluxioException {
    return answer("exists ", port::exists, path, memo);
  }

  private boolean isDirectory(AlluxioURI path, Map<String, Boolean> memo)
      throws IOException, AlluxioException {
    return answer("directory ", port::isDirectory, path, memo);
  }

  /** The port's answer, remembered in {@code memo} (when there is one) under {@code tag}. */
  private static boolean answer(String tag, Question question, AlluxioURI path,
      Map<String, Boolean> memo) throws IOException, AlluxioException {
    if (memo == null) {
      return question.ask(path.getPath());
    }
    Boolean known = memo.get(tag + path.getPath());
    if (known == null) {
      known = question.ask(path.getPath());
      memo.put(tag + path.getPath(), known);
    }
    return known;
  }

  private void check(String user, AlluxioURI path, Mode.Bits bits, Map<String, Boolean> memo)
      throws IOException, AlluxioException {
    if (memo == null) {
      port.check(user, path.getPath(), bits);
      return;
    }
    String entry = bits + " " + path.getPath();
    Boolean allowed = memo.get(entry);
    if (allowed == null) {
      try {
        port.check(user, path.getPath(), bits);
        allowed = true;
      } catch (AccessControlException e) {
        allowed = false;
      }
      memo.put(entry, allowed);
    }
    if (!allowed) {
      throw new AccessControlException("denied: " + entry);
    }
  }

  private PermissionDeniedException denied(Caller caller, String key, Action action,
      AccessControlException e) {
    return new PermissionDeniedException("user " + caller.user() + " may not " + action.verb
        + " '" + key + "' (its permissions are those of " + governingPath(key) + " or the nearest"
        + " directory above it): " + e.getMessage(), e);
  }
}
