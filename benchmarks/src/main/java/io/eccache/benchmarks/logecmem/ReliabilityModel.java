package io.eccache.benchmarks.logecmem;

/**
 * LogECMem's reliability analysis (§3.1, Table 2): the mean time to data loss of one stripe from a
 * Markov chain whose state is the number of its available nodes. From state i a node fails at
 * rate iλ; the first failure is repaired at rate μ = B/(S·C) (C = k units read per repaired unit),
 * a further one at μ' = 1/T; the stripe is lost when fewer than k nodes remain.
 *
 * <p>The paper's Table 2 is reproduced exactly by the (6, 3) chain (9 nodes, loss at the fourth
 * failure) with only C = k changed for the other codes ({@link #paperChain}); each code's own
 * chain ({@link #ownChain}: k + r nodes, loss at failure r + 1) gives other numbers. Both are
 * printed.
 */
final class ReliabilityModel {
  static final double SECONDS_PER_YEAR = 365 * 86_400.0;

  /** 1/λ, years. */
  final double mttfYears;
  /** S, bytes a node holds. */
  final double nodeBytes;
  /** T, seconds to detect and start repairing a further failure. */
  final double multiFailureSeconds;

  ReliabilityModel(double mttfYears, double nodeBytes, double multiFailureSeconds) {
    this.mttfYears = mttfYears;
    this.nodeBytes = nodeBytes;
    this.multiFailureSeconds = multiFailureSeconds;
  }

  /** The paper's parameters: 1/λ = 4 years, S = 16 TiB, T = 30 minutes. */
  static ReliabilityModel paper() {
    return new ReliabilityModel(4, 16 * Math.pow(2, 40), 30 * 60);
  }

  /** MTTDL in years of the (6, 3) chain with repair cost C = k, as the paper's every code. */
  double paperChain(int k, double gigabitsPerSecond) {
    return mttdlYears(9, 6, k, gigabitsPerSecond);
  }

  /** MTTDL in years of the code's own chain: k + r nodes, loss below k. */
  double ownChain(int k, int r, double gigabitsPerSecond) {
    return mttdlYears(k + r, k, k, gigabitsPerSecond);
  }

  /**
   * The expected time from all {@code nodes} available to fewer than {@code needed}, with the
   * single-failure repair reading {@code repairCost} units at {@code gigabitsPerSecond}.
   */
  double mttdlYears(int nodes, int needed, int repairCost, double gigabitsPerSecond) {
    if (needed < 1 || nodes < needed || repairCost < 1 || gigabitsPerSecond <= 0) {
      throw new IllegalArgumentException("no chain for " + nodes + " nodes, " + needed
          + " needed, repair cost " + repairCost + ", " + gigabitsPerSecond + " Gb/s");
    }
    double lambda = 1 / mttfYears;
    double mu = gigabitsPerSecond * 1e9 / 8 / (nodeBytes * repairCost) * SECONDS_PER_YEAR;
    double muPrime = SECONDS_PER_YEAR / multiFailureSeconds;
    // T_i = 1/out_i + down_i/out_i T_{i-1} + up_i/out_i T_{i+1}, T_{needed-1} = 0: a tridiagonal
    // system in the states needed..nodes, solved by elimination from the top state down.
    int m = nodes - needed + 1;
    double[][] a = new double[m][m + 1];
    for (int i = needed; i <= nodes; i++) {
      int row = i - needed;
      double down = i * lambda;
      double up = i == nodes ? 0 : i == nodes - 1 ? mu : muPrime;
      a[row][row] = down + up;
      if (row > 0) {
        a[row][row - 1] = -down;
      }
      if (row < m - 1) {
        a[row][row + 1] = -up;
      }
      a[row][m] = 1;
    }
    for (int c = 0; c < m; c++) {
      for (int r = 0; r < m; r++) {
        if (r != c && a[r][c] != 0) {
          double f = a[r][c] / a[c][c];
          for (int j = c; j <= m; j++) {
            a[r][j] -= f * a[c][j];
          }
        }
      }
    }
    return a[m - 1][m] / a[m - 1][m - 1];
  }
}
