package io.eccache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.exception.status.InvalidArgumentException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ObjectKeysTest {
  @Test
  void badKeysAreRefusedWithATypedReason() throws Exception {
    assertThrows(InvalidArgumentException.class, () -> ObjectKeys.check(null));
    assertThrows(InvalidArgumentException.class, () -> ObjectKeys.check(""));
    InvalidArgumentException tooLong = assertThrows(InvalidArgumentException.class,
        () -> ObjectKeys.check("x".repeat(1025)));
    assertTrue(tooLong.getMessage().contains("shorter key"), tooLong.getMessage());
    // 342 three-byte characters are 1026 bytes: the limit is in bytes, not characters.
    assertThrows(InvalidArgumentException.class, () -> ObjectKeys.check("€".repeat(342)));
    assertEquals("€".repeat(341), ObjectKeys.check("€".repeat(341)));
    InvalidArgumentException lone = assertThrows(InvalidArgumentException.class,
        () -> ObjectKeys.check("x\uD800"));
    assertTrue(lone.getMessage().contains("index 1"), lone.getMessage());
    assertThrows(InvalidArgumentException.class, () -> ObjectKeys.check("\uDC00y"));
    assertThrows(InvalidArgumentException.class, () -> ObjectKeys.check("a\uDBFF\uDBFFb"));
  }

  @Test
  void everyWellFormedStringIsAKey() throws Exception {
    for (String key : new String[] {".", "..", "/", "//", "a/../b", "%", "%2F", "\u0000", "\n", "~7E",
        "😀", "a b", ".eccache/objects/x", "~", "-"}) {
      assertEquals(key, ObjectKeys.check(key));
      assertEquals(key, ObjectKeys.decode(ObjectKeys.encode(key)), key);
    }
  }

  @Test
  void encodedNamesAreSafeComponents() {
    assertEquals("plain-name_1.csv", ObjectKeys.encode("plain-name_1.csv"));
    assertEquals("~7E", ObjectKeys.encode("~"));
    assertEquals("~2E", ObjectKeys.encode("."));
    assertEquals("~2E.", ObjectKeys.encode(".."));
    assertEquals("~2Ehidden", ObjectKeys.encode(".hidden"));
    assertEquals("a~2Fb", ObjectKeys.encode("a/b"));
    assertEquals("~25", ObjectKeys.encode("%")); // no % in any name: see encode
    assertEquals("x~3F", ObjectKeys.encode("x?"));
    assertEquals("~F0~9F~98~80", ObjectKeys.encode("😀"));
  }

  @Test
  void decodeAcceptsOnlyCanonicalNames() {
    assertNull(ObjectKeys.decode(".hidden")); // eccache's own names
    assertNull(ObjectKeys.decode("a~2fb")); // lower-case hex: a second name for "a/b"
    assertNull(ObjectKeys.decode("a%2Fb")); // not this encoding
    assertNull(ObjectKeys.decode("~61")); // a needless escape: a second name for "a"
    assertNull(ObjectKeys.decode("a b")); // not an encoding
    assertNull(ObjectKeys.decode("~ED~A0~80")); // a surrogate in UTF-8
    assertNull(ObjectKeys.decode("~C3"));
    assertNull(ObjectKeys.decode("~2"));
    assertNull(ObjectKeys.decode(""));
    assertEquals("a/b", ObjectKeys.decode("a~2Fb"));
  }

  @Test
  void encodingIsInjectiveOverRandomKeys() throws Exception {
    Random random = new Random(42);
    Map<String, String> byName = new HashMap<>();
    for (int i = 0; i < 20_000; i++) {
      String key = randomKey(random);
      if (!ObjectKeys.isValid(key)) {
        continue;
      }
      String name = ObjectKeys.encode(key);
      String earlier = byName.putIfAbsent(name, key);
      assertTrue(earlier == null || earlier.equals(key), () -> "two keys, one name: " + name);
      assertFalse(name.contains("/") || name.startsWith(".") || name.isEmpty(), name);
      assertEquals(key, ObjectKeys.decode(name));
      assertTrue(name.getBytes(StandardCharsets.UTF_8).length
          <= 3 * key.getBytes(StandardCharsets.UTF_8).length);
    }
  }

  /** Short strings over an alphabet dense in what could confuse an encoding. */
  static String randomKey(Random random) {
    String[] atoms = {".", "..", "/", "%", "%2F", "~2E", "~", "a", "B", " ", "+", "*", "~", "\u0000",
        "é", "€", "😀", "\uD800", "\uDC00", ":", "\\", "?", "#"};
    StringBuilder key = new StringBuilder();
    int n = 1 + random.nextInt(6);
    for (int i = 0; i < n; i++) {
      key.append(atoms[random.nextInt(atoms.length)]);
    }
    return key.toString();
  }
}
