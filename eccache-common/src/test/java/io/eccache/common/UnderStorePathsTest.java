package io.eccache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class UnderStorePathsTest {
  private final UnderStorePaths root = new UnderStorePaths("/");
  private final UnderStorePaths s3 = new UnderStorePaths("/s3/data/");

  @Test
  void objectsAreOneFileDirectlyUnderThePrefix() {
    assertEquals("/report.csv", root.objectPath("report.csv"));
    assertEquals("/s3/data/x", s3.objectPath("x"));
    // "a" and "a/b" are both files: no file-vs-directory clash.
    assertEquals("/s3/data/a", s3.objectPath("a"));
    assertEquals("/s3/data/a~2Fb", s3.objectPath("a/b"));
    // No key leaves the prefix or reaches eccache's own names.
    assertEquals("/s3/data/~2E.~2F..~2Fetc", s3.objectPath("../../etc"));
    assertEquals("/~2Eeccache~2Fobjects~2Fx", root.objectPath(".eccache/objects/x"));
    assertEquals("/s3/data/.eccache-staging/w1", s3.stagingPath("w1"));
    assertEquals("/.eccache-staging/w1", root.stagingPath("w1"));
    assertTrue(s3.isStagingPath(s3.stagingPath("w1")));
    assertTrue(root.isStagingPath(root.stagingPath("w1-replaced")));
    assertFalse(s3.isStagingPath(s3.objectPath("w1")));
    assertFalse(s3.isStagingPath(s3.stagingDirectory()));
    assertFalse(s3.isStagingPath(s3.stagingDirectory() + "/"));
    assertFalse(s3.isStagingPath(s3.stagingDirectory() + "/w1/nested"));
    assertFalse(s3.isStagingPath("/s3/data/.eccache-stagingw1"));
  }

  @Test
  void plainPathsOfOtherToolsAreFoundButNeverAliasAnotherKey() {
    assertEquals("/s3/data/warehouse/x.csv", s3.foreignPath("warehouse/x.csv"));
    assertEquals("/s3/data/my file.csv", s3.foreignPath("my file.csv"));
    assertNull(s3.foreignPath("x")); // the same as its own name
    for (String notPlain : new String[] {"a//b", "/a", "a/", "./a", "a/../b", ".hidden", "a%2Fb", "a~2Fb",
        "a:b", "tab\there", "a\\b", "a?b", "data/x?v=1"}) {
      assertNull(s3.foreignPath(notPlain), notPlain);
    }
    Random random = new Random(7);
    Map<String, String> owner = new HashMap<>();
    for (int i = 0; i < 20_000; i++) {
      String key = ObjectKeysTest.randomKey(random);
      if (!ObjectKeys.isValid(key)) {
        continue;
      }
      for (String path : new String[] {s3.objectPath(key), s3.foreignPath(key)}) {
        if (path != null) {
          String earlier = owner.putIfAbsent(path, key);
          assertTrue(earlier == null || earlier.equals(key),
              () -> path + " belongs to '" + earlier + "' and '" + key + "'");
          assertTrue(path.startsWith("/s3/data/"));
          // The path Alluxio sees is this one: AlluxioURI takes '?' as the start of a query.
          assertEquals(path, new alluxio.AlluxioURI(path).getPath(), key);
        }
      }
    }
  }

  @Test
  void eccacheRootMustBeUnreachableFromKeys() {
    root.checkDisjointFrom("/.eccache");
    s3.checkDisjointFrom("/.eccache");
    s3.checkDisjointFrom("/s3/data/.eccache");
    assertThrows(IllegalArgumentException.class, () -> s3.checkDisjointFrom("/s3/data/eccache"));
    assertThrows(IllegalArgumentException.class, () -> root.checkDisjointFrom("/eccache"));
    assertThrows(IllegalArgumentException.class, () -> s3.checkDisjointFrom("/s3/data"));
  }
}
