package io.eccache.benchmarks.datapath;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.eccache.benchmarks.report.CsvWriter;
import io.eccache.benchmarks.report.MarkdownTable;
import io.eccache.benchmarks.report.Plots;
import io.eccache.benchmarks.report.RunStamp;
import io.eccache.benchmarks.report.Spread;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * Writes a data-path run's results: {@code raw.csv} (one row per round, size, thread count and
 * variant), {@code summary.md} (stamp, method, issue 15's targets beside the measured ratios, the
 * ratios, each variant's numbers), {@code summary.json} (the same numbers) and
 * {@code throughput.png} (MiB/s by object size per variant).
 */
public final class DatapathReport {
  /** The variants every cell has. */
  private static final String[] KINDS = {"eccache", "pk", "plain"};
  /** Those and the variants a run may add (--stored-bytes-files). */
  private static final String[] SHOWN = {"eccache", "pk", "plain", "pkr"};

  private DatapathReport() {}

  /** How one target compares a measured value with its bound. */
  enum Bound {
    AT_MOST("≤"), AT_LEAST("≥"), BELOW("<");

    final String sign;

    Bound(String sign) {
      this.sign = sign;
    }

    boolean met(double value, double bound) {
      return this == AT_MOST ? value <= bound : this == AT_LEAST ? value >= bound : value < bound;
    }
  }

  /** What a target measures, from one cell (op, size, thread count). */
  enum Metric {
    CPU_VS_PK, THROUGHPUT_VS_PK, MIB_PER_SECOND, P50_VS_PLAIN, P99_MS
  }

  /** One of issue 15's targets. */
  static final class Target {
    final String text;
    final String op;
    final List<Long> sizes;
    final boolean oneThread;
    final Metric metric;
    final Bound bound;
    final double limit;
    final String unit;

    Target(String text, String op, List<Long> sizes, boolean oneThread, Metric metric,
        Bound bound, double limit, String unit) {
      this.text = text;
      this.op = op;
      this.sizes = sizes;
      this.oneThread = oneThread;
      this.metric = metric;
      this.bound = bound;
      this.limit = limit;
      this.unit = unit;
    }
  }

  /** Issue 15's targets, "p10" meaning pk at the run's k. */
  static List<Target> targets() {
    long mib = DatapathSettings.MIB;
    List<Long> large = List.of(8 * mib, 40_000_000L, 256 * mib);
    return List.of(
        new Target("GET CPU per MiB vs p10", "GET", large, false, Metric.CPU_VS_PK,
            Bound.AT_MOST, 1.1, "x"),
        new Target("GET throughput vs p10", "GET", large, false, Metric.THROUGHPUT_VS_PK,
            Bound.AT_LEAST, 0.9, "x"),
        new Target("unshaped 40 MB GET", "GET", List.of(40_000_000L), true,
            Metric.MIB_PER_SECOND, Bound.AT_LEAST, 1024, " MiB/s"),
        new Target("small GET p50 vs one plain file", "GET", List.of(64L << 10), true,
            Metric.P50_VS_PLAIN, Bound.AT_MOST, 1.2, "x"),
        new Target("PUT throughput vs p10 (ten plain files)", "PUT", List.of(64 * mib, 256 * mib),
            false, Metric.THROUGHPUT_VS_PK, Bound.AT_LEAST, 0.85, "x"),
        new Target("1 MiB PUT p99", "PUT", List.of(mib), true, Metric.P99_MS, Bound.BELOW, 60,
            " ms"));
  }

  /** One op at one size and thread count: each variant's rounds, by round. */
  static final class Cell {
    final String op;
    final long size;
    final int threads;
    int threadsRun;
    final Map<String, TreeMap<Integer, RoundResult>> byKind = new LinkedHashMap<>();

    Cell(String op, long size, int threads) {
      this.op = op;
      this.size = size;
      this.threads = threads;
    }

    List<RoundResult> rounds(String kind) {
      TreeMap<Integer, RoundResult> m = byKind.get(kind);
      return m == null ? List.of() : new ArrayList<>(m.values());
    }

    Spread spread(String kind, ToDoubleFunction<RoundResult> f) {
      return Spread.of(rounds(kind).stream().mapToDouble(f).toArray());
    }

    /** eccache's value over {@code other}'s, paired per round (rounds both have). */
    Spread ratio(String other, ToDoubleFunction<RoundResult> f) {
      TreeMap<Integer, RoundResult> ec = byKind.get("eccache");
      TreeMap<Integer, RoundResult> o = byKind.get(other);
      List<Double> ratios = new ArrayList<>();
      for (Map.Entry<Integer, RoundResult> e : ec.entrySet()) {
        RoundResult paired = o == null ? null : o.get(e.getKey());
        if (paired != null) {
          ratios.add(f.applyAsDouble(e.getValue()) / f.applyAsDouble(paired));
        }
      }
      return Spread.of(ratios.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** Every round's latencies of {@code kind} together. */
    Histogram latency(String kind) {
      Histogram h = new Histogram(3);
      for (RoundResult r : rounds(kind)) {
        h.add(r.latencyMicros);
      }
      return h;
    }

    /** Whether every round's CPU was measured by side (Linux's per-thread run times). */
    boolean bySide() {
      for (TreeMap<Integer, RoundResult> rounds : byKind.values()) {
        for (RoundResult r : rounds.values()) {
          if (r.cpuNanosBySide.isEmpty()) {
            return false;
          }
        }
      }
      return true;
    }

    boolean complete() {
      for (String kind : KINDS) {
        if (rounds(kind).isEmpty()) {
          return false;
        }
      }
      return true;
    }

    String threadsText() {
      return threadsRun < threads ? threads + " (" + threadsRun + " run)" : String.valueOf(threads);
    }
  }

  /** The results grouped into cells, in the order measured (sizes, threads, GET before PUT). */
  static List<Cell> cells(List<RoundResult> results) {
    Map<String, Cell> cells = new LinkedHashMap<>();
    for (String op : new String[] {"GET", "PUT"}) {
      for (RoundResult r : results) {
        if (!r.variant.op().equals(op)) {
          continue;
        }
        Cell c = cells.computeIfAbsent(op + "/" + r.sizeBytes + "/" + r.threads,
            x -> new Cell(op, r.sizeBytes, r.threads));
        c.threadsRun = r.threadsRun;
        c.byKind.computeIfAbsent(r.variant.kind(), x -> new TreeMap<>()).put(r.round, r);
      }
    }
    List<Cell> sorted = new ArrayList<>(cells.values());
    sorted.sort((a, b) -> a.op.equals(b.op) ? a.size != b.size ? Long.compare(a.size, b.size)
        : Integer.compare(a.threads, b.threads) : a.op.compareTo(b.op));
    return sorted;
  }

  /**
   * Writes the four files into {@code dir} (created if missing) and returns summary.md's text.
   *
   * @param cluster one line on the cluster, e.g. "in-process, 12 workers, unshaped loopback"
   * @param ioThreads eccache's split I/O threads, which pk's pool matches
   */
  public static String write(Path dir, List<RoundResult> results, DatapathSettings s,
      String cluster, int ioThreads, RunStamp stamp) throws IOException {
    if (results.isEmpty()) {
      throw new IllegalArgumentException("no results to report");
    }
    Files.createDirectories(dir);
    String pk = "p" + s.k;
    writeRaw(dir.resolve("raw.csv"), results, s, stamp);
    List<Cell> cells = cells(results);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("stamp", stamp.toMap());
    json.put("cluster", cluster);
    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put("workers", s.workers);
    settings.put("k", s.k);
    settings.put("r", s.r);
    settings.put("delta", s.delta);
    settings.put("rounds", s.rounds);
    settings.put("warmup_ms", s.warmupMs);
    settings.put("sizes", s.sizes);
    settings.put("threads", s.threads);
    settings.put("ioThreads", ioThreads);
    settings.put("dataCapBytes", s.dataCapBytes);
    settings.put("seed", s.seed);
    json.put("settings", settings);

    StringBuilder md = new StringBuilder();
    md.append("# Data path: eccache against ").append(pk).append(" and one plain file\n\n");
    md.append(stamp.markdown()).append("\n\n");
    md.append(method(s, cluster, ioThreads, pk));

    md.append("\n## Targets (issue 15)\n\n");
    md.append("Medians over the rounds of ratios paired per round, [min–max] beside them; a"
        + " target is met when the median is within its bound.\n\n");
    MarkdownTable targetTable = new MarkdownTable("target", "object size", "threads",
        "bound", "measured", "verdict");
    List<Map<String, Object>> jsonTargets = new ArrayList<>();
    for (Target t : targets()) {
      for (long size : t.sizes) {
        List<Cell> matching = new ArrayList<>();
        for (Cell c : cells) {
          if (c.op.equals(t.op) && c.size == size && (!t.oneThread || c.threads == 1)
              && c.complete()) {
            matching.add(c);
          }
        }
        String text = t.text.replace("p10", pk);
        String bound = t.bound.sign + " " + fmt(t.limit) + t.unit;
        if (matching.isEmpty()) {
          targetTable.row(text, DatapathSettings.formatSize(size), t.oneThread ? "1" : "1, 16",
              bound, "", "not measured");
          jsonTargets.add(target(text, size, null, bound, null, "not measured"));
        }
        for (Cell c : matching) {
          Spread v = measure(c, t.metric);
          String verdict = t.bound.met(v.median(), t.limit) ? "met" : "not met";
          targetTable.row(text, DatapathSettings.formatSize(size), c.threadsText(), bound,
              v.format(t.unit.equals("x") ? "%.2f" : t.unit.equals(" ms") ? "%.1f" : "%.0f")
                  + t.unit, verdict);
          jsonTargets.add(target(text, size, c.threads, bound, v, verdict));
        }
      }
    }
    md.append(targetTable);
    json.put("targets", jsonTargets);

    md.append("\n## eccache over ").append(pk).append(" and over one plain file\n\n");
    md.append("Each round's eccache value over the other variant's in the same round; median"
        + " [min–max] over the rounds. Throughput above 1 and CPU, latency below 1 favour"
        + " eccache.\n\n");
    MarkdownTable ratios = new MarkdownTable("op", "object size", "threads",
        "MiB/s vs " + pk, "CPU per MiB vs " + pk, "client CPU per MiB vs " + pk,
        "p50 vs " + pk, "p99 vs " + pk, "MiB/s vs plain", "p50 vs plain");
    String pkr = Variant.PUT_PKR.label(s.k, s.r);
    MarkdownTable storedBytes = new MarkdownTable("op", "object size", "threads",
        "MiB/s vs " + pkr, "CPU per MiB vs " + pkr, "client CPU per MiB vs " + pkr,
        "workers' CPU per MiB vs " + pkr);
    MarkdownTable sides = new MarkdownTable(sideColumns());
    boolean measuredBySide = false;
    MarkdownTable variants = new MarkdownTable("op", "object size", "threads", "variant",
        "MiB/s", "CPU ms per MiB", "p50 ms", "p99 ms", "ops", "decoded / hedged");
    List<Map<String, Object>> jsonCells = new ArrayList<>();
    Map<String, double[][]> plot = new LinkedHashMap<>();
    Map<String, List<double[]>> points = new LinkedHashMap<>();
    for (Cell c : cells) {
      boolean cellBySide = c.bySide(); // every round of the cell measured by side
      Map<String, Object> jc = new LinkedHashMap<>();
      jc.put("op", c.op);
      jc.put("sizeBytes", c.size);
      jc.put("size", DatapathSettings.formatSize(c.size));
      jc.put("threads", c.threads);
      jc.put("threadsRun", c.threadsRun);
      Map<String, Object> jv = new LinkedHashMap<>();
      for (String kind : SHOWN) {
        List<RoundResult> rounds = c.rounds(kind);
        if (rounds.isEmpty()) {
          continue;
        }
        String label = rounds.get(0).variant.label(s.k, s.r);
        Spread mibps = c.spread(kind, RoundResult::mibPerSecond);
        Spread cpu = c.spread(kind, RoundResult::cpuMsPerMib);
        Histogram h = c.latency(kind);
        double p50 = h.getValueAtPercentile(50) / 1000.0;
        double p99 = h.getValueAtPercentile(99) / 1000.0;
        variants.row(c.op, DatapathSettings.formatSize(c.size), c.threadsText(), label,
            mibps.format("%.0f"), cpu.format("%.2f"), p50, p99, h.getTotalCount(),
            decodedAndHedged(rounds));
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("mibPerSecond", mibps.toMap());
        v.put("cpuMsPerMib", cpu.toMap());
        if (cellBySide) {
          List<Object> sideRow = new ArrayList<>(List.of(c.op,
              DatapathSettings.formatSize(c.size), c.threadsText(), label));
          Map<String, Object> sideSpreads = new LinkedHashMap<>();
          for (CpuSide side : CpuSide.values()) {
            Spread spread = c.spread(kind, r -> r.cpuMsPerMib(side));
            sideRow.add(spread.format("%.2f"));
            sideSpreads.put(side.key(), spread.toMap());
          }
          sides.row(sideRow.toArray());
          measuredBySide = true;
          v.put("cpuMsPerMibBySide", sideSpreads);
        }
        v.put("p50Ms", p50);
        v.put("p99Ms", p99);
        v.put("ops", h.getTotalCount());
        jv.put(label, v);
        points.computeIfAbsent(c.op + " " + label + ", " + c.threads + " thread"
            + (c.threads == 1 ? "" : "s"), x -> new ArrayList<>()).add(new double[] {
                Math.log(c.size / (double) DatapathSettings.MIB) / Math.log(2), mibps.median(),
                mibps.min(), mibps.max()});
      }
      jc.put("variants", jv);
      if (c.complete()) {
        Spread tput = c.ratio("pk", RoundResult::mibPerSecond);
        Spread cpu = c.ratio("pk", RoundResult::cpuMsPerMib);
        Spread clientCpu = cellBySide ? c.ratio("pk", r -> r.cpuMsPerMib(CpuSide.CLIENT)) : null;
        Spread p50 = c.ratio("pk", RoundResult::p50Ms);
        Spread p99 = c.ratio("pk", RoundResult::p99Ms);
        Spread tputPlain = c.ratio("plain", RoundResult::mibPerSecond);
        Spread p50Plain = c.ratio("plain", RoundResult::p50Ms);
        ratios.row(c.op, DatapathSettings.formatSize(c.size), c.threadsText(),
            tput.format("%.2f") + "x", cpu.format("%.2f") + "x",
            clientCpu == null ? "n/a" : clientCpu.format("%.2f") + "x", p50.format("%.2f") + "x",
            p99.format("%.2f") + "x", tputPlain.format("%.2f") + "x",
            p50Plain.format("%.2f") + "x");
        Map<String, Object> jr = new LinkedHashMap<>();
        jr.put("throughputVsPk", tput.toMap());
        jr.put("cpuPerMibVsPk", cpu.toMap());
        if (clientCpu != null) {
          jr.put("clientCpuPerMibVsPk", clientCpu.toMap());
        }
        jr.put("p50VsPk", p50.toMap());
        jr.put("p99VsPk", p99.toMap());
        jr.put("throughputVsPlain", tputPlain.toMap());
        jr.put("p50VsPlain", p50Plain.toMap());
        if (!c.rounds("pkr").isEmpty()) {
          Spread tputStored = c.ratio("pkr", RoundResult::mibPerSecond);
          Spread cpuStored = c.ratio("pkr", RoundResult::cpuMsPerMib);
          Spread clientStored = cellBySide
              ? c.ratio("pkr", r -> r.cpuMsPerMib(CpuSide.CLIENT)) : null;
          Spread workersStored = cellBySide
              ? c.ratio("pkr", r -> r.cpuMsPerMib(CpuSide.WORKERS)) : null;
          storedBytes.row(c.op, DatapathSettings.formatSize(c.size), c.threadsText(),
              tputStored.format("%.2f") + "x", cpuStored.format("%.2f") + "x",
              clientStored == null ? "n/a" : clientStored.format("%.2f") + "x",
              workersStored == null ? "n/a" : workersStored.format("%.2f") + "x");
          jr.put("throughputVsStoredBytesFiles", tputStored.toMap());
          jr.put("cpuPerMibVsStoredBytesFiles", cpuStored.toMap());
        }
        jc.put("ratios", jr);
      }
      jsonCells.add(jc);
    }
    md.append(ratios);
    if (s.storedBytesFiles) {
      md.append("\n## eccache over ").append(pkr).append(", the bytes it stores as plain files\n\n");
      md.append("Each round's eccache PUT over " + pkr + "'s in the same round: the same " + s.k
          + " parts as " + pk + " and " + s.r + " more files, each a copy of a part, so "
          + (s.k + s.r) + " pinned files with the bytes and file count eccache writes but"
          + " nothing coded or checked. What is left of the ratio is eccache's own cost beyond its"
          + " redundancy's bytes: coding, CRC32Cs, allocation and commit.\n\n");
      md.append(storedBytes);
    }
    md.append("\n## Each variant\n\n");
    md.append("MiB/s and CPU per MiB: median [min–max] over the rounds; p50 and p99 over every"
        + " operation of every round. Decoded / hedged: eccache GETs that rebuilt a data split,"
        + " and that started their Δ extra reads late (read choice HEDGED), as shares of the"
        + " GETs (one read window per GET).\n\n");
    md.append(variants);
    md.append("\n## Where the CPU goes\n\n");
    md.append("CPU ms per object MiB of the threads working for each side of the cluster, told"
        + " from their names: the client (eccache's split I/O threads, the benchmark's client"
        + " and " + pk + " threads, Alluxio's client event loops), the workers, the master with"
        + " eccache's coordinator, the JVM's garbage collection (gc) and JIT compilers (jit),"
        + " the S3 API server the under store is (s3: s3proxy, a process of its own on these"
        + " cores when this command started the cluster; eccache's PUTs ask it whether the key"
        + " has a copy there), and other (gRPC's shared event loops"
        + " and executors, which serve both ends); median [min–max] over the rounds. The"
        + " sides' medians need not add up to the total's."
        + (s.cluster == DatapathSettings.ClusterKind.PROCESSES ? " The master's and the"
            + " workers' processes count to their sides but their GC and JIT threads, which are"
            + " in the gc and jit columns with the client's (every JVM's)."
            : s.cluster == DatapathSettings.ClusterKind.RUNNING
            ? " The cluster runs elsewhere: only this client's threads are counted." : "")
        + "\n\n");
    md.append(measuredBySide ? sides.toString() : "Not measured: this system has no per-thread"
        + " run times (/proc/self/task/*/schedstat).\n");
    md.append("\n## Objects and operations per size\n\n");
    MarkdownTable setup = new MarkdownTable("object size", "objects per variant", "threads",
        "threads run", "operations per thread per round");
    for (long size : s.sizes) {
      for (int threads : s.threads) {
        int run = s.threadsRun(size, threads);
        setup.row(DatapathSettings.formatSize(size), s.objectsFor(size), threads, run,
            s.opsPerThread(size, run));
      }
    }
    md.append(setup);
    json.put("cells", jsonCells);

    for (Map.Entry<String, List<double[]>> e : points.entrySet()) {
      List<double[]> p = e.getValue();
      double[][] series = new double[4][p.size()];
      for (int i = 0; i < p.size(); i++) {
        for (int j = 0; j < 4; j++) {
          series[j][i] = p.get(i)[j];
        }
      }
      plot.put(e.getKey(), series);
    }
    Plots.linesWithRange(dir.resolve("throughput.png"), "Throughput by object size (median,"
        + " dashed: min and max over rounds)", "object size, log2 MiB (0 = 1 MiB, 8 = 256 MiB)",
        "MiB/s", plot);
    md.append("\n![throughput by object size](throughput.png)\n");

    String summary = md.toString();
    Files.writeString(dir.resolve("summary.md"), summary, StandardCharsets.UTF_8);
    Files.write(dir.resolve("summary.json"), new ObjectMapper()
        .enable(SerializationFeature.INDENT_OUTPUT).writeValueAsBytes(json));
    return summary;
  }

  private static String operations(DatapathSettings s) {
    return s.operations.size() == Variant.Operation.values().length ? "GET and PUT"
        : s.operations.iterator().next() + " only";
  }

  private static String method(DatapathSettings s, String cluster, int ioThreads, String pk) {
    return "## Method\n\n"
        + "- Cluster: " + cluster + "; eccache RS(" + s.k + "," + s.r + ") (PutOptions.code)"
        + " from " + DatapathSettings.formatSize(DatapathSettings.SMALL_OBJECT_THRESHOLD)
        + " up; smaller objects are PUT without a scheme, and the coordinator stores them as"
        + " whole copies (alluxio.eccache.small.object.threshold, as for any user's PUT);"
        + " CACHE_ONLY, GETs with Δ = " + s.delta + "; every variant on the same cluster, through"
        + " the same Alluxio client context.\n"
        + "- Variants: **eccache** `get`/`put`; **" + pk + "**: the same bytes as " + s.k
        + " MUST_CACHE Alluxio files of ceil(size/" + s.k + ") bytes, part i pinned to its own"
        + " worker (`CreateFilePOptions.setWorkerLocation`, a SpecificHostPolicy), written and"
        + " read in parallel on a fixed pool of " + ioThreads + " threads (eccache's split I/O"
        + " threads), read into one byte[] from statuses fetched once at setup, NO_CACHE;"
        + " **plain**: one MUST_CACHE file, pinned to one worker, read whole"
        + (s.storedBytesFiles ? "; **" + Variant.PUT_PKR.label(s.k, s.r) + "** (PUT): " + pk
            + "'s parts and " + s.r + " more files, copies of the first parts, each on the"
            + " worker after the last, written together" : "")
        + ". Files are one block each with one replica, as eccache's splits.\n"
        + "- Rounds: " + s.rounds + " per object size and thread count, after an unmeasured"
        + " warm-up of every variant (steps of it for at least " + s.warmupMs + " ms, at least one"
        + " step, so the JIT has compiled each variant's per-operation code); within a round the"
        + " " + s.variants().size() + " variants (" + operations(s) + ") run one after the"
        + " other in a shuffled order (seed " + s.seed + "), a full GC before each. A"
        + " variant's round is a number of steps, each step one operation per client thread,"
        + " all started together. Wall time is summed over the steps, so checking every GET's"
        + " bytes against the data written (all of them are checked), between steps, is not in"
        + " it. PUTs write new objects and files, deleted after the round"
        + (s.removalTimeoutMs > 0 ? "; each settling pass and round starts once the workers"
            + " have removed what earlier PUTs deleted (the block master's used bytes back to"
            + " what the stored objects take; eccache's deleted objects go a retired grace"
            + " later, plain files a heartbeat later), so no variant's span holds another's"
            + " block removals (the wait, in no span, is raw.csv's `removal_wait_s`)"
            : "; on a running cluster nothing waits for the workers to remove them, so removals"
            + " may land in a later variant's span") + ".\n"
        + "- MiB/s: object bytes moved (not counting parity or Δ's extra reads) over the wall"
        + " time. " + cpuScope(s.cluster) + " It is counted from the first step's start to the last"
        + " one's end, less the measuring thread's own (it checks the bytes), "
        + (ProcessCpu.exact() ? "from every thread's run time in /proc/self/task/*/schedstat"
            + " (nanoseconds) because `OperatingSystemMXBean.getProcessCpuTime` counts 10 ms"
            + " clock ticks on Linux; raw.csv has the latter too (`process_cpu_s`) as a"
            + " cross-check." : "from `OperatingSystemMXBean.getProcessCpuTime`.")
        + " p50 and p99: per operation.\n"
        + "- Ratios: eccache over " + pk + " (and over plain) in the same round, then the"
        + " median [min–max] over the rounds.\n"
        + "- Memory caps (the launcher's -Xmx4g holds the data, the results and the sources):"
        + " objects x size per variant and threads x size in flight are at most "
        + DatapathSettings.formatSize(s.dataCapBytes) + ", so large objects use fewer objects,"
        + " and fewer threads than asked where threads x size exceeds it (\"16 (4 run)\" at 256"
        + " MiB); objects are also at most " + s.maxObjects + " per size.\n"
        + "- This JVM: Java " + Runtime.version() + ", " + jvmOptions() + ".\n";
  }

  /**
   * The measuring JVM's heap and G1 settings as it runs with them: the region size decides
   * which results are humongous (allocated in the old generation, so collected by concurrent
   * cycles that land on whichever round runs then).
   */
  private static String jvmOptions() {
    List<String> shown = new ArrayList<>();
    for (String arg : java.lang.management.ManagementFactory.getRuntimeMXBean()
        .getInputArguments()) {
      if (arg.startsWith("-Xmx") || arg.startsWith("-XX:G1HeapRegionSize")
          || arg.startsWith("-XX:MaxDirectMemorySize") || arg.startsWith("-XX:+Use")) {
        shown.add("`" + arg + "`");
      }
    }
    return shown.isEmpty() ? "default heap and collector options" : String.join(" ", shown);
  }

  /** What the CPU columns count, for the cluster measured. */
  private static String cpuScope(DatapathSettings.ClusterKind cluster) {
    switch (cluster) {
      case PROCESSES:
        return "**CPU per MiB: this process's CPU time (the client, its GC and JIT) and that of"
            + " the master's and every worker's process**, each server process's threads counted"
            + " to its side but its GC and JIT threads, which count in the gc and jit columns with"
            + " the client's, and the S3 server's (s3proxy) in the s3 column; the total counts the"
            + " client's and the servers' work on every transfer, so ratios of it understate the"
            + " client-side difference.";
      case RUNNING:
        return "**CPU per MiB: this client process's CPU time only** (the cluster runs"
            + " elsewhere): the client's cost, its GC and JIT included, not the servers'.";
      default:
        return "**CPU per MiB: the CPU time of the whole process**, and the master and the"
            + " workers run in this process: it counts the client's and the servers' work on"
            + " every transfer (and the cluster's background, GC and JIT threads), so ratios"
            + " understate the client-side difference; with per-thread run times, the S3"
            + " server's (s3proxy, a process of its own) too, in the s3 column.";
    }
  }

  private static Spread measure(Cell c, Metric m) {
    switch (m) {
      case CPU_VS_PK:
        return c.ratio("pk", RoundResult::cpuMsPerMib);
      case THROUGHPUT_VS_PK:
        return c.ratio("pk", RoundResult::mibPerSecond);
      case MIB_PER_SECOND:
        return c.spread("eccache", RoundResult::mibPerSecond);
      case P50_VS_PLAIN:
        return c.ratio("plain", RoundResult::p50Ms);
      case P99_MS:
        return Spread.of(c.latency("eccache").getValueAtPercentile(99) / 1000.0);
      default:
        throw new IllegalStateException("unknown metric " + m);
    }
  }

  /** eccache GETs' read windows decoded and hedged, as shares of the operations; "" otherwise. */
  private static String decodedAndHedged(List<RoundResult> rounds) {
    if (rounds.get(0).variant != Variant.GET_ECCACHE) {
      return "";
    }
    long ops = 0;
    long decodes = 0;
    long hedges = 0;
    for (RoundResult r : rounds) {
      ops += r.ops;
      decodes += r.decodes;
      hedges += r.hedges;
    }
    return String.format(Locale.ROOT, "%.0f%% / %.0f%%", 100.0 * decodes / ops,
        100.0 * hedges / ops);
  }

  private static void writeRaw(Path csv, List<RoundResult> results, DatapathSettings s,
      RunStamp stamp) throws IOException {
    try (CsvWriter raw = new CsvWriter(csv, "round", "size_bytes", "size", "threads",
        "threads_run", "op", "variant", "order", "ops", "bytes", "wall_s", "cpu_s",
        "process_cpu_s", "cpu_client_s", "cpu_workers_s", "cpu_master_s", "cpu_gc_s",
        "cpu_jit_s", "cpu_s3_s", "cpu_other_s", "mib_per_s", "cpu_ms_per_mib", "p50_ms",
        "p99_ms", "max_ms", "verified_bytes", "decodes", "hedges", "removal_wait_s", "commit")) {
      for (RoundResult r : results) {
        raw.row(r.round, r.sizeBytes, DatapathSettings.formatSize(r.sizeBytes), r.threads,
            r.threadsRun, r.variant.op(), r.variant.label(s.k, s.r), r.order, r.ops, r.bytes,
            r.wallNanos / 1e9, r.cpuNanos / 1e9, r.processCpuNanos / 1e9,
            sideSeconds(r, CpuSide.CLIENT), sideSeconds(r, CpuSide.WORKERS),
            sideSeconds(r, CpuSide.MASTER), sideSeconds(r, CpuSide.GC),
            sideSeconds(r, CpuSide.JIT), sideSeconds(r, CpuSide.S3),
            sideSeconds(r, CpuSide.OTHER), r.mibPerSecond(),
            r.cpuMsPerMib(), r.p50Ms(), r.p99Ms(), r.maxMs(), r.verifiedBytes, r.decodes,
            r.hedges, r.removalWaitNanos / 1e9, stamp.commit());
      }
    }
  }

  /** A side's CPU seconds in a round, or "" when not measured by side. */
  private static Object sideSeconds(RoundResult r, CpuSide side) {
    return r.cpuNanosBySide.isEmpty() ? "" : r.cpuNanosBySide.getOrDefault(side, 0L) / 1e9;
  }

  private static String[] sideColumns() {
    List<String> columns = new ArrayList<>(List.of("op", "object size", "threads", "variant"));
    for (CpuSide side : CpuSide.values()) {
      columns.add(side.key());
    }
    return columns.toArray(new String[0]);
  }

  private static Map<String, Object> target(String text, long size, Integer threads,
      String bound, Spread value, String verdict) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("target", text);
    m.put("sizeBytes", size);
    m.put("threads", threads);
    m.put("bound", bound);
    m.put("measured", value == null ? null : value.toMap());
    m.put("verdict", verdict);
    return m;
  }

  private static String fmt(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%s", v);
  }
}
