package io.eccache.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.conf.PropertyKey;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/configuration.md lists exactly the keys EcCacheKeys registers, with their defaults. */
class ConfigurationDocTest {
  private static final Pattern ROW =
      Pattern.compile("^\\| `(alluxio\\.eccache\\.[a-z.]+)` \\| (?:`([^`]*)`|\\(empty\\)) \\|",
          Pattern.MULTILINE);

  @Test
  void everyKeyIsDocumentedWithItsDefault() throws Exception {
    Map<String, String> code = new TreeMap<>();
    for (Field f : EcCacheKeys.class.getDeclaredFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == PropertyKey.class) {
        PropertyKey key = (PropertyKey) f.get(null);
        code.put(key.getName(), String.valueOf(key.getDefaultValue()));
      }
    }
    Map<String, String> docs = new TreeMap<>();
    Matcher m = ROW.matcher(Files.readString(Path.of("..", "docs", "configuration.md")));
    while (m.find()) {
      docs.put(m.group(1), m.group(2) == null ? "" : m.group(2));
    }
    assertTrue(code.size() > 15, code.toString());
    assertEquals(code.keySet(), docs.keySet(), "keys in EcCacheKeys vs docs/configuration.md");
    for (Map.Entry<String, String> e : code.entrySet()) {
      String documented = docs.get(e.getKey());
      assertEquals(e.getValue().equals("null") ? "" : e.getValue(), documented,
          "default of " + e.getKey());
    }
  }
}
