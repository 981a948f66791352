package io.eccache.benchmarks.cli;

import alluxio.client.block.BlockWorkerInfo;
import alluxio.client.file.FileSystem;
import alluxio.client.file.FileSystemContext;
import alluxio.conf.InstancedConfiguration;
import alluxio.conf.PropertyKey;
import alluxio.conf.Source;
import alluxio.grpc.GrpcUtils;
import alluxio.grpc.WorkerNetAddress;
import alluxio.util.FormatUtils;
import io.eccache.benchmarks.datapath.DatapathBenchmark;
import io.eccache.benchmarks.datapath.DatapathReport;
import io.eccache.benchmarks.datapath.DatapathSettings;
import io.eccache.benchmarks.datapath.RoundResult;
import io.eccache.benchmarks.datapath.Variant;
import io.eccache.benchmarks.report.RunStamp;
import io.eccache.cli.ClusterOptions;
import io.eccache.cli.ExitCodes;
import io.eccache.common.ClientKeys;
import io.eccache.common.MasterKeys;
import io.eccache.common.ReadChoice;
import io.eccache.localcluster.ProcessCluster;
import io.eccache.localcluster.S3ProxyServer;
import io.eccache.testkit.EmbeddedCluster;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code eccache-bench datapath}: eccache's GET and PUT against the same bytes as k plain Alluxio
 * files pinned to k workers ("p10") and as one plain file, on one cluster (in this process, in
 * processes of its own, or a running one), for several object sizes and client thread counts;
 * ratios paired per round, beside issue 15's targets.
 */
@Command(name = "datapath", mixinStandardHelpOptions = true,
    description = "Measure eccache's GET and PUT against ten plain Alluxio files pinned to ten"
        + " workers (p10) and one plain file, on one in-process cluster of 12 workers (unshaped"
        + " loopback, short-circuit off; --processes: master and workers as processes of their"
        + " own; --master: a running cluster): MiB/s, CPU per MiB (the master's and workers'"
        + " included when they run here), p50/p99, and eccache's ratios to p10 paired per round."
        + " Defaults: RS(10,1), delta 1, sizes 64KiB,1MiB,8MiB,40MB,64MiB,256MiB, threads 1,16,"
        + " 5 rounds.")
final class DatapathCommand implements Callable<Integer> {
  @Option(names = "--sizes", split = ",", description = "Object sizes: bytes or with a unit; KiB,"
      + " MiB, GiB are powers of two, KB, MB, GB of ten (the paper's 40MB is 40,000,000 bytes).")
  List<String> sizes;

  @Option(names = "--threads", split = ",", description = "Client thread counts, each measured"
      + " on its own.")
  List<Integer> threads;

  @Option(names = "--operations", split = ",", description = "What to measure: GET, PUT or"
      + " both (default). GETs alone keep worker memory free of deleted PUT objects, which a long"
      + " --layout-cache-ttl (so a long retired grace) otherwise holds.")
  List<Variant.Operation> operations;

  @Option(names = "--stored-bytes-files", description = "Also PUT each object as the bytes"
      + " eccache stores, k + r plain files (r of them copies of data parts, nothing coded:"
      + " variant p10+1), and report eccache over it: what eccache's PUT costs beyond its"
      + " redundancy's bytes.")
  boolean storedBytesFiles;

  @Option(names = "--rounds", description = "Measured rounds per size and thread count; every"
      + " variant runs once per round, in a shuffled order (default 5).")
  Integer rounds;

  @Option(names = "--ops", description = "Operations per thread per variant and round (default:"
      + " enough to move 512 MiB, 4 to 64 operations in all, at least 2 per thread).")
  Integer ops;

  @Option(names = "--data-mib", description = "Cap on objects x size stored per variant and on"
      + " threads x size in flight, in MiB (default 1024: the data and the results live in the"
      + " launcher's 4 GiB heap).")
  Long dataMib;

  @Option(names = "--out", description = "Results directory: raw.csv, summary.md, summary.json,"
      + " throughput.png (default ${DEFAULT-VALUE}).")
  Path out = Paths.get("benchmarks", "results", "datapath");

  @Option(names = "--tiny", hidden = true, description = "For tests: sizes 64KiB,1MiB, threads"
      + " 1,2, one round, two objects, two operations per thread, workers' block heartbeat"
      + " 200ms (so the removal waits are short).")
  boolean tiny;

  @Option(names = "--read-choice", description = "Which k + delta splits eccache's GETs read:"
      + " ${COMPLETION-CANDIDATES} (alluxio.user.eccache.read.choice; default ${DEFAULT-VALUE},"
      + " the client's default).")
  ReadChoice readChoice = ReadChoice.ADAPTIVE;

