package io.eccache.benchmarks.sim;

/** How the schemes of one run share the simulated cluster. */
public enum SimMode {
  /**
   * Each scheme on a cluster of its own with its own clients (the same offered load, placement seed and
   * request sequence): what the paper measures, and the default.
   */
  ALONE,
  /**
   * Every request reads its object from every scheme, one after the other in a random order, over one
   * cluster: the cluster benchmark's interleaved mode. It favours EC-Cache, whose reads run while the
   * other schemes' transfers hold the hot links (issue 14); kept to compare with runs made that way.
   */
  INTERLEAVED;

  /** @return the label used in reports, e.g. {@code alone} */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
