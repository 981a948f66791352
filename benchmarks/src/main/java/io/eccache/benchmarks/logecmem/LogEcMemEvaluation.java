package io.eccache.benchmarks.logecmem;

import io.eccache.benchmarks.kv.KvMix;
import io.eccache.benchmarks.report.RunStamp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * LogECMem's evaluation on its testbed, figure by figure: what {@code eccache-bench logecmem}
 * runs. Settings are checked when built, before any server starts.
 */
public final class LogEcMemEvaluation {
  /** A figure: runs on the shared run and returns its Markdown section. */
  private interface Figure {
    String run(LogEcMemRun run) throws IOException;
  }

  private static final Map<String, Figure> FIGURES = new LinkedHashMap<>();

  static {
    FIGURES.put("table2", Table2Reliability::run);
    FIGURES.put("fig10", Fig10BasicRequests::run);
    FIGURES.put("fig11", Fig11UpdateLatency::run);
    FIGURES.put("fig12", Fig12Memory::run);
    FIGURES.put("fig13", Fig13WideStripes::run);
    FIGURES.put("fig14", Fig14LogLayouts::run);
    FIGURES.put("fig15", Fig15NodeRepair::run);
    FIGURES.put("fig16", Fig16Tradeoff::run);
  }

  /** The figures that SIGKILL DRAM nodes (their codes' nodes may not share servers). */
  private static final List<String> KILLING = List.of("fig10", "fig14", "fig15");

  private final LogEcMemSettings settings;
  private final List<String> figures;

  private LogEcMemEvaluation(LogEcMemSettings settings, List<String> figures) {
    this.settings = settings;
    this.figures = figures;
  }

  /** The figures it can run, in order. */
  public static List<String> figureNames() {
    return new ArrayList<>(FIGURES.keySet());
  }

  /** Settings of {@code profile} ({@code quick} or {@code full}), then overrides. */
  public static Builder builder(String profile) {
    return new Builder(LogEcMemSettings.profile(profile));
  }

  /** Overrides of a profile's settings; null or empty keeps the profile's. */
  public static final class Builder {
    private final LogEcMemSettings s;
    private List<String> figures = new ArrayList<>();

    private Builder(LogEcMemSettings s) {
      this.s = s;
    }

    /** The figures to run, by name ({@link #figureNames()}); none: all. */
    public Builder figures(List<String> names) {
      for (String name : names) {
        if (!FIGURES.containsKey(name)) {
          throw new IllegalArgumentException("no figure '" + name + "': give one of "
              + FIGURES.keySet());
        }
      }
      figures = new ArrayList<>(names);
      return this;
    }

    /** Runs per point. */
    public Builder repeats(Integer repeats) {
      if (repeats != null) {
        positive(repeats, "--repeats");
        s.repeats = repeats;
      }
      return this;
    }

    /** Values loaded per run, of every figure (the wide codes' too). */
    public Builder records(Long records) {
      if (records != null) {
        positive(records, "--records");
        s.records = records;
        s.wideRecords = records;
      }
      return this;
    }

    /** Requests per run, of every figure (the wide codes' too). */
    public Builder operations(Long operations) {
      if (operations != null) {
        positive(operations, "--operations");
        s.operations = operations;
        s.wideOperations = operations;
      }
      return this;
    }

    /** Codes as {@code K-R}, r from 2 to 4 (the testbed's three log nodes). */
    public Builder codes(List<String> codes) {
      if (!codes.isEmpty()) {
        s.codes = parseCodes(codes, "--codes");
      }
      return this;
    }

    /** Fig. 13's wide codes as {@code K-R}. */
    public Builder wideCodes(List<String> codes) {
      if (!codes.isEmpty()) {
        s.wideCodes = parseCodes(codes, "--wide-codes");
      }
      return this;
    }

    /** Real memcached servers per testbed at most; more DRAM nodes share them. */
    public Builder servers(Integer servers) {
      if (servers != null) {
        NodeMap.of(1, servers); // out of range: refused here
        s.servers = servers;
      }
      return this;
    }

