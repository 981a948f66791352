package io.eccache.benchmarks.cli;

import io.eccache.benchmarks.logecmem.LogEcMemEvaluation;
import io.eccache.cli.ExitCodes;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code eccache-bench logecmem}: LogECMem's evaluation (SC'21) reproduced on its testbed (tier 1:
 * memcached DRAM nodes, eccache's log nodes, a proxy of HybridPL, IPMem and FSMem), figure by
 * figure, each with a CSV, a Markdown summary and plots under {@code --out}.
 */
@Command(name = "logecmem", mixinStandardHelpOptions = true,
    description = "LogECMem's evaluation on its testbed: memcached servers as DRAM nodes,"
        + " eccache's log nodes, a proxy running LogECMem (HybridPL), IPMem and FSMem over YCSB"
        + " traces. Writes each figure's raw.csv, summary.md and plots under --out.")
final class LogEcMemCommand implements Callable<Integer> {
  @Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--profile", defaultValue = "quick",
      description = "quick (minutes: 4,000 values and 4,000 requests per run, 2,000 of each"
          + " for Fig. 13's wide codes) or full (100,000 of each, 30,000 for the wide codes,"
          + " hours); default quick.")
  String profile;

  @Option(names = "--figure",
      description = "table2, fig10, fig11, fig12, fig13, fig14, fig15 or fig16 (fig16: Table 3"
          + " too, from the grids of Figs. 11-13, replayed if they did not run; repeatable;"
          + " default: all).")
  List<String> figures = new ArrayList<>();

  @Option(names = "--repeats", description = "Runs per point (default 3).")
  Integer repeats;

  @Option(names = "--records", description = "Values loaded per run, every figure's (overrides"
      + " the profile).")
  Long records;

  @Option(names = "--operations", description = "Requests per run, every figure's (overrides the"
      + " profile).")
  Long operations;

  @Option(names = "--codes", split = ",",
      description = "Codes as K-R, e.g. 6-3,10-4 (default the paper's 6-3,10-4,12-4,15-3).")
  List<String> codes = new ArrayList<>();

  @Option(names = "--wide-codes", split = ",",
      description = "Fig. 13's wide codes as K-R (default 16-4,32-4,64-4,128-4; k + r at most"
          + " 256 DRAM nodes).")
  List<String> wideCodes = new ArrayList<>();

  @Option(names = "--servers", description = "memcached servers a testbed starts at most (1-80,"
      + " default 20); a code of more DRAM nodes puts several on one server, each under a key"
      + " prefix of its own (virtual nodes, labelled in the tables).")
  Integer servers;

  @Option(names = "--mix", description = "Mixes as 'read:update 95:5' (repeatable; default the"
      + " paper's 95:5, 80:20, 70:30 and 50:50).")
  List<String> mixes = new ArrayList<>();

  @Option(names = "--issue", defaultValue = "serial",
      description = "serial (one call after another, as the paper's artifact) or parallel.")
  String issue;

  @Option(names = "--log-nodes", defaultValue = "processes",
      description = "processes (each a JVM of its own, default) or in-process.")
  String logNodes;

  @Option(names = "--log-wire", defaultValue = "socket",
      description = "How the proxy reaches the log nodes: socket (a plain socket, a round trip"
          + " as cheap as memcached's; default) or grpc (the product's wire).")
  String wire;

  @Option(names = "--out", defaultValue = "benchmarks/results/logecmem",
      description = "Where the results go (default benchmarks/results/logecmem).")
  Path out;

  @Override
  public Integer call() throws Exception {
    PrintWriter progress = spec.commandLine().getOut();
    LogEcMemEvaluation evaluation;
    try {
      evaluation = LogEcMemEvaluation.builder(profile).figures(figures).repeats(repeats)
          .records(records).operations(operations).codes(codes).wideCodes(wideCodes)
          .servers(servers).mixes(mixes).issue(issue)
          .logNodes(logNodes).wire(wire).build();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    String summary = evaluation.run(out, TypedCommand.of(spec, "logecmem"), line -> {
      progress.println("  " + line);
      progress.flush();
    });
    progress.print(summary);
    progress.flush();
    return ExitCodes.OK;
  }
}