  @Option(names = "--journal-flush-batch", description = "The master's"
      + " alluxio.master.journal.flush.batch.time, e.g. 5ms (docs/design.md recommends it for"
      + " PUT latency); default: Alluxio's own (100ms).")
  String journalFlushBatch;

  @Option(names = "--layout-cache-ttl", description = "The client's"
      + " alluxio.user.eccache.layout.cache.ttl (default ${DEFAULT-VALUE}); the retired grace is"
      + " twice it, at least 2s, so deleted PUT objects hold worker memory that long: give a long"
      + " TTL (e.g. 60s, GETs served from cached layouts, as p10's and plain's from statuses"
      + " fetched once) with small objects only, or with --operations GET.")
  String layoutCacheTtl = "1s";

  @Option(names = "--warmup", description = "Unmeasured warm-up of every variant per size and"
      + " thread count, before the rounds (default 3s; at least one step): time for the JIT to"
      + " compile each variant's code.")
  String warmup;

  @Option(names = "--settle-passes", description = "After the warm-ups, at most this many"
      + " unmeasured passes of every variant, until the JIT compilers take at most 2%% of a"
      + " pass's CPU (default 5; 0: none): compiling still going on would land on whichever"
      + " variant runs meanwhile.")
  Integer settlePasses;

  @Option(names = "--processes", description = "Run the master and each worker as a process of"
      + " its own (Alluxio's entry points, full JIT, 1 GiB heaps) instead of in this one: each"
      + " server process's CPU then counts to its side, but every JVM's GC and JIT threads to"
      + " the gc and jit columns (and the settling passes wait for every JVM's compilers).")
  boolean processes;

  @Mixin WorkloadOptions workload;

  /**
   * --master HOST[:PORT]: measure a running cluster instead (eccache's coordinator on its master,
   * at least k workers); the cluster's own settings apply, the CPU columns are this client's.
   */
  @Mixin ClusterOptions cluster;

  @Spec CommandSpec spec;

  private final PrintStream progress = System.err;

  /** The server processes' JVM options with --processes: room and the JIT's full tiers. */
  static final List<String> SERVER_JVM_OPTIONS = List.of("-Xmx1g", "-XX:MaxDirectMemorySize=2g");

  @Override
  public Integer call() throws Exception {
    DatapathSettings s = settings();
    long ttlMs = FormatUtils.parseTimeSize(layoutCacheTtl);
    long graceMs = Math.max(2000, 2 * ttlMs);
    String grace = graceMs + "ms";
    if (cluster.master == null) {
      // The grace, the sweep after it (a quarter of it at most) and a few worker heartbeats.
      s.removalTimeoutMs = graceMs + 30_000;
    }
    RunStamp stamp = RunStamp.capture(Paths.get("."), TypedCommand.of(spec, "datapath"));
    List<RoundResult> results;
    String summary;
    try (Target target = open(s, grace)) {
      DatapathBenchmark bench = new DatapathBenchmark(target.context, target.fs, target.workers,
          line -> progress.println("datapath: " + line));
      if (target.masterPid > 0) {
        bench.withServerProcesses(target.masterPid, target.workerPids);
      }
      if (target.s3Pid > 0) {
        bench.withUnderStoreProcess(target.s3Pid);
      }
      results = bench.run(s);
      // Written before the cluster closes: closing many workers' streams can take minutes.
      summary = DatapathReport.write(out, results, s, target.setup + ", read choice "
          + readChoice + ", layout cache TTL " + layoutCacheTtl + (cluster.master != null ? ""
          : " (retired grace " + grace + "), journal flush batch " + (journalFlushBatch == null
          ? "Alluxio's default" : journalFlushBatch)) + "; " + bench.settling(s),
          bench.ioThreads(), stamp);
    }
    System.out.println(summary);
    progress.printf("eccache-bench datapath: report written to %s%n", out.resolve("summary.md"));
    return ExitCodes.OK;
  }

  /** The cluster measured: its clients, the workers plain files go to, how it is described. */
  private static final class Target implements AutoCloseable {
    FileSystemContext context;
    FileSystem fs;
    final List<WorkerNetAddress> workers = new ArrayList<>();
    String setup;
    /** The server processes' ids when they are this machine's children, else -1 and none. */
    long masterPid = -1;
    final List<Long> workerPids = new ArrayList<>();
    /** The S3 server's process id when this command started it, else -1. */
    long s3Pid = -1;
    /** A cluster this command started, closed last. */
    AutoCloseable cluster;
    /** Whether {@link #fs} and {@link #context} are this command's (not the in-process cluster's). */
    boolean ownClient;

    /** Records the S3 server's process, when it is this machine's child, to count its CPU. */
    void countUnderStore(S3ProxyServer s3) {
      ProcessHandle handle = s3 == null ? null : s3.handle();
      s3Pid = handle == null ? -1 : handle.pid();
    }

