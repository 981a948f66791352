package io.eccache.benchmarks.logecmem;

import io.eccache.benchmarks.report.CsvWriter;
import io.eccache.benchmarks.report.MarkdownTable;
import io.eccache.benchmarks.report.Plots;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Table 2: MTTDL by repair bandwidth for the four codes, from {@link ReliabilityModel}: the
 * paper's chain (which its table uses for every code) beside each code's own.
 */
final class Table2Reliability {
  static final double[] GBPS = {1, 10, 40, 100};
  /** The paper's Table 2, years, in the order of {@link LogEcMemSettings#PAPER_CODES}. */
  static final double[][] PAPER = {
      {1.03e9, 9.76e9, 3.89e10, 9.71e10},
      {6.41e8, 5.88e9, 2.34e10, 5.83e10},
      {5.44e8, 4.91e9, 1.95e10, 4.86e10},
      {4.47e8, 3.94e9, 1.56e10, 3.89e10}};

  private Table2Reliability() {}

  static String run(LogEcMemRun run) throws IOException {
    Path dir = Files.createDirectories(run.out.resolve("table2"));
    ReliabilityModel model = ReliabilityModel.paper();
    MarkdownTable table = new MarkdownTable("code", "chain", "1 Gb/s", "10 Gb/s", "40 Gb/s",
        "100 Gb/s");
    Map<String, double[][]> plot = new LinkedHashMap<>();
    try (CsvWriter csv = new CsvWriter(dir.resolve("table2.csv"), "code", "chain", "gbps",
        "mttdl_years", "paper_years")) {
      int c = 0;
      for (int[] code : LogEcMemSettings.PAPER_CODES) {
        String name = LogEcMemSettings.code(code);
        String[] paperCells = new String[GBPS.length];
        String[] ours = new String[GBPS.length];
        String[] own = new String[GBPS.length];
        double[][] series = new double[2][GBPS.length];
        for (int b = 0; b < GBPS.length; b++) {
          double years = model.paperChain(code[0], GBPS[b]);
          double ownYears = model.ownChain(code[0], code[1], GBPS[b]);
          paperCells[b] = sci(PAPER[c][b]);
          ours[b] = sci(years);
          own[b] = sci(ownYears);
          series[0][b] = GBPS[b];
          series[1][b] = Math.log10(ownYears);
          csv.row(name, "paper's (6,3) chain, C = k", GBPS[b], years, PAPER[c][b]);
          csv.row(name, "own chain", GBPS[b], ownYears, "");
        }
        table.row(name, "paper's Table 2", paperCells[0], paperCells[1], paperCells[2],
            paperCells[3]);
        table.row(name, "ours, paper's chain ((6,3) states, C = k)", ours[0], ours[1], ours[2],
            ours[3]);
        table.row(name, "ours, the code's own chain", own[0], own[1], own[2], own[3]);
        plot.put("RS" + name + " own chain", series);
        c++;
      }
    }
    Plots.lines(dir.resolve("table2.png"), "Table 2: MTTDL by repair bandwidth (own chains)",
        "repair bandwidth B (Gb/s)", "log10 MTTDL (years)", plot);
    String md = "## Table 2: reliability (MTTDL, years)\n\n"
        + "Markov model of §3.1: 1/λ = 4 years, S = 16 TiB, T = 30 min, μ = B/(S·k), μ' = 1/T,"
        + " 365-day years. The paper's table uses the (6,3) chain (9 nodes, loss at the 4th"
        + " failure) for every code with only C = k changed; ours matches every cell to its"
        + " three digits that way. Each code's own chain (k + r nodes, loss at failure r + 1)"
        + " is printed below it: four parities give orders of magnitude more, (15,3) less.\n\n"
        + run.stamp.markdown() + "\n\n" + table + "\n![Table 2](table2.png)\n";
    Files.writeString(dir.resolve("summary.md"), md);
    return md;
  }

  private static String sci(double v) {
    return String.format(Locale.ROOT, "%.2e", v);
  }
}
