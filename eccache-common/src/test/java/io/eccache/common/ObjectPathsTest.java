package io.eccache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class ObjectPathsTest {
  private final ObjectPaths paths = new ObjectPaths("/.eccache/");

  @Test
  void keysBecomeOneEncodedPathComponent() {
    String dir = paths.objectDirectory("warehouse/2026/part-0001.parquet");
    assertEquals("/.eccache/objects/warehouse~2F2026~2Fpart-0001.parquet", dir);
    String name = dir.substring(dir.lastIndexOf('/') + 1);
    assertEquals("warehouse/2026/part-0001.parquet", ObjectPaths.keyOf(name));
    assertFalse(name.contains("/"));
    assertNotEquals(paths.objectDirectory("a b"), paths.objectDirectory("a+b"));
    assertEquals("a+b", ObjectPaths.keyOf(paths.objectDirectory("a+b").substring(18)));
    assertEquals("/.eccache/objects/k/w1", paths.writeDirectory("k", "w1"));
  }

  @Test
  void dotKeysNameTheirOwnDirectoryNotTheParent() {
    // "." and ".." once named objects/ itself and the root: deleting them emptied the cache.
    assertEquals("/.eccache/objects/~2E", paths.objectDirectory("."));
    assertEquals("/.eccache/objects/~2E.", paths.objectDirectory(".."));
    assertEquals("/.eccache/objects/~2E.~2F..~2Fx", paths.objectDirectory("../../x"));
  }

}