    /** The workers the master lists, in host order (plain files are pinned by index). */
    void listWorkers() throws IOException {
      List<WorkerNetAddress> listed = new ArrayList<>();
      for (BlockWorkerInfo w : context.getCachedWorkers()) {
        listed.add(GrpcUtils.toProto(w.getNetAddress()));
      }
      listed.sort(Comparator.comparing(WorkerNetAddress::getHost)
          .thenComparingInt(WorkerNetAddress::getRpcPort));
      workers.addAll(listed);
    }

    @Override
    public void close() throws Exception {
      try (AutoCloseable last = cluster) {
        if (ownClient && fs != null) {
          fs.close(); // closes the context it was made with too (Alluxio's BaseFileSystem)
        } else if (ownClient && context != null) {
          context.close();
        }
      }
    }
  }

  /** Starts the cluster the options ask for, or connects to the running one. */
  private Target open(DatapathSettings s, String grace) throws Exception {
    Target target = new Target();
    // Nothing re-tunes, repairs or adds parities while the data path is measured; deleted PUT
    // objects stay readable only briefly, so they free worker memory soon; the client's layout
    // cache expires before a replaced version does; reads go over the network from the worker,
    // never to its files directly (also the default; said because the comparison depends on it).
    Map<PropertyKey, Object> properties = new LinkedHashMap<>();
    properties.put(MasterKeys.DEFAULT_K, s.k);
    properties.put(MasterKeys.DEFAULT_R, s.r);
    properties.put(MasterKeys.RETUNE_INTERVAL, "0");
    properties.put(MasterKeys.POPULARITY_PERIOD, "1h");
    properties.put(MasterKeys.RETIRED_GRACE, grace);
    properties.put(ClientKeys.LAYOUT_CACHE_TTL, layoutCacheTtl);
    properties.put(PropertyKey.USER_SHORT_CIRCUIT_ENABLED, false);
    properties.put(ClientKeys.READ_CHOICE, readChoice);
    if (tiny) {
      // Workers learn of deleted blocks at their next block heartbeat (1 s by default).
      properties.put(PropertyKey.WORKER_BLOCK_HEARTBEAT_INTERVAL_MS, "200ms");
    }
    if (journalFlushBatch != null) {
      properties.put(PropertyKey.MASTER_JOURNAL_FLUSH_BATCH_TIME_MS, journalFlushBatch);
    }
    // -D and --conf: the running cluster's client with --master, else the cluster started here.
    Map<String, String> user = cluster.master != null ? Map.of() : cluster.overrides();
    Set<PropertyKey> own = new HashSet<>(properties.keySet());
    own.add(PropertyKey.MASTER_JOURNAL_FLUSH_BATCH_TIME_MS); // --journal-flush-batch's
    EmbeddedCluster.checkUserProperties(user, own);
    try {
      if (cluster.master != null) {
        InstancedConfiguration conf = new InstancedConfiguration(
            cluster.configuration().copyProperties());
        for (PropertyKey client : List.of(ClientKeys.LAYOUT_CACHE_TTL,
            PropertyKey.USER_SHORT_CIRCUIT_ENABLED, ClientKeys.READ_CHOICE)) {
          conf.set(client, properties.get(client), Source.RUNTIME);
        }
        progress.printf("eccache-bench datapath: connecting to %s...%n", cluster.master);
        target.ownClient = true;
        target.context = FileSystemContext.create(conf);
        target.fs = FileSystem.Factory.create(target.context);
        target.listWorkers();
        target.setup = "the running cluster at " + cluster.master + " (" + target.workers.size()
            + " workers; CPU columns: this client process only)";
      } else if (processes) {
        progress.printf("eccache-bench datapath: starting a master and %d workers as processes"
            + " (RS(%d,%d), delta %d)...%n", s.workers, s.k, s.r, s.delta);
        ProcessCluster.Builder builder = ProcessCluster.builder().workers(s.workers)
            .workerMemoryBytes(s.workerMemoryBytes).serverJvmOptions(SERVER_JVM_OPTIONS);
        properties.forEach((key, value) -> builder.property(key.getName(), value));
        user.forEach(builder::property);
        ProcessCluster started = builder.start();
        target.cluster = started;
        target.ownClient = true;
        target.context = FileSystemContext.create(started.clientConfiguration());
        target.fs = FileSystem.Factory.create(target.context);
        target.listWorkers();
        target.masterPid = started.masterPid();
        target.countUnderStore(started.s3());
        for (int i = 0; i < started.workerCount(); i++) {
          target.workerPids.add(started.workerPid(i));
        }
        target.setup = "a master and " + s.workers + " workers as processes of their own ("
            + String.join(" ", SERVER_JVM_OPTIONS) + ") on 127.0.0.2-" + (s.workers + 1)
            + ", unshaped loopback, short-circuit off";
      } else {
        progress.printf("eccache-bench datapath: starting %d workers (RS(%d,%d), delta %d)...%n",
            s.workers, s.k, s.r, s.delta);
        EmbeddedCluster.Builder builder = EmbeddedCluster.builder().workers(s.workers)
            .workerMemoryBytes(s.workerMemoryBytes);
        properties.forEach(builder::property);
        EmbeddedCluster started = builder.userProperties(user).start();
        target.cluster = started;
        target.context = started.fileSystemContext();
        target.fs = started.fileSystem();
        target.countUnderStore(started.s3());
        for (int i = 0; i < started.workerCount(); i++) {
          target.workers.add(GrpcUtils.toProto(started.workerAddress(i)));
        }
        target.setup = "in-process, " + s.workers + " workers on 127.0.0.2-" + (s.workers + 1)
            + ", unshaped loopback, short-circuit off";
      }
      if (!user.isEmpty()) {
        target.setup += "; set with -D/--conf: " + user;
      }
      return target;
    } catch (Exception e) {
      target.close();
      throw e;
    }
  }

