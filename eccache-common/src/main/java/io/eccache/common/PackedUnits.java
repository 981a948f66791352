package io.eccache.common;

/**
 * The files of a packed stripe's units, as the coordinator and clients both name them: a stripe
 * keeps its k data units and its first c parity rows in the cache (c = 1 for LogECMem's hybrid
 * stripes, c = r for in-place ones), unit i being data unit i for i &lt; k and parity row i - k
 * after; each version of a unit is a file of its own, {@code d<i>.v<version>} or
 * {@code p<row + 1>.v<version>}, in the stripe's directory.
 */
public final class PackedUnits {
  /** The largest unit: a unit is one small file, read and written whole by an update. */
  public static final long MAX_UNIT_SIZE = 1 << 20;

  private PackedUnits() {}

  /** The file of unit {@code index} at {@code version}. */
  public static String path(String directory, int index, int k, long version) {
    return directory + "/" + (index < k ? "d" + index : "p" + (index - k + 1)) + ".v" + version;
  }

  /**
   * The file a repair rebuilds unit {@code index} at {@code version} into (the same bytes, on
   * another worker), unique to repair {@code repair}.
   */
  public static String repairedPath(String directory, int index, int k, long version,
      long repair) {
    return path(directory, index, k, version) + ".r" + repair;
  }
}
