package io.eccache.benchmarks.sim;

/** The popularity the allocation is planned from. */
public enum PopularityInput {
  /**
   * The object counts of a learning pass drawn from the workload's Zipf law before the measured phase,
   * as the cluster benchmark's coordinator learns them (the default).
   */
  LEARNED,
  /** The Zipf probabilities themselves: the paper's method, popularity known exactly. */
  ZIPF
}
