package io.eccache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.exception.status.InvalidArgumentException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
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
      String key = i % 4 == 0 ? longKey(random) : ObjectKeysTest.randomKey(random);
      if (!ObjectKeys.isValid(key)) {
        continue;
      }
      for (String path : new String[] {s3.objectPath(key), s3.legacyPath(key),
          s3.foreignPath(key)}) {
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
  void aNameThatFitsIsTheEncodingAsBefore() {
    String fits = "a".repeat(UnderStorePaths.MAX_OBJECT_NAME_BYTES);
    assertEquals(fits, UnderStorePaths.objectName(fits));
    assertEquals("/s3/data/" + fits, s3.objectPath(fits));
    assertNull(s3.legacyPath(fits));
    // 72 escapes and 2 letters: 218 bytes encoded, still the name.
    String escaped = "/".repeat(72) + "ab";
    assertEquals(218, ObjectKeys.encode(escaped).length());
    assertEquals(ObjectKeys.encode(escaped), UnderStorePaths.objectName(escaped));
    assertEquals(escaped, ObjectKeys.decode(UnderStorePaths.objectName(escaped)));
  }

  @Test
  void aLongerNameIsItsReadableStartAndTheKeysHash() throws Exception {
    String key = "a".repeat(UnderStorePaths.MAX_OBJECT_NAME_BYTES + 1);
    String name = UnderStorePaths.objectName(key);
    assertEquals("a".repeat(152) + UnderStorePaths.HASH_MARKER + sha256(key), name);
    assertEquals(UnderStorePaths.MAX_OBJECT_NAME_BYTES, name.length());
    assertEquals("/s3/data/" + key, s3.legacyPath(key)); // where it was written before
    // Looked for in that order; a long plain key's plain path is its old name, listed once.
    assertEquals(List.of("/s3/data/" + name, "/s3/data/" + key),
        new ArrayList<>(s3.copyPaths(key)));
    assertEquals(List.of("/s3/data/x~2Fy.csv", "/s3/data/x/y.csv"),
        new ArrayList<>(s3.copyPaths("x/y.csv")));
    // The readable start ends between escapes, never inside one.
    String slashes = "x" + "/".repeat(300);
    String hashed = UnderStorePaths.objectName(slashes);
    assertEquals("x" + "~2F".repeat(50) + "~~" + sha256(slashes), hashed);
    // A key of 1,024 bytes escaping to 3,072 still has a name that fits.
    String widest = "\u20ac".repeat(341) + "x";
    assertEquals(ObjectKeys.MAX_KEY_BYTES, widest.getBytes(StandardCharsets.UTF_8).length);
    String wide = UnderStorePaths.objectName(widest);
    assertTrue(wide.length() <= UnderStorePaths.MAX_OBJECT_NAME_BYTES, wide);
    assertTrue(wide.startsWith("~E2~82~AC"), wide);
    root.checkNameLength(widest); // refused before names were hashed: 3,073 bytes escaped
    assertNull(root.legacyPath(widest), "no PUT can have written it under its full encoding");
    // Two long keys that differ only at the end share a readable start, not a name.
    String a = "reports/2024/" + "x".repeat(400) + "/a";
    String b = "reports/2024/" + "x".repeat(400) + "/b";
    String nameA = UnderStorePaths.objectName(a);
    String nameB = UnderStorePaths.objectName(b);
    assertEquals(nameA.substring(0, 152), nameB.substring(0, 152));
    assertFalse(nameA.equals(nameB));
    // The mapping is a function of the key alone: every client and the coordinator agree.
    assertEquals(nameA, UnderStorePaths.objectName(new String(a.toCharArray())));
  }

  @Test
  void noFullEncodingHoldsTheHashMarker() {
    for (String key : new String[] {"~", "~~", "~~~", "a~~b", "~7E~7E", "%7E%7E", "~~" + "0"
        .repeat(64)}) {
      assertFalse(ObjectKeys.encode(key).contains(UnderStorePaths.HASH_MARKER), key);
      assertEquals(ObjectKeys.encode(key), UnderStorePaths.objectName(key));
    }
    Random random = new Random(11);
    for (int i = 0; i < 20_000; i++) {
      String key = i % 2 == 0 ? longKey(random) : ObjectKeysTest.randomKey(random);
      if (ObjectKeys.isValid(key)) {
        assertFalse(ObjectKeys.encode(key).contains(UnderStorePaths.HASH_MARKER), key);
      }
    }
  }

  @Test
  void namesRoundTripToTheirKeysOrAreHashed() {
    Random random = new Random(13);
    Map<String, String> owner = new HashMap<>();
    int hashed = 0;
    for (int i = 0; i < 20_000; i++) {
      String key = i % 2 == 0 ? longKey(random) : ObjectKeysTest.randomKey(random);
      if (!ObjectKeys.isValid(key)) {
        continue;
      }
      String name = UnderStorePaths.objectName(key);
      assertTrue(name.length() <= UnderStorePaths.MAX_OBJECT_NAME_BYTES, name);
      assertFalse(name.isEmpty() || name.startsWith(".") || name.contains("/"), name);
      String earlier = owner.putIfAbsent(name, key);
      assertTrue(earlier == null || earlier.equals(key), () -> "two keys, one name: " + name);
      if (name.contains(UnderStorePaths.HASH_MARKER)) {
        hashed++;
        // A hashed name is no key's encoding: nothing reads it as another key. Its key is kept
        // in the coordinator's records, and is the one whose name it is.
        assertNull(ObjectKeys.decode(name), name);
        assertTrue(ObjectKeys.encode(key).startsWith(name.substring(0,
            name.indexOf(UnderStorePaths.HASH_MARKER))), name);
        String full = "/" + ObjectKeys.encode(key);
        assertEquals(full.length() > UnderStorePaths.MAX_NAME_BYTES ? null : full,
            root.legacyPath(key));
      } else {
        assertEquals(key, ObjectKeys.decode(name));
        assertNull(root.legacyPath(key));
      }
    }
    assertTrue(hashed > 1000, "long keys were tried: " + hashed);
  }

  @Test
  void aNameWithinAnyRoomIsHashedOnlyWhenTheEncodingIsLonger() {
    String key = "k".repeat(100);
    assertEquals(key, UnderStorePaths.nameWithin(key, 100));
    String hashed = UnderStorePaths.nameWithin(key, 99);
    assertEquals(99, hashed.length());
    assertEquals("k".repeat(33) + "~~", hashed.substring(0, 35));
    assertTrue(UnderStorePaths.isHashedName(hashed));
    assertTrue(UnderStorePaths.isHashedName(UnderStorePaths.objectName("x".repeat(300))));
    assertFalse(UnderStorePaths.isHashedName(key));
    assertFalse(UnderStorePaths.isHashedName("~~" + "a".repeat(64)), "no readable start");
    assertFalse(UnderStorePaths.isHashedName("x~~" + "A".repeat(64)), "upper-case hex");
    assertFalse(UnderStorePaths.isHashedName("x~~" + "a".repeat(63)));
    assertThrows(IllegalArgumentException.class, () -> UnderStorePaths.nameWithin(key, 66));
  }

  @Test
  void namesLongerThanAFileNameAreTold() {
    assertFalse(UnderStorePaths.beyondFileNames("/s3/" + "x".repeat(255) + "/y"));
    assertTrue(UnderStorePaths.beyondFileNames("/s3/" + "x".repeat(256) + "/y"));
    assertTrue(UnderStorePaths.beyondFileNames("/" + "x".repeat(256)));
    assertFalse(UnderStorePaths.beyondFileNames("/" + "\u20ac".repeat(85))); // 255 bytes
    assertTrue(UnderStorePaths.beyondFileNames("/a/" + "\u20ac".repeat(86)));
    assertFalse(UnderStorePaths.beyondFileNames("/" + "x/".repeat(400)));
    Random random = new Random(17);
    for (int i = 0; i < 2_000; i++) {
      String key = longKey(random);
      if (ObjectKeys.isValid(key)) {
        assertFalse(UnderStorePaths.beyondFileNames(s3.objectPath(key)), key);
      }
    }
  }

  @Test
  void aPrefixLeavingNoRoomForANameIsRefused() throws Exception {
    UnderStorePaths deep = new UnderStorePaths("/" + "d/".repeat(420));
    deep.checkNameLength("x");
    InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
        () -> deep.checkNameLength("x".repeat(300)));
    assertTrue(e.getMessage().contains("1024"), e.getMessage());
  }

  /** Keys of 60 to 1,100 characters, so their encodings straddle every length limit. */
  static String longKey(Random random) {
    String[] atoms = {"x", "ab", "/", "~", "~~", "€", "😀", "data/", ".", "-", " ", "%",
        "~2F"};
    StringBuilder key = new StringBuilder();
    int n = 60 + random.nextInt(random.nextBoolean() ? 200 : 1040);
    while (key.length() < n) {
      key.append(atoms[random.nextInt(atoms.length)]);
    }
    return key.toString();
  }

  private static String sha256(String key) throws Exception {
    return com.google.common.io.BaseEncoding.base16().lowerCase().encode(
        java.security.MessageDigest.getInstance("SHA-256").digest(
            key.getBytes(StandardCharsets.UTF_8)));
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
