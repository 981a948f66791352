package io.eccache.benchmarks.sim;

/** How random stragglers are drawn. */
public enum StragglerMode {
  /** Each transfer independently straggles with the configured probability (EC-Cache section 5.2). */
  PER_TRANSFER,
  /**
   * Each server independently straggles with the configured probability, slowing every transfer it sends
   * (SP-Cache section VII-D); drawn at the start and, if an epoch is set, again every epoch.
   */
  PER_NODE
}
