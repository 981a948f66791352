package io.eccache.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.AlluxioURI;
import alluxio.exception.AccessControlException;
import alluxio.exception.status.PermissionDeniedException;
import alluxio.security.authorization.Mode;
import io.eccache.common.UnderStorePaths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which path governs a key and which bits each action needs (the decisions themselves are
 * Alluxio's): over an in-memory namespace of owners and modes with Unix rules, no groups.
 */
class KeyAccessTest {
  /** path -> {owner, mode, whether a directory}; "/" is root's, 755. */
  private final Map<String, Object[]> inodes = new HashMap<>();
  private final List<String> checks = new ArrayList<>();
  private final FakeNamespace namespace = new FakeNamespace();
  private final KeyAccess access = new KeyAccess(namespace, new UnderStorePaths("/"));
  private final Caller alice = Caller.named("alice");
  private final Caller bob = Caller.named("bob");

  KeyAccessTest() {
    inode("/", "root", 0755);
  }

  private void inode(String path, String owner, int mode) {
    inodes.put(path, new Object[] {owner, mode, true});
  }

  private void file(String path, String owner, int mode) {
    inodes.put(path, new Object[] {owner, mode, false});
  }

  @Test
  void aKeyWithoutAFileTakesTheNearestDirectorysPermissions() throws Exception {
    inode("/alice", "alice", 0700);
    access.check(alice, "alice/deep/notes.bin", KeyAccess.Action.PUT);
    access.check(alice, "alice/deep/notes.bin", KeyAccess.Action.READ);
    assertEquals(List.of("alice -wx /alice", "alice r-x /alice"), checks);
    assertThrows(PermissionDeniedException.class,
        () -> access.check(bob, "alice/deep/notes.bin", KeyAccess.Action.READ));
    assertThrows(PermissionDeniedException.class,
        () -> access.check(bob, "alice/deep/notes.bin", KeyAccess.Action.DELETE));
  }

  @Test
  void aKeyWithAFileIsThatFile() throws Exception {
    inode("/shared", "root", 0777);
    file("/shared/report.csv", "alice", 0644);
    access.check(bob, "shared/report.csv", KeyAccess.Action.READ);
    assertThrows(PermissionDeniedException.class,
        () -> access.check(bob, "shared/report.csv", KeyAccess.Action.PUT),
        "overwriting needs write on the file");
    access.check(bob, "shared/report.csv", KeyAccess.Action.DELETE); // as rm: the directory's w
    assertEquals(List.of("bob r-- /shared/report.csv", "bob -w- /shared/report.csv",
        "bob -wx /shared"), checks);
    file("/shared/report.csv", "alice", 0600);
    assertThrows(PermissionDeniedException.class,
        () -> access.check(bob, "shared/report.csv", KeyAccess.Action.READ));
  }

  @Test
  void aKeyAtTheTopNeedsTheRootDirectory() throws Exception {
    PermissionDeniedException e = assertThrows(PermissionDeniedException.class,
        () -> access.check(bob, "top.bin", KeyAccess.Action.PUT));
    assertTrue(e.getMessage().contains("user bob may not write 'top.bin'"), e.getMessage());
    access.check(bob, "top.bin", KeyAccess.Action.READ);
    access.check(Caller.named("root"), "top.bin", KeyAccess.Action.PUT);
  }

  @Test
  void anEscapedKeyIsGovernedByItsEscapedName() {
    assertEquals("/a/b.csv", access.governingPath("a/b.csv"));
    assertEquals("/plain", access.governingPath("plain"));
    assertEquals("/" + io.eccache.common.ObjectKeys.encode("a/~b"),
        access.governingPath("a/~b"));
  }

  @Test
  void aFileOnTheWayIsNotTheKeysDirectory() throws Exception {
    inode("/shared", "root", 0777);
    file("/shared/report.csv", "alice", 0644);
    access.check(bob, "shared/report.csv/part-1", KeyAccess.Action.PUT);
    assertEquals(List.of("bob -wx /shared"), checks);
  }

  @Test
  void securityOffChecksNothing() throws Exception {
    access.check(Caller.UNCHECKED, "anything", KeyAccess.Action.DELETE);
    access.checkAdministrator(Caller.UNCHECKED, "plan");
    assertEquals(List.of(), checks);
  }

  @Test
  void aListingAsksEachSharedPathOnce() throws Exception {
    inode("/alice", "alice", 0700);
    Map<String, Boolean> memo = KeyAccess.memo();
    for (int i = 0; i < 5; i++) {
      assertFalse(access.allows(bob, "alice/k" + i, KeyAccess.Action.READ, memo));
    }
    assertTrue(access.allows(bob, "open" , KeyAccess.Action.READ, memo));
    assertEquals(List.of("bob r-x /alice", "bob r-x /"), checks);
  }

  @Test
  void onlyAdministratorsMaintain() throws Exception {
    access.checkAdministrator(Caller.named("root"), "plan");
    PermissionDeniedException e = assertThrows(PermissionDeniedException.class,
        () -> access.checkAdministrator(bob, "plan eccache's maintenance"));
    assertTrue(e.getMessage().contains("supergroup"), e.getMessage());
  }

  /** Unix rules over {@link #inodes}; root is the superuser. */
  private final class FakeNamespace implements AccessPort {
    @Override
    public boolean exists(String path) {
      return inodes.containsKey(path);
    }

    @Override
    public boolean isDirectory(String path) {
      return inodes.containsKey(path) && (boolean) inodes.get(path)[2];
    }

    @Override
    public void check(String user, String path, Mode.Bits bits) throws AccessControlException {
      checks.add(user + " " + bits + " " + path);
      AlluxioURI uri = new AlluxioURI(path);
      for (AlluxioURI up = uri.getParent(); up != null; up = up.getParent()) {
        allow(user, up.getPath(), Mode.Bits.EXECUTE);
      }
      allow(user, path, bits);
    }

    private void allow(String user, String path, Mode.Bits bits) throws AccessControlException {
      Object[] inode = inodes.get(path);
      if (user.equals("root")) {
        return;
      }
      short mode = (short) (int) inode[1];
      Mode.Bits granted = user.equals(inode[0]) ? Mode.extractOwnerBits(mode)
          : Mode.extractOtherBits(mode);
      if (!granted.imply(bits)) {
        throw new AccessControlException("Permission denied: user=" + user + ", access=" + bits
            + ", path=" + path);
      }
    }

    @Override
    public boolean isAdministrator(String user) {
      return user.equals("root");
    }

    @Override
    public String primaryGroup(String user) {
      return user;
    }
  }
}
