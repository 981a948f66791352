package io.eccache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.conf.PropertyKey;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md holds the tables generated from the keys themselves: their names, defaults,
 * scopes and descriptions have one source. With {@code -Deccache.docs.update=true} this test writes
 * them instead of comparing.
 */
class ConfigurationDocTest {
  private static final Path DOC = Path.of("..", "docs", "configuration.md");
  private static final String BEGIN = "<!-- BEGIN GENERATED KEYS -->\n";
  private static final String END = "<!-- END GENERATED KEYS -->";

  @Test
  void theDocumentedKeysAreTheRegisteredOnes() throws Exception {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    int from = doc.indexOf(BEGIN);
    int to = doc.indexOf(END);
    assertTrue(from >= 0 && to > from, "docs/configuration.md has no generated section");
    String generated = render();
    if (Boolean.getBoolean("eccache.docs.update")) {
      Files.writeString(DOC, doc.substring(0, from + BEGIN.length()) + generated
          + doc.substring(to), StandardCharsets.UTF_8);
      return;
    }
    assertEquals(generated, doc.substring(from + BEGIN.length(), to),
        "docs/configuration.md is out of date: regenerate it (the command is in the file)");
  }

  @Test
  void everyKeyIsInOneGroupWithItsGroupsPrefixAndScope() throws Exception {
    List<PropertyKey> all = EcCacheKeys.registerAll();
    Set<String> names = new HashSet<>();
    for (PropertyKey key : all) {
      assertTrue(names.add(key.getName()), "twice: " + key);
      assertTrue(EcCacheKeys.isEcCacheKey(key.getName()), key.getName());
      assertTrue(PropertyKey.isValid(key.getName()), "registered: " + key);
      assertTrue(!key.getDescription().isEmpty(), "described: " + key);
    }
    for (Class<?> group : List.of(SharedKeys.class, MasterKeys.class, ClientKeys.class,
        WorkerKeys.class)) {
      for (Field f : group.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers()) && f.getType() == PropertyKey.class) {
          assertTrue(names.contains(((PropertyKey) f.get(null)).getName()),
              group.getSimpleName() + "." + f.getName() + " is missing from its ALL list");
        }
      }
    }
    for (PropertyKey key : MasterKeys.ALL) {
      assertTrue(key.getName().startsWith("alluxio.master.eccache."), key.getName());
      assertEquals(alluxio.grpc.Scope.MASTER, key.getScope(), key.getName());
    }
    for (PropertyKey key : ClientKeys.ALL) {
      assertTrue(key.getName().startsWith("alluxio.user.eccache."), key.getName());
      assertEquals(alluxio.grpc.Scope.CLIENT, key.getScope(), key.getName());
    }
    for (PropertyKey key : WorkerKeys.ALL) {
      assertTrue(key.getName().startsWith("alluxio.worker.eccache."), key.getName());
      assertEquals(alluxio.grpc.Scope.WORKER, key.getScope(), key.getName());
    }
    for (PropertyKey key : SharedKeys.ALL) {
      assertTrue(key.getName().startsWith("alluxio.eccache."), key.getName());
      assertEquals(alluxio.grpc.Scope.ALL, key.getScope(), key.getName());
    }
  }

  /** The generated section: one table per group. */
  static String render() {
    StringBuilder out = new StringBuilder();
    for (EcCacheKeys.Group group : EcCacheKeys.Group.values()) {
      String prefix = group.keys().get(0).getName().replaceAll("^(alluxio\\.(\\w+\\.)??eccache)\\..*",
          "$1");
      out.append("### ").append(group.readers()).append(" (`").append(prefix)
          .append(".*`, scope ").append(group.keys().get(0).getScope().name()
              .toLowerCase(Locale.ROOT)).append(")\n\n");
      out.append("| key | default | meaning |\n|---|---|---|\n");
      for (PropertyKey key : group.keys()) {
        Object def = key.getDefaultValue();
        String shown = def == null || String.valueOf(def).isEmpty() ? "(empty)"
            : "`" + def + "`";
        out.append("| `").append(key.getName()).append("` | ").append(shown).append(" | ")
            .append(key.getDescription().replace("|", "\\|")).append(" |\n");
      }
      out.append('\n');
    }
    return out.toString();
  }
}
