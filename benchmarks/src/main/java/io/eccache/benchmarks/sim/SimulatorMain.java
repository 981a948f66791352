package io.eccache.benchmarks.sim;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs every scheme on the paper's setup at 25, 100 and 1000 servers, on the 25-server setup with
 * background load, stragglers and a dead server, and on the small one-machine configuration, printing one
 * Markdown table per configuration.
 *
 * <p>Usage: {@code SimulatorMain [--quick] [name ...]}: {@code --quick} measures a tenth of the requests;
 * names (e.g. {@code paper-25}) restrict the run to those configurations.
 */
public final class SimulatorMain {
  private SimulatorMain() {}

  /**
   * @param args {@code --quick} and configuration names, both optional
   */
  public static void main(String[] args) {
    boolean quick = false;
    List<String> only = new ArrayList<>();
    for (String arg : args) {
      if (arg.equals("--quick")) {
        quick = true;
      } else if (arg.startsWith("-")) {
        throw new IllegalArgumentException("unknown option '" + arg + "'; usage: [--quick] [name ...]");
      } else {
        only.add(arg);
      }
    }
    PrintStream out = System.out;
    for (SimulationConfig config : configurations()) {
      if (!only.isEmpty() && !only.contains(config.name())) {
        continue;
      }
      if (quick) {
        config = config.toBuilder().requests(Math.max(1, config.requests() / 10)).build();
      }
      printTable(out, config);
    }
  }

  /** @return the configurations {@link #main} runs, in order */
  public static List<SimulationConfig> configurations() {
    SimulationConfig paper = SimulationConfig.paper();
    List<SimulationConfig> configs = new ArrayList<>();
    configs.add(paper);
    configs.add(SimulationConfig.paper(100));
    configs.add(SimulationConfig.paper(1000));
    // Section 6.3: always-on flows on 20% of servers, 4 flows on the busiest tapering as 1/i.
    configs.add(paper.toBuilder().name("paper-25-background").background(0.2, 4, 1).build());
    configs.add(paper.toBuilder().name("paper-25-stragglers")
        .stragglers(0.05, 5, StragglerMode.PER_TRANSFER).build());
    configs.add(paper.toBuilder().name("paper-25-node-stragglers")
        .stragglers(0.05, 5, StragglerMode.PER_NODE).stragglerEpochSeconds(1).build());
    // Section 6.4: one server terminated.
    configs.add(paper.toBuilder().name("paper-25-one-dead").deadServer(0).build());
    configs.add(SimulationConfig.smallBenchmark());
    return configs;
  }

  private static void printTable(PrintStream out, SimulationConfig config) {
    out.printf(Locale.ROOT, "### %s: %d servers at %.0f Mbit/s, %d %s clients, %d objects of %d MB, "
            + "Zipf %.2f, %d requests (+%d warm-up), overhead %.0f%%, k = %d, Delta = %d%n%n",
        config.name(), config.servers(), config.serverBandwidthBytesPerSec() * 8 / 1e6, config.clients(),
        config.closedLoop() ? "closed-loop" : "open-loop", config.objects(),
        config.objectSizeBytes() / SimulationConfig.MB, config.zipfExponent(), config.requests(),
        config.warmupRequests(), config.memoryOverhead() * 100, config.k(), config.delta());
    out.println("| scheme | memory × | mean ms | median ms | p99 ms | p99.9 ms | λ % | decoded % "
        + "| fallbacks | req/s | wall s |");
    out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    Map<Scheme, SimulationResult> results = new EnumMap<>(Scheme.class);
    for (Scheme scheme : Scheme.values()) {
      SimulationResult r = Simulator.run(config, scheme);
      results.put(scheme, r);
      out.printf(Locale.ROOT, "| %s | %.3f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %d | %.0f | %.2f |%n",
          scheme, r.memoryFactor(), r.meanMillis(), r.percentileMillis(50), r.percentileMillis(99),
          r.percentileMillis(99.9), imbalancePercent(r.bytesPerServer(), r.usefulBytes()),
          100.0 * r.decodeCount() / r.completedRequests(), r.fallbackCount(), r.throughputPerSec(),
          r.wallNanos() / 1e9);
      out.flush();
    }
    out.println();
    printRatio(out, "SR/EC", results.get(Scheme.SR), results.get(Scheme.EC));
    printRatio(out, "SP/EC", results.get(Scheme.SP), results.get(Scheme.EC));
    out.println();
  }

  private static void printRatio(PrintStream out, String label, SimulationResult a, SimulationResult b) {
    out.printf(Locale.ROOT, "%s: mean %.2fx, median %.2fx, p99 %.2fx, p99.9 %.2fx, λ %.2fx%n", label,
        a.meanMillis() / b.meanMillis(), a.percentileMillis(50) / b.percentileMillis(50),
        a.percentileMillis(99) / b.percentileMillis(99), a.percentileMillis(99.9) / b.percentileMillis(99.9),
        imbalancePercent(a.bytesPerServer(), a.usefulBytes())
            / imbalancePercent(b.bytesPerServer(), b.usefulBytes()));
  }

  /**
   * The paper's percent imbalance (equation 1): {@code (L_max - L_avg*) / L_avg* * 100}, with
   * {@code L_avg* = usefulBytes / servers} the load of an oracle with no overhead.
   */
  private static double imbalancePercent(long[] bytesPerServer, long usefulBytes) {
    double ideal = (double) usefulBytes / bytesPerServer.length;
    long max = Arrays.stream(bytesPerServer).max().orElse(0);
    return (max - ideal) / ideal * 100;
  }
}