    /**
     * Codes {@code K-R} with k >= 2, 2 <= r <= 4 and k + r DRAM nodes at most {@link
     * NodeMap#MAX_NODES}.
     *
     * @throws NodeMap.OutOfRangeException for a code of more nodes than a testbed has
     * @throws IllegalArgumentException for anything else that is not such a code
     */
    private static List<int[]> parseCodes(List<String> codes, String option) {
      List<int[]> parsed = new ArrayList<>();
      for (String code : codes) {
        String[] parts = code.trim().split("-");
        int k;
        int r;
        try {
          k = Integer.parseInt(parts[0]);
          r = Integer.parseInt(parts[1]);
          if (parts.length != 2 || k < 2 || r < 2 || r > 4) {
            throw new NumberFormatException();
          }
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
          throw new IllegalArgumentException(option + " '" + code + "' is not a code: give K-R"
              + " with k >= 2, 2 <= r <= 4 (three log nodes), e.g. 10-4");
        }
        if (k + r > NodeMap.MAX_NODES) {
          throw new NodeMap.OutOfRangeException(option + " " + code + ": k + r = " + (k + r)
              + " DRAM nodes, a testbed has at most " + NodeMap.MAX_NODES + " (logical nodes,"
              + " on at most " + NodeMap.MAX_SERVERS + " memcached servers)");
        }
        parsed.add(new int[] {k, r});
      }
      return parsed;
    }

    /** Read:update mixes, as {@link KvMix#parse} reads them. */
    public Builder mixes(List<String> mixes) {
      if (!mixes.isEmpty()) {
        List<KvMix> parsed = new ArrayList<>();
        for (String mix : mixes) {
          KvMix m = KvMix.parse(mix);
          if (m.other() != io.eccache.benchmarks.kv.KvOp.Kind.UPDATE) {
            throw new IllegalArgumentException("'" + mix + "': these figures take read:update"
                + " mixes");
          }
          parsed.add(m);
        }
        s.mixes = parsed;
      }
      return this;
    }

    /** {@code serial} or {@code parallel}. */
    public Builder issue(String issue) {
      try {
        s.issue = Testbed.Issue.valueOf(issue.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--issue " + issue + ": give serial or parallel");
      }
      return this;
    }

    /** {@code processes} or {@code in-process}. */
    public Builder logNodes(String where) {
      if (where.equals("processes") || where.equals("in-process")) {
        s.logNodeProcesses = where.equals("processes");
        return this;
      }
      throw new IllegalArgumentException("--log-nodes " + where + ": give processes or"
          + " in-process");
    }

    /** {@code socket} or {@code grpc}. */
    public Builder wire(String wire) {
      try {
        s.wire = LogWire.valueOf(wire.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--log-wire " + wire + ": give socket or grpc");
      }
      return this;
    }

    /** Checks that memcached is installed and makes the evaluation. */
    public LogEcMemEvaluation build() {
      List<String> chosen = figures.isEmpty() ? figureNames() : figures;
      for (int[] code : s.codes) {
        // Killing a server kills every node on it: the figures that kill one DRAM node need
        // each node alone on its server.
        if (NodeMap.of(code[0] + code[1], s.servers).isVirtual()
            && chosen.stream().anyMatch(KILLING::contains)) {
          throw new NodeMap.OutOfRangeException("--codes " + code[0] + "-" + code[1] + ": "
              + KILLING + " kill DRAM nodes and need one server each, k + r <= --servers ("
              + s.servers + ")");
        }
      }
      MemcachedServer.binary(); // not installed: say so before anything runs
      return new LogEcMemEvaluation(s, chosen);
    }

    private static void positive(long v, String option) {
      if (v < 1) {
        throw new IllegalArgumentException(option + " must be at least 1, got " + v);
      }
    }
  }

  /**
   * Runs the figures, writing each under {@code out/<figure>/} and every section into {@code
   * out/summary.md}; returns that summary.
   *
   * @param command the command line as typed, for the stamp
   */
  public String run(Path out, String command, Consumer<String> progress) throws IOException {
    RunStamp stamp = RunStamp.capture(Paths.get("."), command);
    Files.createDirectories(out);
    Path scratch = Files.createTempDirectory("eccache-logecmem");
    StringBuilder summary = new StringBuilder("# LogECMem's evaluation (SC'21) on its testbed\n\n"
        + "Profile " + settings.profile + ". " + stamp.markdown() + "\n\n");
    try (LogEcMemRun run = new LogEcMemRun(settings, stamp, out, scratch, progress)) {
      for (String figure : figures) {
        progress.accept(figure + "...");
        summary.append(FIGURES.get(figure).run(run)).append('\n');
      }
    } finally {
      try (Stream<Path> files = Files.walk(scratch)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    Files.writeString(out.resolve("summary.md"), summary.toString());
    return summary.toString();
  }
}
