package io.eccache.coordinator.form.striped;

import io.eccache.common.ObjectPaths;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.RedundancyScheme.Kind;
import java.util.HashMap;
import java.util.Map;

/**
 * Which kind of scheme each namespace (a key's first path component) uses, parsed from the
 * namespace-schemes key, e.g. {@code "sr=replica,sp=partition"}. Namespaces not listed use erasure
 * coding.
 */
public final class NamespaceSchemes {
  private final Map<String, Kind> byNamespace;

  private NamespaceSchemes(Map<String, Kind> byNamespace) {
    this.byNamespace = byNamespace;
  }

  /**
   * @throws IllegalArgumentException for a malformed pair or an unknown kind, quoting it
   */
  public static NamespaceSchemes parse(String spec) {
    Map<String, Kind> map = new HashMap<>();
    for (String pair : spec.split(",")) {
      String p = pair.trim();
      if (p.isEmpty()) {
        continue;
      }
      int eq = p.indexOf('=');
      if (eq <= 0 || eq == p.length() - 1) {
        throw new IllegalArgumentException("'" + p + "' in the namespace schemes is not"
            + " namespace=kind (e.g. sr=replica,sp=partition)");
      }
      String namespace = p.substring(0, eq).trim();
      try {
        map.put(namespace, RedundancyScheme.Kind.parse(p.substring(eq + 1)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("namespace '" + namespace + "': " + e.getMessage(), e);
      }
    }
    return new NamespaceSchemes(map);
  }

  /** The kind of scheme for {@code key}'s namespace. */
  Kind kindOf(String key) {
    return byNamespace.getOrDefault(ObjectPaths.namespaceOf(key), Kind.ERASURE_CODED);
  }
}
