package io.eccache.benchmarks.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The workload and cluster knobs {@code bench}, {@code sim} and {@code demo} share: one name and
 * one meaning each, so a result of one can be checked with another. A knob left out is null and the
 * scenario's, preset's or demo's own value stands; one given replaces it in every run (a swept value
 * too).
 */
final class WorkloadOptions {
  @Option(names = "--zipf", description = "Zipf exponent of object popularity.")
  Double zipf;

  @Option(names = "--object-mib", description = "Object size in MiB (2^20 bytes), fractions "
      + "allowed: the paper's 40 MB objects are 38.15.")
  Double objectMib;

  @Option(names = "--objects", description = "Distinct objects per scheme.")
  Integer objects;

  @Option(names = "--requests", description = "Measured GETs per scheme and repeat.")
  Integer requests;

  @Option(names = "--learning", description = "GETs per scheme in the learning pass the "
      + "redundancy is allocated from.")
  Integer learning;

  @Option(names = "--clients", description = "Closed-loop readers per scheme.")
  Integer clients;

  @Option(names = "--seed", description = "Seed of the first repeat; repeat i uses seed + i.")
  Long seed;

  @Option(names = "--workers", description = "Alluxio workers (cache servers).")
  Integer workers;

  @Option(names = "--worker-mbit", description = "Each worker's link in Mbit/s (the cluster "
      + "benchmark caps it with tc, which needs root).")
  Double workerMbit;

  @Option(names = {"-k", "--k"}, description = "EC data splits (the cluster's default k for tuned "
      + "runs, the k of fixed codes).")
  Integer k;

  @Option(names = {"-r", "--r"}, description = "EC parity splits every object gets (the base r).")
  Integer r;

  @Option(names = "--delta", description = "Extra splits an EC GET reads (Δ).")
  Integer delta;

  @Option(names = "--budget", description = "Memory budget of the tuned schemes beyond one copy, "
      + "as a fraction: 0.15 is the paper's 15%%.")
  Double budget;

  /** {@code value}, or {@code otherwise} when the knob was left out. */
  static <T> T or(T value, T otherwise) {
    return value != null ? value : otherwise;
  }

  /**
   * Fails on a knob out of range, naming it, before anything runs.
   *
   * @throws IllegalArgumentException for the first bad knob
   */
  void check() {
    if (zipf != null && !(zipf >= 0)) {
      throw new IllegalArgumentException("--zipf must not be negative, got " + zipf);
    }
    if (objectMib != null && !(objectMib > 0 && objectMib * (1 << 20) < Integer.MAX_VALUE)) {
      throw new IllegalArgumentException("--object-mib must be in (0, 2048), got " + objectMib);
    }
    if (workerMbit != null && !(workerMbit > 0)) {
      throw new IllegalArgumentException("--worker-mbit must be positive, got " + workerMbit);
    }
    for (Object[] positive : new Object[][] {{"--objects", objects}, {"--requests", requests},
        {"--learning", learning}, {"--clients", clients}, {"--workers", workers}, {"-k", k}}) {
      if (positive[1] != null && (Integer) positive[1] < 1) {
        throw new IllegalArgumentException(positive[0] + " must be at least 1, got "
            + positive[1]);
      }
    }
    if ((r != null && r < 0) || (delta != null && delta < 0)) {
      throw new IllegalArgumentException("-r and --delta must not be negative, got " + r + ", "
          + delta);
    }
    if (budget != null && !(budget >= 0)) {
      throw new IllegalArgumentException("--budget must not be negative, got " + budget);
    }
  }

  /** The knobs given, by option name, in the order of the options; for summaries and labels. */
  Map<String, Object> given() {
    Map<String, Object> m = new LinkedHashMap<>();
    Object[][] all = {{"--zipf", zipf}, {"--object-mib", objectMib}, {"--objects", objects},
        {"--requests", requests}, {"--learning", learning}, {"--clients", clients},
        {"--seed", seed}, {"--workers", workers}, {"--worker-mbit", workerMbit}, {"-k", k},
        {"-r", r}, {"--delta", delta}, {"--budget", budget}};
    for (Object[] knob : all) {
      if (knob[1] != null) {
        m.put((String) knob[0], knob[1]);
      }
    }
    return m;
  }

  /**
   * The knobs given that change a run's workload (not the cluster's: --workers, --worker-mbit,
   * --budget), as typed: "--zipf 1.1 -k 4"; "" when none. For labels of overridden runs.
   */
  String describeWorkload() {
    StringBuilder sb = new StringBuilder();
    given().forEach((name, value) -> {
      if (!List.of("--workers", "--worker-mbit", "--budget").contains(name)) {
        sb.append(sb.length() == 0 ? "" : " ").append(name).append(' ').append(value);
      }
    });
    return sb.toString();
  }
}
