package io.eccache.policy;

import java.util.Arrays;
import java.util.Objects;

/**
 * SP-Cache's upper bound on mean read latency (SC'18 section V-C, equations 4 to 12).
 *
 * <p>Each server is an M/G/1 FIFO queue; a read of object i forks into one partition read on each of its
 * {@code k_i} servers and joins when the slowest returns. A partition read on server s takes an
 * exponentially distributed time with mean {@code t_is = S_i / (k_i B_s)}. Per server:
 * <pre>
 *   Lambda_s = sum_{i on s} lambda_i                                   (4)
 *   mu_s     = sum_{i on s} (lambda_i / Lambda_s) t_is                 (5)
 *   rho_s    = Lambda_s mu_s
 *   Gamma2_s = sum_{i on s} (lambda_i / Lambda_s) 2 t_is^2              (11)
 *   Gamma3_s = sum_{i on s} (lambda_i / Lambda_s) 6 t_is^3              (12)
 * </pre>
 * per partition (Pollaczek-Khinchin):
 * <pre>
 *   E[Q_is]   = t_is + Lambda_s Gamma2_s / (2 (1 - rho_s))                                         (9)
 *   Var[Q_is] = t_is^2 + Lambda_s Gamma3_s / (3 (1 - rho_s)) + Lambda_s^2 Gamma2_s^2 / (4 (1 - rho_s)^2) (10)
 * </pre>
 * per object {@code T_i = min_z z + sum_s 1/2 (E[Q_is] - z) + sum_s 1/2 sqrt((E[Q_is] - z)^2 + Var[Q_is])}
 * (8), and for the system {@code sum_i P_i T_i} with {@code P_i = lambda_i / sum_j lambda_j} (3, 7).
 *
 * <p>The queue has no steady state when {@code rho_s >= 1}; then every partition on s, every object read
 * from s, and the system bound are {@code +infinity}. A server nobody reads has {@code Lambda_s = 0};
 * its mu and Gammas are reported as 0 and its partitions wait for nothing.
 *
 * <p>The placement is an input, so the same code can score a random placement or one read off a live
 * cluster. Immutable and thread-safe.
 */
public final class ForkJoinLatencyBound {
  /** Bisection steps are cheap; this cap only guards against a bracket that never narrows. */
  private static final int MAX_BISECTIONS = 200;
  /** Bracket width relative to its scale at which z is considered found; T is then exact to ~1e-12. */
  private static final double Z_TOLERANCE = 1e-13;

  private final double[] bandwidth;

  /**
   * @param serverBandwidthBytesPerSec per server, the bandwidth B_s available for reads; each finite and > 0
   * @throws IllegalArgumentException if there is no server or a bandwidth is not finite and positive
   */
  public ForkJoinLatencyBound(double[] serverBandwidthBytesPerSec) {
    Objects.requireNonNull(serverBandwidthBytesPerSec, "serverBandwidthBytesPerSec");
    if (serverBandwidthBytesPerSec.length == 0) {
      throw new IllegalArgumentException("needs at least one server but got 0 bandwidths");
    }
    for (int s = 0; s < serverBandwidthBytesPerSec.length; s++) {
      double b = serverBandwidthBytesPerSec[s];
      if (!(b > 0) || Double.isInfinite(b)) {
        throw new IllegalArgumentException(
            "bandwidth of server " + s + " must be finite and > 0 but was " + b);
      }
    }
    this.bandwidth = serverBandwidthBytesPerSec.clone();
  }

  /**
   * @param servers number of servers, at least 1
   * @param bandwidthBytesPerSec the bandwidth of every server, finite and > 0
   * @return a model where all servers are alike, as in the paper
   */
  public static ForkJoinLatencyBound uniform(int servers, double bandwidthBytesPerSec) {
    if (servers < 1) {
      throw new IllegalArgumentException("servers must be >= 1 but was " + servers);
    }
    double[] bandwidths = new double[servers];
    Arrays.fill(bandwidths, bandwidthBytesPerSec);
    return new ForkJoinLatencyBound(bandwidths);
  }

