package io.eccache.benchmarks.cluster;

import io.eccache.benchmarks.ComparedScheme;
import alluxio.conf.AlluxioConfiguration;
import alluxio.conf.Configuration;
import alluxio.conf.PropertyKey;
import io.eccache.client.EcCacheClient;
import io.eccache.client.ReadStatistics;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.HdrHistogram.Histogram;

/**
 * The measured phase's readers in JVMs of their own ({@link BenchSettings#clientProcesses}), as the
 * paper's clients ran on machines of their own: no client shares the benchmark's heap, thread pools
 * or Alluxio contexts. Each process gets every P-th request of the sequence, runs the same closed
 * loop, and hands back latencies (HdrHistogram), bytes per worker and split-read counts through a
 * properties file, which the benchmark merges.
 */
final class ReaderProcess {
  private static final long TIMEOUT_MINUTES = 30;

  private ReaderProcess() {}

  /**
   * Runs the measured phase of {@code schemes} in {@code s.clientProcesses} JVMs and merges into
   * {@code outcome}.
   */
  static void readMeasured(AlluxioConfiguration conf, String run, int[] sequence, BenchSettings s,
      ClusterBenchmark.Outcome outcome, java.util.Collection<ComparedScheme> schemes,
      Consumer<String> progress) throws Exception {
    int processes = s.clientProcesses;
    Path dir = Files.createTempDirectory("eccache-readers");
    List<Process> started = new ArrayList<>();
    try {
      for (int p = 0; p < processes; p++) {
        Properties spec = new Properties();
        spec.setProperty("run", run);
        spec.setProperty("schemes", schemes.stream().map(ComparedScheme::label)
            .collect(java.util.stream.Collectors.joining(",")));
        spec.setProperty("sequence", join(sequence));
        spec.setProperty("positions", join(positionsOf(p, processes, sequence.length)));
        spec.setProperty("clients", String.valueOf(Math.max(1, s.clients / processes)));
        spec.setProperty("delta", String.valueOf(s.delta));
        spec.setProperty("objectBytes", String.valueOf(s.objectBytes));
        spec.setProperty("seed", String.valueOf(s.seed));
        Path in = dir.resolve("spec-" + p + ".properties");
        try (Writer w = Files.newBufferedWriter(in, StandardCharsets.UTF_8)) {
          spec.store(w, "eccache reader process " + p);
        }
        started.add(command(conf, in, dir.resolve("result-" + p + ".properties"))
            .redirectErrorStream(true).redirectOutput(dir.resolve("log-" + p + ".txt").toFile())
            .start());
      }
      progress.accept(String.format("GET (measured) in %d reader processes", processes));
      for (int p = 0; p < processes; p++) {
        Process process = started.get(p);
        if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES) || process.exitValue() != 0) {
          throw new IOException("reader process " + p + " failed (exit "
              + (process.isAlive() ? "none, timed out" : process.exitValue()) + "); its log:\n"
              + tail(dir.resolve("log-" + p + ".txt")));
        }
        merge(dir.resolve("result-" + p + ".properties"), outcome, schemes);
      }
    } finally {
      started.forEach(Process::destroyForcibly);
      try (var files = Files.list(dir)) {
        for (Path f : files.collect(Collectors.toList())) {
          Files.deleteIfExists(f);
        }
      }
      Files.deleteIfExists(dir);
    }
  }

  /** Every {@code processes}-th position starting at {@code p}. */
  static int[] positionsOf(int p, int processes, int length) {
    return IntStream.range(0, length).filter(i -> i % processes == p).toArray();
  }

  /**
   * This JVM's java with its module flags and smaller heap, its classpath, and the Alluxio client
   * properties that find and talk to the cluster.
   */
  private static ProcessBuilder command(AlluxioConfiguration conf, Path spec, Path result) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-") || arg.startsWith("-Dio.netty")
          || arg.startsWith("-XX:MaxDirectMemorySize")) {
        cmd.add(arg);
      }
    }
    cmd.add("-Xmx1g");
    for (PropertyKey key : conf.keySet()) {
      String name = key.getName();
      boolean client = name.startsWith("alluxio.user.") || name.startsWith("alluxio.security.")
          || name.startsWith("alluxio.eccache.") || key.equals(PropertyKey.MASTER_HOSTNAME)
          || key.equals(PropertyKey.MASTER_RPC_PORT);
      if (client && conf.isSetByUser(key)) {
        cmd.add("-D" + name + "=" + conf.get(key));
      }
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(ReaderProcess.class.getName());
    cmd.add(spec.toString());
    cmd.add(result.toString());
    return new ProcessBuilder(cmd);
  }

  /** A reader process: {@code <spec.properties> <result.properties>}. */
  public static void main(String[] args) {
    try {
      read(Path.of(args[0]), Path.of(args[1]));
    } catch (Throwable t) {
      t.printStackTrace();
      System.exit(1);
    }
    System.exit(0); // Alluxio's client leaves non-daemon threads behind
  }

  private static void read(Path specFile, Path resultFile) throws Exception {
    Properties spec = load(specFile);
    BenchSettings s = new BenchSettings();
    s.clients = Integer.parseInt(spec.getProperty("clients"));
    s.delta = Integer.parseInt(spec.getProperty("delta"));
    s.objectBytes = Long.parseLong(spec.getProperty("objectBytes"));
    s.seed = Long.parseLong(spec.getProperty("seed"));
    ClusterBenchmark.Outcome outcome = new ClusterBenchmark.Outcome(s);
    Map<ComparedScheme, EcCacheClient> clients = new LinkedHashMap<>();
    Properties result = new Properties();
    try {
      for (String label : spec.getProperty("schemes").split(",")) {
        ComparedScheme ns = ComparedScheme.ofLabel(label);
        outcome.schemes.put(ns, new ClusterBenchmark.SchemeResult(ns));
        clients.put(ns, EcCacheClient.create(Configuration.global()));
      }
      long[] before = ClusterBenchmark.readMetrics();
      ClusterBenchmark.readClosedLoop(clients, spec.getProperty("run"),
          ints(spec.getProperty("sequence")), ints(spec.getProperty("positions")), s, outcome,
          "measured", line -> { });
      long[] after = ClusterBenchmark.readMetrics();
      result.setProperty("splitsRead", String.valueOf(after[0] - before[0]));
      result.setProperty("readsStoppedEarly", String.valueOf(after[1] - before[1]));
      result.setProperty("readsFailed", String.valueOf(after[2] - before[2]));
      result.setProperty("readsDiscarded", String.valueOf(after[3] - before[3]));
      for (Map.Entry<ComparedScheme, EcCacheClient> e : clients.entrySet()) {
        String ns = e.getKey().label();
        ClusterBenchmark.SchemeResult r = outcome.schemes.get(e.getKey());
        ByteBuffer h = ByteBuffer.allocate(r.latencyMicros.getNeededByteBufferCapacity());
        r.latencyMicros.encodeIntoCompressedByteBuffer(h);
        result.setProperty(ns + ".latency", Base64.getEncoder().encodeToString(
            Arrays.copyOf(h.array(), h.position())));
        result.setProperty(ns + ".useful", String.valueOf(r.usefulBytes));
        ReadStatistics st = e.getValue().readStatistics();
        result.setProperty(ns + ".decodes", String.valueOf(st.decodes()));
        result.setProperty(ns + ".decodeNanos", String.valueOf(st.decodeNanos()));
        result.setProperty(ns + ".fallbacks", String.valueOf(st.fallbacks()));
        result.setProperty(ns + ".fallbackBytes", String.valueOf(st.fallbackBytes()));
        st.bytesByWorker().forEach((host, n) ->
            result.setProperty(ns + ".bytes." + host, String.valueOf(n)));
        st.unreadBytesByWorker().forEach((host, n) ->
            result.setProperty(ns + ".unread." + host, String.valueOf(n)));
      }
    } finally {
      clients.values().forEach(EcCacheClient::close);
    }
    try (Writer w = Files.newBufferedWriter(resultFile, StandardCharsets.UTF_8)) {
      result.store(w, "eccache reader process result");
    }
  }

  private static void merge(Path file, ClusterBenchmark.Outcome outcome,
      java.util.Collection<ComparedScheme> schemes) throws Exception {
    Properties r = load(file);
    outcome.splitsRead += Long.parseLong(r.getProperty("splitsRead"));
    outcome.readsStoppedEarly += Long.parseLong(r.getProperty("readsStoppedEarly"));
    outcome.readsFailed += Long.parseLong(r.getProperty("readsFailed"));
    outcome.readsDiscarded += Long.parseLong(r.getProperty("readsDiscarded"));
    for (ComparedScheme scheme : schemes) {
      ClusterBenchmark.SchemeResult s = outcome.schemes.get(scheme);
      String ns = s.scheme.label();
      s.latencyMicros.add(Histogram.decodeFromCompressedByteBuffer(
          ByteBuffer.wrap(Base64.getDecoder().decode(r.getProperty(ns + ".latency"))), 0));
      s.usefulBytes += Long.parseLong(r.getProperty(ns + ".useful"));
      s.decodes += Long.parseLong(r.getProperty(ns + ".decodes"));
      s.decodeNanos += Long.parseLong(r.getProperty(ns + ".decodeNanos"));
      s.fallbacks += Long.parseLong(r.getProperty(ns + ".fallbacks"));
      s.fallbackBytes += Long.parseLong(r.getProperty(ns + ".fallbackBytes"));
      String prefix = ns + ".bytes.";
      String unread = ns + ".unread.";
      for (String name : r.stringPropertyNames()) {
        if (name.startsWith(prefix)) {
          s.bytesByWorker.merge(name.substring(prefix.length()), Long.parseLong(r.getProperty(name)),
              Long::sum);
        } else if (name.startsWith(unread)) {
          s.unreadByWorker.merge(name.substring(unread.length()),
              Long.parseLong(r.getProperty(name)), Long::sum);
        }
      }
    }
  }

  private static Properties load(Path file) throws IOException {
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(in);
    }
    return p;
  }

  private static String join(int[] values) {
    return Arrays.stream(values).mapToObj(String::valueOf).collect(Collectors.joining(","));
  }

  private static int[] ints(String text) {
    return text.isEmpty() ? new int[0]
        : Arrays.stream(text.split(",")).mapToInt(Integer::parseInt).toArray();
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }
}