  /** The settings the options describe, checked before anything starts. */
  DatapathSettings settings() {
    workload.check();
    Map<String, Object> given = workload.given();
    for (String knob : List.of("--zipf", "--object-mib", "--requests", "--learning", "--clients",
        "--worker-mbit", "--budget")) {
      if (given.containsKey(knob)) {
        throw new IllegalArgumentException(knob + " does not apply to datapath (no popularity,"
            + " no shaping, no budget): use --sizes, --threads, --rounds and --ops");
      }
    }
    if (cluster.master != null) {
      if (processes) {
        throw new IllegalArgumentException("--processes starts a cluster, --master measures a"
            + " running one: give one of them");
      }
      String knob = given.containsKey("--workers") ? "--workers"
          : journalFlushBatch != null ? "--journal-flush-batch" : null;
      if (knob != null) {
        throw new IllegalArgumentException(knob + " does not apply with --master: the running"
            + " cluster's own workers and master settings are measured");
      }
    }
    try {
      if (FormatUtils.parseTimeSize(layoutCacheTtl) < 0) {
        throw new IllegalArgumentException("negative");
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--layout-cache-ttl " + layoutCacheTtl + " is not a"
          + " duration: give e.g. 1s, 500ms or 60s");
    }
    DatapathSettings s = new DatapathSettings();
    if (tiny) {
      s.sizes = new ArrayList<>(List.of(64L << 10, DatapathSettings.MIB));
      s.threads = new ArrayList<>(List.of(1, 2));
      s.rounds = 1;
      s.fixedObjects = 2;
      s.fixedOps = 2;
      s.warmupMs = 0;
      s.maxSettlePasses = 0;
      s.workerMemoryBytes = 256L << 20;
    }
    if (warmup != null) {
      try {
        s.warmupMs = FormatUtils.parseTimeSize(warmup);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--warmup " + warmup + " is not a duration: give e.g."
            + " 3s, 500ms or 0");
      }
    }
    if (sizes != null) {
      s.sizes = new ArrayList<>();
      for (String size : sizes) {
        s.sizes.add(DatapathSettings.parseSize(size));
      }
    }
    if (threads != null) {
      s.threads = new ArrayList<>(threads);
    }
    if (operations != null) {
      s.operations = operations.isEmpty() ? EnumSet.noneOf(Variant.Operation.class)
          : EnumSet.copyOf(operations);
    }
    if (settlePasses != null) {
      if (settlePasses < 0) {
        throw new IllegalArgumentException("--settle-passes must not be negative, got "
            + settlePasses);
      }
      s.maxSettlePasses = settlePasses;
    }
    s.rounds = WorkloadOptions.or(rounds, s.rounds);
    s.fixedOps = WorkloadOptions.or(ops, s.fixedOps);
    s.fixedObjects = WorkloadOptions.or(workload.objects, s.fixedObjects);
    if (dataMib != null) {
      if (dataMib < 1) {
        throw new IllegalArgumentException("--data-mib must be at least 1, got " + dataMib);
      }
      s.dataCapBytes = dataMib * DatapathSettings.MIB;
    }
    s.workers = WorkloadOptions.or(workload.workers, s.workers);
    s.k = WorkloadOptions.or(workload.k, s.k);
    s.r = WorkloadOptions.or(workload.r, s.r);
    s.delta = WorkloadOptions.or(workload.delta, s.delta);
    s.seed = WorkloadOptions.or(workload.seed, s.seed);
    s.storedBytesFiles = storedBytesFiles;
    s.cluster = cluster.master != null ? DatapathSettings.ClusterKind.RUNNING
        : processes ? DatapathSettings.ClusterKind.PROCESSES
        : DatapathSettings.ClusterKind.IN_PROCESS;
    s.check();
    return s;
  }
}
