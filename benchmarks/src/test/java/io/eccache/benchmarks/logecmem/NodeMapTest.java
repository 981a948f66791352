package io.eccache.benchmarks.logecmem;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Logical DRAM nodes on real servers: one each when there are enough, else shared, apart. */
class NodeMapTest {
  @Test
  void oneServerPerNodeWhenThereAreEnoughAndNoPrefix() {
    NodeMap map = NodeMap.of(14, 20);
    assertFalse(map.isVirtual());
    assertEquals(14, map.servers());
    for (int node = 0; node < 14; node++) {
      assertEquals(node, map.server(node));
      assertEquals("", map.prefix(node)); // the paper's testbed: items under their own keys
    }
    assertEquals("14 DRAM nodes, one memcached server each", map.label());
  }

  @Test
  void widerCodesShareServersEvenlyUnderPrefixesOfTheirOwn() {
    NodeMap map = NodeMap.of(132, 20); // (128,4)
    assertTrue(map.isVirtual());
    assertEquals(20, map.servers());
    int[] load = new int[20];
    Set<String> prefixes = new HashSet<>();
    for (int node = 0; node < 132; node++) {
      load[map.server(node)]++;
      assertTrue(prefixes.add(map.prefix(node)), "prefix of node " + node + " is taken");
      assertTrue(map.prefix(node).startsWith("v" + map.server(node) + "."), map.prefix(node));
    }
    for (int n : load) {
      assertTrue(n == 6 || n == 7, "a server carries " + n);
    }
    assertArrayEquals(new int[] {6, 7}, map.nodesPerServer());
    assertEquals("132 logical DRAM nodes on 20 memcached servers (6-7 each)", map.label());
    assertEquals("36 logical DRAM nodes on 18 memcached servers (2 each)",
        NodeMap.of(36, 18).label());
  }

  @Test
  void outOfRangeSizesAreATypedErrorNamingTheLimit() {
    NodeMap.OutOfRangeException nodes = assertThrows(NodeMap.OutOfRangeException.class,
        () -> NodeMap.of(257, 20));
    assertTrue(nodes.getMessage().contains("256"), nodes.getMessage());
    NodeMap.OutOfRangeException servers = assertThrows(NodeMap.OutOfRangeException.class,
        () -> NodeMap.of(10, 81));
    assertTrue(servers.getMessage().contains("127.0.0.89"), servers.getMessage());
    assertThrows(NodeMap.OutOfRangeException.class, () -> NodeMap.of(0, 4));
    assertThrows(IndexOutOfBoundsException.class, () -> NodeMap.of(10, 4).server(10));
  }
}