  /** @return the number of servers modelled */
  public int servers() {
    return bandwidth.length;
  }

  /**
   * Computes the bound and every intermediate quantity.
   *
   * @param sizeBytes per object, its size S_i
   * @param arrivalRatePerSec per object, its request rate lambda_i (finite, >= 0); if all are 0 the
   *     system bound weights objects equally
   * @param placement per object, the servers holding its partitions; {@code k_i} is their number
   * @return per server, per partition and per object figures, and the system bound in seconds
   * @throws IllegalArgumentException if the arrays and placement disagree in length or server count, or a
   *     size or rate is out of range
   */
  public Result evaluate(long[] sizeBytes, double[] arrivalRatePerSec, Placement placement) {
    Objects.requireNonNull(sizeBytes, "sizeBytes");
    Objects.requireNonNull(arrivalRatePerSec, "arrivalRatePerSec");
    Objects.requireNonNull(placement, "placement");
    int objects = sizeBytes.length;
    if (arrivalRatePerSec.length != objects || placement.objects() != objects) {
      throw new IllegalArgumentException("sizes, rates and placement must describe the same objects but had "
          + objects + ", " + arrivalRatePerSec.length + " and " + placement.objects());
    }
    if (placement.servers() != bandwidth.length) {
      throw new IllegalArgumentException("placement spans " + placement.servers()
          + " servers but the model has " + bandwidth.length);
    }
    double totalRate = 0;
    for (int i = 0; i < objects; i++) {
      if (sizeBytes[i] < 0) {
        throw new IllegalArgumentException("size of object " + i + " must be >= 0 but was " + sizeBytes[i]);
      }
      double rate = arrivalRatePerSec[i];
      if (!(rate >= 0) || Double.isInfinite(rate)) {
        throw new IllegalArgumentException(
            "rate of object " + i + " must be finite and >= 0 but was " + rate);
      }
      totalRate += rate;
    }

    int servers = bandwidth.length;
    // Lambda_s times each moment, summed directly: the same numbers as (5), (11), (12) multiplied out,
    // without dividing by a Lambda_s that may be 0.
    double[] arrival = new double[servers];
    double[] utilisation = new double[servers];
    double[] weightedSecondMoment = new double[servers];
    double[] weightedThirdMoment = new double[servers];
    boolean[] used = new boolean[servers];
    for (int i = 0; i < objects; i++) {
      int k = placement.partitions(i);
      double rate = arrivalRatePerSec[i];
      for (int j = 0; j < k; j++) {
        int s = placement.server(i, j);
        double t = serviceMean(sizeBytes[i], k, s);
        used[s] = true;
        arrival[s] += rate;
        utilisation[s] += rate * t;
        weightedSecondMoment[s] += rate * 2 * t * t;
        weightedThirdMoment[s] += rate * 6 * t * t * t;
      }
    }
    double[] meanService = new double[servers];
    double[] gamma2 = new double[servers];
    double[] gamma3 = new double[servers];
    boolean saturated = false;
    for (int s = 0; s < servers; s++) {
      if (arrival[s] > 0) {
        meanService[s] = utilisation[s] / arrival[s];
        gamma2[s] = weightedSecondMoment[s] / arrival[s];
        gamma3[s] = weightedThirdMoment[s] / arrival[s];
      }
      saturated |= used[s] && utilisation[s] >= 1;
    }

    double[][] partitionMean = new double[objects][];
    double[][] partitionVariance = new double[objects][];
    double[] objectBound = new double[objects];
    double systemBound = 0;
    for (int i = 0; i < objects; i++) {
      int k = placement.partitions(i);
      double[] mean = new double[k];
      double[] variance = new double[k];
      for (int j = 0; j < k; j++) {
        int s = placement.server(i, j);
        double t = serviceMean(sizeBytes[i], k, s);
        double idle = 1 - utilisation[s];
        if (idle <= 0) {
          mean[j] = Double.POSITIVE_INFINITY;
          variance[j] = Double.POSITIVE_INFINITY;
        } else {
          double a2 = weightedSecondMoment[s];
          mean[j] = t + a2 / (2 * idle);
          variance[j] = t * t + weightedThirdMoment[s] / (3 * idle) + a2 * a2 / (4 * idle * idle);
        }
      }
      partitionMean[i] = mean;
      partitionVariance[i] = variance;
      objectBound[i] = forkJoinBound(mean, variance);
      double weight = totalRate > 0 ? arrivalRatePerSec[i] / totalRate : 1.0 / objects;
      // Skipping weight 0 keeps 0 * infinity from turning the sum into NaN.
      if (weight > 0) {
        systemBound += weight * objectBound[i];
      }
    }
    if (saturated) {
      systemBound = Double.POSITIVE_INFINITY;
    }
    return new Result(arrival, meanService, utilisation, gamma2, gamma3, partitionMean, partitionVariance,
        objectBound, systemBound);
  }

