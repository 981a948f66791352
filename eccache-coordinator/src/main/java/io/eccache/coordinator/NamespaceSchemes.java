package io.eccache.coordinator;

import io.eccache.common.ObjectPaths;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Which redundancy scheme each namespace (a key's first path component) uses, parsed from
 * {@code alluxio.eccache.namespace.schemes}, e.g. {@code "sr=replica,sp=partition"}. Namespaces not
 * listed use erasure coding.
 */
final class NamespaceSchemes {
  private static final Set<String> SCHEMES = Set.of(ObjectPaths.SCHEME_EC,
      ObjectPaths.SCHEME_REPLICA, ObjectPaths.SCHEME_PARTITION);

  private final Map<String, String> byNamespace;

  private NamespaceSchemes(Map<String, String> byNamespace) {
    this.byNamespace = byNamespace;
  }

  /**
   * @throws IllegalArgumentException for a malformed pair or an unknown scheme, quoting it
   */
  static NamespaceSchemes parse(String spec) {
    Map<String, String> map = new HashMap<>();
    for (String pair : spec.split(",")) {
      String p = pair.trim();
      if (p.isEmpty()) {
        continue;
      }
      int eq = p.indexOf('=');
      if (eq <= 0 || eq == p.length() - 1) {
        throw new IllegalArgumentException("'" + p + "' in alluxio.eccache.namespace.schemes is not"
            + " namespace=scheme");
      }
      String scheme = p.substring(eq + 1).trim();
      if (!SCHEMES.contains(scheme)) {
        throw new IllegalArgumentException("unknown scheme '" + scheme + "' for namespace '"
            + p.substring(0, eq).trim() + "': use one of " + SCHEMES);
      }
      map.put(p.substring(0, eq).trim(), scheme);
    }
    return new NamespaceSchemes(map);
  }

  /** The scheme for {@code key}'s namespace. */
  String schemeOf(String key) {
    return byNamespace.getOrDefault(ObjectPaths.namespaceOf(key), ObjectPaths.SCHEME_EC);
  }
}
