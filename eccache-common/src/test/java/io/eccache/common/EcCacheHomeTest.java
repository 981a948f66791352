package io.eccache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EcCacheHomeTest {
  @Test
  void eccacheHomeWinsThenTheShellsHomeThenTheJvms() {
    assertEquals(Path.of("/srv/ec"), EcCacheHome.of(Map.of("ECCACHE_HOME", "/srv/ec",
        "HOME", "/home/ann"), "/root"));
    assertEquals(Path.of("/home/ann/.eccache"), EcCacheHome.of(Map.of("HOME", "/home/ann"),
        "/root"), "~ as the shell has it, not the password database's");
    assertEquals(Path.of("/home/ann/.eccache"), EcCacheHome.of(Map.of("ECCACHE_HOME", "",
        "HOME", "/home/ann"), "/root"), "an empty variable is unset");
    assertEquals(Path.of("/root/.eccache"), EcCacheHome.of(Map.of(), "/root"));
  }
}
