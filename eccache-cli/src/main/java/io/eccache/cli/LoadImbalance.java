package io.eccache.cli;

import java.util.Collection;

/**
 * The paper's load imbalance metric: λ = (L_max − L_avg) / L_avg × 100, over the bytes each worker
 * served, every worker counted (an idle worker serves 0).
 */
final class LoadImbalance {
  private LoadImbalance() {}

  /**
   * @param served bytes served by each worker that served any
   * @param workers all workers in the cluster, idle ones included
   * @return λ in percent; 0 when nothing was served
   */
  static double percent(Collection<Long> served, int workers) {
    if (served.size() > workers) {
      throw new IllegalArgumentException(served.size() + " workers served bytes but the cluster has "
          + workers);
    }
    long total = 0;
    long max = 0;
    for (long b : served) {
      total += b;
      max = Math.max(max, b);
    }
    if (total == 0) {
      return 0;
    }
    double avg = (double) total / workers;
    return (max - avg) / avg * 100;
  }
}