  /**
   * Equation 8 for one object: the tightest fork-join bound on the mean of the maximum of its partition
   * latencies, {@code min_z z + sum 1/2 (E_s - z) + sum 1/2 sqrt((E_s - z)^2 + V_s)}.
   *
   * <p>The objective is convex in z, so its minimiser is where the derivative
   * {@code 1 - m/2 + 1/2 sum (z - E_s) / sqrt((z - E_s)^2 + V_s)} changes sign, found by bisection to
   * about 1e-13 of the bracket's scale. With one partition the infimum is approached as z goes to
   * minus infinity and equals the mean itself, which is returned directly.
   *
   * @param means per partition, E[Q] (>= 0, may be +infinity)
   * @param variances per partition, Var[Q] (>= 0, may be +infinity)
   * @return the bound in the same unit as the means; +infinity if any input is infinite
   * @throws IllegalArgumentException if the arrays are empty, differ in length or hold NaN or negatives
   */
  public static double forkJoinBound(double[] means, double[] variances) {
    Objects.requireNonNull(means, "means");
    Objects.requireNonNull(variances, "variances");
    int m = means.length;
    if (m == 0 || variances.length != m) {
      throw new IllegalArgumentException("needs one variance per mean, at least one, but got " + m
          + " means and " + variances.length + " variances");
    }
    double minMean = Double.POSITIVE_INFINITY;
    double maxMean = Double.NEGATIVE_INFINITY;
    double maxVariance = 0;
    for (int s = 0; s < m; s++) {
      if (!(means[s] >= 0) || !(variances[s] >= 0)) {
        throw new IllegalArgumentException("partition " + s + " has mean " + means[s] + " and variance "
            + variances[s] + "; both must be >= 0");
      }
      if (Double.isInfinite(means[s]) || Double.isInfinite(variances[s])) {
        return Double.POSITIVE_INFINITY;
      }
      minMean = Math.min(minMean, means[s]);
      maxMean = Math.max(maxMean, means[s]);
      maxVariance = Math.max(maxVariance, variances[s]);
    }
    if (m == 1) {
      return means[0];
    }
    double scale = Math.max(maxMean - minMean, Math.sqrt(maxVariance));
    if (scale == 0) {
      // Every partition takes exactly the same deterministic time.
      return maxMean;
    }
    // The derivative tends to 1 - m < 0 far left and to 1 far right, so widening always finds a bracket.
    double lo = minMean - scale;
    double hi = maxMean + scale;
    double step = scale;
    while (slope(lo, means, variances) > 0) {
      step *= 2;
      lo = minMean - step;
    }
    step = scale;
    while (slope(hi, means, variances) < 0) {
      step *= 2;
      hi = maxMean + step;
    }
    for (int iteration = 0; iteration < MAX_BISECTIONS; iteration++) {
      double mid = 0.5 * (lo + hi);
      if (hi - lo <= Z_TOLERANCE * (scale + Math.abs(mid)) || mid <= lo || mid >= hi) {
        break;
      }
      if (slope(mid, means, variances) < 0) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    double best = Math.min(objective(lo, means, variances), objective(hi, means, variances));
    return Math.min(best, objective(0.5 * (lo + hi), means, variances));
  }

  private double serviceMean(long sizeBytes, int partitions, int server) {
    return sizeBytes / (partitions * bandwidth[server]);
  }

  private static double objective(double z, double[] means, double[] variances) {
    double sum = 0;
    for (int s = 0; s < means.length; s++) {
      double d = means[s] - z;
      double root = Math.sqrt(d * d + variances[s]);
      // d + root, written to avoid cancellation when d is large and negative.
      sum += d >= 0 ? d + root : variances[s] / (root - d);
    }
    return z + 0.5 * sum;
  }

  private static double slope(double z, double[] means, double[] variances) {
    double sum = 0;
    for (int s = 0; s < means.length; s++) {
      double d = z - means[s];
      double root = Math.sqrt(d * d + variances[s]);
      // At a point with no variance the objective has a kink; 0 is a valid subgradient there.
      if (root > 0) {
        sum += d / root;
      }
    }
    return 1 - 0.5 * means.length + 0.5 * sum;
  }

  /**
   * Everything one evaluation computed. Servers, objects and partitions are numbered as in the inputs;
   * partition j of object i is the one on {@code placement.server(i, j)}. Times are in seconds. Immutable.
   */
  public static final class Result {
    private final double[] arrivalRate;
    private final double[] meanService;
    private final double[] utilisation;
    private final double[] gamma2;
    private final double[] gamma3;
    private final double[][] partitionMean;
    private final double[][] partitionVariance;
    private final double[] objectBound;
    private final double systemBound;

    private Result(double[] arrivalRate, double[] meanService, double[] utilisation, double[] gamma2,
        double[] gamma3, double[][] partitionMean, double[][] partitionVariance, double[] objectBound,
        double systemBound) {
      this.arrivalRate = arrivalRate;
      this.meanService = meanService;
      this.utilisation = utilisation;
      this.gamma2 = gamma2;
      this.gamma3 = gamma3;
      this.partitionMean = partitionMean;
      this.partitionVariance = partitionVariance;
      this.objectBound = objectBound;
      this.systemBound = systemBound;
    }

    /** @return Lambda_s, requests per second reaching server s (4) */
    public double serverArrivalRate(int server) {
      return arrivalRate[server];
    }

    /** @return mu_s, the mean service time on server s in seconds (5); 0 if nobody reads it */
    public double serverMeanService(int server) {
      return meanService[server];
    }

    /** @return rho_s = Lambda_s mu_s, the utilisation of server s; the queue is unstable at 1 or above */
    public double serverUtilisation(int server) {
      return utilisation[server];
    }

    /** @return Gamma2_s, the second moment of service time on server s (11); 0 if nobody reads it */
    public double serverGamma2(int server) {
      return gamma2[server];
    }

    /** @return Gamma3_s, the third moment of service time on server s (12); 0 if nobody reads it */
    public double serverGamma3(int server) {
      return gamma3[server];
    }

    /** @return E[Q] of partition j of object i (9), +infinity on a saturated server */
    public double partitionMean(int object, int partition) {
      return partitionMean[object][partition];
    }

    /** @return Var[Q] of partition j of object i (10), +infinity on a saturated server */
    public double partitionVariance(int object, int partition) {
      return partitionVariance[object][partition];
    }

    /** @return T_i, the bound on object i's mean read latency (8) */
    public double objectBound(int object) {
      return objectBound[object];
    }

    /** @return sum_i P_i T_i (7), or +infinity if any server holding a partition has rho >= 1 */
    public double systemBound() {
      return systemBound;
    }

    @Override
    public String toString() {
      return "ForkJoinLatencyBound.Result{servers=" + arrivalRate.length + ", objects=" + objectBound.length
          + ", systemBound=" + systemBound + "s}";
    }
  }
}
