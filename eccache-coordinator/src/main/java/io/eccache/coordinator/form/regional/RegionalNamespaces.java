package io.eccache.coordinator.form.regional;

import io.eccache.common.ObjectPaths;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.RegionMounts;
import io.eccache.common.proto.Layout;
import java.util.HashSet;
import java.util.Set;

/**
 * Which keys are regional (Agar, docs/agar.md): erasure coded with one code, every split written
 * through to an S3 region and read from there unless the cache holds it. From the master keys
 * {@code alluxio.master.eccache.regions}, {@code .regional.namespaces} and {@code .regional.scheme}.
 */
final class RegionalNamespaces {
  private final RegionMounts regions;
  private final Set<String> namespaces;
  private final RedundancyScheme scheme;

  /**
   * @throws IllegalArgumentException when namespaces are regional without regions, or the scheme
   *     is not an erasure code
   */
  RegionalNamespaces(RegionMounts regions, String namespaces, String scheme) {
    this.regions = regions;
    this.namespaces = new HashSet<>();
    for (String n : namespaces.split(",")) {
      if (!n.trim().isEmpty()) {
        this.namespaces.add(n.trim());
      }
    }
    this.scheme = RedundancyScheme.parse(scheme);
    if (this.scheme.kind() != RedundancyScheme.Kind.ERASURE_CODED) {
      throw new IllegalArgumentException("the regional scheme must be an erasure code such as"
          + " rs-9-3, not " + scheme);
    }
    if (!this.namespaces.isEmpty() && regions.isEmpty()) {
      throw new IllegalArgumentException("namespaces " + this.namespaces + " are regional but no"
          + " region is configured: set alluxio.master.eccache.regions");
    }
  }

  /** Whether a PUT of {@code key} writes a regional object. */
  boolean isRegional(String key) {
    return namespaces.contains(ObjectPaths.namespaceOf(key));
  }

  /** Whether {@code layout} is a regional object's. */
  static boolean isRegional(Layout layout) {
    return layout.getSplitPathsCount() > 0;
  }

  RegionMounts regions() {
    return regions;
  }

  RedundancyScheme scheme() {
    return scheme;
  }
}
