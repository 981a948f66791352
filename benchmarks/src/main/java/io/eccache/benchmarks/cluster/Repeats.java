package io.eccache.benchmarks.cluster;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A run's repeats, each on its own seed, none published with redundancy other than pinned: a
 * repeat in which some scheme had objects below their target when measuring began, or began a
 * phase before a killed worker's units were back, measured less redundancy than it claims
 * (SP-Cache's pinning ending at 1 unit of a target 2 made EC-Cache's tail look better than it
 * was), so it runs again on a new seed.
 */
public final class Repeats {
  /** Times a repeat runs again on a new seed while a scheme is not measured as pinned. */
  public static final int MAX_RERUNS = 2;

  /** One run of the benchmark on some settings (a cluster's, or a test's made-up outcome). */
  public interface RunOnce {
    ClusterBenchmark.Outcome run(BenchSettings settings) throws Exception;
  }

  private Repeats() {}

  /**
   * Runs {@code base} {@code times} times on seeds {@code base.seed}, {@code base.seed + 1}, ...;
   * a repeat not measured as pinned ({@link BenchReport#notAsPinned}) runs again on a seed past
   * the repeats' own, at most {@link #MAX_RERUNS} times, and the outcome kept names what it
   * replaced ({@link ClusterBenchmark.Outcome#replaced}; still short after the last, it stays
   * flagged in the summary). Adds the seeds of the outcomes kept to {@code seeds}.
   */
  public static List<ClusterBenchmark.Outcome> run(String label, BenchSettings base, int times,
      RunOnce bench, List<Long> seeds, PrintStream progress) throws Exception {
    List<ClusterBenchmark.Outcome> reps = new ArrayList<>();
    long nextSeed = base.seed + times;
    for (int i = 0; i < times; i++) {
      BenchSettings settings = base.copy();
      settings.seed = base.seed + i;
      progress.printf("%n-- %s, repeat %d/%d: %s, %s%n", label, i + 1, times, settings,
          settings.mode.name().toLowerCase(Locale.ROOT));
      ClusterBenchmark.Outcome o = bench.run(settings);
      List<String> replaced = new ArrayList<>();
      for (int again = 0; again < MAX_RERUNS; again++) {
        List<String> notAsPinned = BenchReport.notAsPinned(o);
        if (notAsPinned.isEmpty()) {
          break;
        }
        String why = "seed " + settings.seed + ": " + String.join("; ", notAsPinned);
        replaced.add(why);
        settings = base.copy();
        settings.seed = nextSeed++;
        progress.printf("%n-- %s, repeat %d/%d again (%s): seed %d%n", label, i + 1, times, why,
            settings.seed);
        o = bench.run(settings);
      }
      o.replaced = replaced;
      seeds.add(settings.seed);
      reps.add(o);
    }
    return reps;
  }

  /** "1-3" for consecutive seeds, else "1, 5, 3". */
  public static String seedList(List<Long> seeds) {
    boolean consecutive = seeds.size() > 1;
    for (int i = 1; i < seeds.size(); i++) {
      consecutive &= seeds.get(i) == seeds.get(i - 1) + 1;
    }
    return consecutive ? seeds.get(0) + "-" + seeds.get(seeds.size() - 1)
        : seeds.stream().map(String::valueOf).collect(Collectors.joining(", "));
  }
}
