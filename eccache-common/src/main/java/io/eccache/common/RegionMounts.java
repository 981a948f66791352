package io.eccache.common;

import alluxio.util.FormatUtils;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The S3 regions regional (Agar) objects are written to, in the order their splits are dealt to
 * them: split i goes to region {@code i mod regions} (Agar's round robin, two splits per region for
 * RS(9,3) over six). Each region is an Alluxio mount of its own S3 bucket, so writes and reads go
 * through stock Alluxio, and a chunk the cache holds is the same file with its block on a worker.
 *
 * <p>Parsed from {@code alluxio.master.eccache.regions}: {@code name=/alluxio/path@latency,...},
 * e.g. {@code frankfurt=/eccache-regions/frankfurt@80ms,dublin=/eccache-regions/dublin@200ms}. The
 * latency is the time a read of one chunk from there is expected to take: reads ask the nearest
 * regions first, and Agar values a cached chunk by the latency it saves.
 */
public final class RegionMounts {
  /** One region: its name, the Alluxio path its bucket is mounted at, and its read latency. */
  public static final class Region {
    private final String name;
    private final String path;
    private final Duration latency;

    Region(String name, String path, Duration latency) {
      this.name = name;
      this.path = path;
      this.latency = latency;
    }

    public String name() {
      return name;
    }

    /** The Alluxio path its S3 bucket is mounted at (no trailing slash). */
    public String path() {
      return path;
    }

    public Duration latency() {
      return latency;
    }

    @Override
    public String toString() {
      return name + "=" + path + "@" + latency.toMillis() + "ms";
    }
  }

  /**
   * A regional split file's name taken apart: which key (null when the name holds a long key's
   * hash, see {@link #splitPath}), write and split it is.
   */
  public static final class ChunkName {
    public final String key;
    public final String writeId;
    public final String splitName;

    ChunkName(String key, String writeId, String splitName) {
      this.key = key;
      this.writeId = writeId;
      this.splitName = splitName;
    }
  }

  /**
   * The most bytes of a split file's name its key takes: a name's
   * {@link UnderStorePaths#MAX_OBJECT_NAME_BYTES} less two dots, a write id (a UUID, 36) and the
   * longest split name (4, e.g. {@code d254}).
   */
  public static final int MAX_KEY_NAME_BYTES = UnderStorePaths.MAX_OBJECT_NAME_BYTES - 2 - 36 - 4;

  private static final RegionMounts NONE = new RegionMounts(List.of());

  private final List<Region> regions;

  private RegionMounts(List<Region> regions) {
    this.regions = Collections.unmodifiableList(regions);
  }

  /** No regions: regional namespaces cannot be written. */
  public static RegionMounts none() {
    return NONE;
  }

  /**
   * Parses {@code name=/path@latency,...}; an empty spec is {@link #none()}.
   *
   * @throws IllegalArgumentException for a malformed entry, a repeated name or path, a relative
   *     path or a negative latency, quoting it
   */
  public static RegionMounts parse(String spec) {
    List<Region> regions = new ArrayList<>();
    Set<String> names = new HashSet<>();
    Set<String> paths = new HashSet<>();
    for (String entry : spec == null ? new String[0] : spec.split(",")) {
      String e = entry.trim();
      if (e.isEmpty()) {
        continue;
      }
      int eq = e.indexOf('=');
      int at = e.lastIndexOf('@');
      if (eq <= 0 || at < eq + 2 || at == e.length() - 1) {
        throw new IllegalArgumentException("region '" + e + "' is not name=/alluxio/path@latency"
            + " (e.g. frankfurt=/eccache-regions/frankfurt@80ms)");
      }
      String name = e.substring(0, eq).trim().toLowerCase(Locale.ROOT);
      String path = e.substring(eq + 1, at).trim();
      while (path.length() > 1 && path.endsWith("/")) {
        path = path.substring(0, path.length() - 1);
      }
      if (!path.startsWith("/") || path.equals("/")) {
        throw new IllegalArgumentException("region '" + name + "': its path '" + path + "' must be"
            + " an absolute Alluxio path below the root (where its bucket is mounted)");
      }
      long ms;
      try {
        ms = FormatUtils.parseTimeSize(e.substring(at + 1).trim());
      } catch (IllegalArgumentException bad) {
        throw new IllegalArgumentException("region '" + name + "': latency '"
            + e.substring(at + 1) + "' is not a duration such as 80ms or 2s", bad);
      }
      if (ms < 0) {
        throw new IllegalArgumentException("region '" + name + "': negative latency " + ms);
      }
      if (!names.add(name) || !paths.add(path)) {
        throw new IllegalArgumentException("region '" + e + "' repeats a name or a path");
      }
      regions.add(new Region(name, path, Duration.ofMillis(ms)));
    }
    return new RegionMounts(regions);
  }

  public List<Region> regions() {
    return regions;
  }

  public boolean isEmpty() {
    return regions.isEmpty();
  }

  /** The region of split {@code index}: round robin. */
  public Region forSplit(int index) {
    if (regions.isEmpty()) {
      throw new IllegalStateException("no regions are configured (alluxio.master.eccache.regions)");
    }
    return regions.get(index % regions.size());
  }

  /** The region named {@code name}, or null. */
  public Region byName(String name) {
    for (Region r : regions) {
      if (r.name.equals(name)) {
        return r;
      }
    }
    return null;
  }

  /**
   * Where split {@code index} (named {@code splitName}) of write {@code writeId} of {@code key}
   * lives: flat in its region's mount, {@code <path>/<key's name>.<write id>.<split name>}, since
   * each directory level would cost the region S3 round trips on every PUT. The key's name is its
   * encoding, hashed when longer than {@value #MAX_KEY_NAME_BYTES} bytes
   * ({@link UnderStorePaths#nameWithin}), so the file name fits S3 servers that keep objects as
   * files, as an object's copy under the prefix does. The layout records each split's path, so a
   * read never maps a name back to its key.
   */
  public String splitPath(int index, String key, String writeId, String splitName) {
    return forSplit(index).path + "/" + UnderStorePaths.nameWithin(key, MAX_KEY_NAME_BYTES) + "."
        + writeId + "." + splitName;
  }

  /**
   * Takes a regional split file's name apart, or null when it is no such name (any other file in a
   * region's bucket is not eccache's and is left alone). Its key is null when the name holds a
   * long key's hash ({@link UnderStorePaths#isHashedName}).
   */
  public static ChunkName parseChunkName(String fileName) {
    int last = fileName.lastIndexOf('.');
    int second = last <= 0 ? -1 : fileName.lastIndexOf('.', last - 1);
    if (second <= 0) {
      return null;
    }
    String name = fileName.substring(0, second);
    String key = ObjectKeys.decode(name);
    String writeId = fileName.substring(second + 1, last);
    String split = fileName.substring(last + 1);
    return (key == null && !UnderStorePaths.isHashedName(name)) || writeId.isEmpty()
        || split.isEmpty() ? null : new ChunkName(key, writeId, split);
  }

  @Override
  public String toString() {
    return regions.toString();
  }
}
