package io.eccache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ObjectPathsTest {
  private final ObjectPaths paths = new ObjectPaths("/.eccache/");

  @Test
  void keysBecomeOneEscapedPathComponent() {
    String dir = paths.objectDirectory("warehouse/2026/part-0001.parquet");
    assertEquals("/.eccache/objects/warehouse%2F2026%2Fpart-0001.parquet", dir);
    String name = dir.substring(dir.lastIndexOf('/') + 1);
    assertEquals("warehouse/2026/part-0001.parquet", ObjectPaths.keyOf(name));
    assertFalse(name.contains("/"));
    // Keys that differ only in characters escaping could confuse stay distinct.
    assertNotEquals(paths.objectDirectory("a b"), paths.objectDirectory("a+b"));
    assertEquals("a+b", ObjectPaths.keyOf(paths.objectDirectory("a+b").substring(18)));
    assertEquals("/.eccache/objects/k/w1", paths.writeDirectory("k", "w1"));
  }

  @Test
  void persistedPathsAreTheKeysUnderThePrefix() {
    assertEquals("/warehouse/a.parquet", ObjectPaths.persistedPath("/", "warehouse/a.parquet"));
    assertEquals("/s3/data/x", ObjectPaths.persistedPath("/s3/data", "x"));
    for (String bad : new String[] {"/abs", "dir/", "a//b", "a/../b", "./a"}) {
      assertThrows(IllegalArgumentException.class, () -> ObjectPaths.persistedPath("/", bad), bad);
    }
  }

  @Test
  void splitNames() {
    assertEquals("d00", ObjectPaths.splitName(0, 10));
    assertEquals("d09", ObjectPaths.splitName(9, 10));
    assertEquals("p00", ObjectPaths.splitName(10, 10));
    assertEquals("p03", ObjectPaths.splitName(13, 10));
  }

  @Test
  void badKeysAreRefusedWithAReason() {
    assertThrows(IllegalArgumentException.class, () -> ObjectPaths.checkKey(null));
    assertThrows(IllegalArgumentException.class, () -> ObjectPaths.checkKey(""));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ObjectPaths.checkKey("x".repeat(1025)));
    assertEquals(true, e.getMessage().contains("shorter key"));
  }
}
