package io.eccache.localcluster;

import alluxio.ClientContext;
import alluxio.client.block.BlockMasterClient;
import alluxio.conf.AlluxioConfiguration;
import alluxio.conf.Configuration;
import alluxio.conf.InstancedConfiguration;
import alluxio.conf.PropertyKey;
import alluxio.conf.Source;
import alluxio.master.MasterClientContext;
import alluxio.wire.WorkerInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An Alluxio 2.9 cluster of real processes: the S3 server (s3proxy), one master
 * started from Alluxio's own {@code alluxio.master.AlluxioMaster} entry point with the coordinator
 * plugin found on its classpath by Alluxio's ServiceLoader, and N workers from
 * {@code alluxio.worker.AlluxioWorker}, worker i on its own loopback address 127.0.0.(i+2) with its
 * own memory tier. Each runs on this JVM's classpath with the options Alluxio needs on Java 17.
 *
 * <p>Any of them can be stopped politely (SIGTERM), killed (SIGKILL) and started again on the same
 * address and directories; the master's journal survives, so a restarted master keeps every
 * committed layout. Every wait is bounded and says what it waited for; each child logs to
 * {@code <dir>/logs/<name>.log} and a failure to start quotes the end of that log.
 *
 * <p>For crash tests (the default) the cluster lives in a fresh temporary directory: {@link #close()}
 * (and a shutdown hook, should the JVM exit without it) kills every child and removes the
 * directory. {@link Builder#directory(Path)} and {@link Builder#detached(boolean)} make it the local
 * cluster of {@code eccache cluster start}: a directory that is kept (the journal is formatted only
 * on the first start, S3's objects and the workers' tiers stay), children in sessions of their own
 * that outlive this JVM once started, and {@code <dir>/cluster.properties} ({@link ClusterState})
 * recording their pids and ports for a later stop or status.
 */
public final class ProcessCluster implements AutoCloseable {
  /** The bucket mounted at Alluxio's root. */
  public static final String BUCKET = "eccache";
  /** What Alluxio 2.9 (built for Java 8) needs to run on Java 17. */
  static final List<String> JAVA17_OPTIONS = List.of(
      "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
      "--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
      "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
      "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED", "-Dio.netty.tryReflectionSetAccessible=true");

  /**
   * The JVM options of the master and worker processes unless {@link Builder#serverJvmOptions}
   * says otherwise: small heaps, the serial collector and the C1 compiler only, so a test's
   * cluster starts fast and takes little memory (not for measuring speed).
   */
  public static final List<String> TEST_JVM_OPTIONS = List.of("-Xmx384m",
      "-XX:MaxDirectMemorySize=256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  private static final Logger LOG = LoggerFactory.getLogger(ProcessCluster.class);
  private static final long START_TIMEOUT_MS = 120_000;

  private final Builder config;
  private final Path dir;
  private final Path confDir;
  private final ServerJvm jvm;
  private final Map<String, String> site = new LinkedHashMap<>();
  private final List<Path> workerTiers = new ArrayList<>();
  private final Process[] workers;
  private final Thread reaper;
  private final ClusterState state = new ClusterState();
  private S3ProxyServer s3;
  private Process master;
  private int masterPort;

  /** Options for a cluster; {@link #start()} builds it. */
  public static final class Builder {
    private int workers = 3;
    private long workerMemoryBytes = 64L << 20;
    private String workerTimeout = "4s";
    private Path baseDir;
    private Path directory;
    private boolean detached;
    private int masterPort;
    private int masterWebPort;
    private int s3Port;
    private List<String> serverJvmOptions = TEST_JVM_OPTIONS;
    private final Map<String, String> extra = new LinkedHashMap<>();

    /** Number of workers (default 3). */
    public Builder workers(int n) {
      this.workers = n;
      return this;
    }

    /** Memory tier of each worker (default 64 MB). */
    public Builder workerMemoryBytes(long bytes) {
      this.workerMemoryBytes = bytes;
      return this;
    }

    /** How long the master waits for a silent worker's heartbeat before it is lost (default 4s). */
    public Builder workerTimeout(String duration) {
      this.workerTimeout = duration;
      return this;
    }

    /** Where the cluster's directory goes (default /dev/shm, else the temp directory). */
    public Builder baseDir(Path dir) {
      this.baseDir = dir;
      return this;
    }

    /**
     * Runs the cluster in this directory (created if missing) and keeps it: {@link #close()} does
     * not remove it, the journal is formatted only if it was never, S3's data and the workers'
     * tiers are reused, and {@code cluster.properties} records the processes and ports.
     */
    public Builder directory(Path dir) {
      this.directory = dir;
      return this;
    }

    /**
     * Children outlive this JVM once the cluster is up: each runs in a session of its own with no
     * shutdown hook reaping it (a start that fails still kills what it started).
     */
    public Builder detached(boolean detached) {
      this.detached = detached;
      return this;
    }

    /** The master's RPC port (default 0: a free one). */
    public Builder masterPort(int port) {
      this.masterPort = port;
      return this;
    }

    /** The master's web port (default 0: a free one). */
    public Builder masterWebPort(int port) {
      this.masterWebPort = port;
      return this;
    }

    /** The S3 server's port (default 0: a free one). */
    public Builder s3Port(int port) {
      this.s3Port = port;
      return this;
    }

    /**
     * The JVM options of the master and worker processes, in place of {@link #TEST_JVM_OPTIONS}
     * (e.g. a larger heap and the JIT's full tiers, for a benchmark).
     */
    public Builder serverJvmOptions(List<String> options) {
      this.serverJvmOptions = List.copyOf(options);
      return this;
    }

    /** One more property for every process and the client (Alluxio or eccache). */
    public Builder property(String key, Object value) {
      extra.put(key, String.valueOf(value));
      return this;
    }

    /**
     * Starts S3, formats the journal (unless a kept directory's journal already is), starts the
     * master and the workers; returns once every worker has registered. A failure kills what was
     * started.
     */
    public ProcessCluster start() throws IOException, TimeoutException {
      Path dir;
      if (directory != null) {
        dir = Files.createDirectories(directory.toAbsolutePath().normalize());
      } else {
        Path base = baseDir != null ? baseDir : defaultBaseDir();
        // A detached cluster outlives this JVM: its directory names no owner to outlive.
        dir = detached ? Files.createTempDirectory(base, "eccache-proc-")
            : ClusterDirectories.createOwned(base, "eccache-proc-");
      }
      ProcessCluster cluster = new ProcessCluster(this, dir);
      try {
        cluster.startAll();
        if (detached) {
          cluster.detach();
        }
        return cluster;
      } catch (IOException | TimeoutException | RuntimeException e) {
        cluster.close();
        throw e;
      }
    }
  }

  /** A builder with the crash tests' defaults (3 workers of 64 MB, a temporary directory). */
  public static Builder builder() {
    return new Builder();
  }

  /** Where temporary cluster directories go: /dev/shm when writable, else the temp directory. */
  public static Path defaultBaseDir() {
    Path shm = Paths.get("/dev/shm");
    return Files.isDirectory(shm) && Files.isWritable(shm) ? shm
        : Paths.get(System.getProperty("java.io.tmpdir"));
  }

  private ProcessCluster(Builder config, Path dir) {
    this.config = config;
    this.dir = dir;
    this.confDir = dir.resolve("conf");
    this.jvm = new ServerJvm(dir, confDir, config.detached);
    this.workers = new Process[config.workers];
    this.reaper = new Thread(this::killAll, "process-cluster-reaper");
    Runtime.getRuntime().addShutdownHook(reaper);
  }

  private void startAll() throws IOException, TimeoutException {
    Files.createDirectories(confDir);
    Files.createDirectories(dir.resolve("logs"));
    s3 = S3ProxyServer.start(dir.resolve("s3"), List.of(BUCKET), config.s3Port, config.detached);
    masterPort = config.masterPort != 0 ? config.masterPort : S3ProxyServer.freePort();
    configure();
    record("s3", s3.handle(), s3.endpoint());
    for (int i = 0; i < config.workers; i++) {
      workerTiers.add(Files.createDirectories(dir.resolve("worker-" + i)));
    }
    if (!journalFormatted()) {
      Process format = launch("format", "alluxio.cli.Format", List.of("master"));
      try {
        if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
          format.destroyForcibly();
          throw new IOException("formatting the journal failed" + logTail("format"));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while formatting the journal", e);
      }
    }
    startMaster();
    for (int i = 0; i < config.workers; i++) {
      startWorker(i);
    }
    awaitStartedWorkers();
    LOG.info("ProcessCluster up: master 127.0.0.1:{}, {} workers, s3 {}, in {}", masterPort,
        config.workers, s3.endpoint(), dir);
  }

  /** Whether the journal holds anything: a kept directory's master restarts on it unformatted. */
  private boolean journalFormatted() throws IOException {
    Path journal = dir.resolve("journal");
    if (!Files.isDirectory(journal)) {
      return false;
    }
    try (Stream<Path> entries = Files.list(journal)) {
      return entries.findAny().isPresent();
    }
  }

  /** In a kept directory, records the child in cluster.properties at once (a stop finds it). */
  private void record(String name, ProcessHandle handle, String address) throws IOException {
    if (config.directory == null) {
      return;
    }
    state.record(name, handle, address);
    state.set("directory", dir);
    state.set("master.port", masterPort);
    state.set("master.web.port", site.get("alluxio.master.web.port"));
    state.set("s3.port", s3.port());
    state.set("workers", config.workers);
    state.set("worker.memory.bytes", config.workerMemoryBytes);
    state.write(dir);
  }

  /** The site properties every process and the client share. */
  private void configure() throws IOException {
    site.put("alluxio.work.dir", dir.toString());
    site.put("alluxio.master.hostname", "127.0.0.1");
    site.put("alluxio.master.bind.host", "127.0.0.1");
    site.put("alluxio.master.web.bind.host", "127.0.0.1");
    site.put("alluxio.master.rpc.port", String.valueOf(masterPort));
    site.put("alluxio.master.web.port", String.valueOf(
        config.masterWebPort != 0 ? config.masterWebPort : S3ProxyServer.freePort()));
    site.put("alluxio.master.journal.type", "UFS");
    site.put("alluxio.master.journal.folder", dir.resolve("journal").toString());
    site.put("alluxio.master.metastore", "HEAP");
    site.put("alluxio.master.metastore.dir", dir.resolve("metastore").toString());
    site.put("alluxio.master.worker.timeout", config.workerTimeout);
    site.put("alluxio.master.lost.worker.detection.interval", "1s");
    site.put("alluxio.master.jvm.monitor.enabled", "false");
    site.put("alluxio.master.update.check.enabled", "false");
    site.put("alluxio.master.worker.connect.wait.time", "1s");
    site.put("alluxio.worker.jvm.monitor.enabled", "false");
    site.put("alluxio.master.rpc.executor.core.pool.size", "8");
    site.put("alluxio.master.rpc.executor.max.pool.size", "64");
    site.put("alluxio.worker.rpc.executor.core.pool.size", "4");
    site.put("alluxio.worker.rpc.executor.max.pool.size", "64");
    site.put("alluxio.worker.network.netty.worker.threads", "1");
    site.put("alluxio.master.mount.table.root.ufs", "s3://" + BUCKET + "/");
    site.put("alluxio.underfs.s3.endpoint", s3.endpoint());
    site.put("alluxio.underfs.s3.endpoint.region", "us-east-1");
    site.put("alluxio.underfs.s3.disable.dns.buckets", "true");
    site.put("alluxio.underfs.s3.inherit.acl", "false");
    site.put("alluxio.underfs.s3.secure.http.enabled", "false");
    site.put("s3a.accessKeyId", S3ProxyServer.IDENTITY);
    site.put("s3a.secretKey", S3ProxyServer.CREDENTIAL);
    site.put("alluxio.user.short.circuit.enabled", "false");
    site.put("alluxio.user.file.passive.cache.enabled", "false");
    site.put("alluxio.user.worker.list.refresh.interval", "1s");
    site.put("alluxio.user.streaming.reader.close.timeout", "0ms");
    site.put("alluxio.user.rpc.retry.max.sleep", "1s");
    site.put("alluxio.user.block.read.retry.max.duration", "10s");
    site.put("alluxio.worker.rpc.port", "0");
    site.put("alluxio.worker.web.port", "0");
    site.put("alluxio.worker.tieredstore.levels", "1");
    site.put("alluxio.worker.tieredstore.level0.alias", "MEM");
    site.put("alluxio.worker.tieredstore.level0.dirs.mediumtype", "MEM");
    site.put("alluxio.worker.ramdisk.size", String.valueOf(config.workerMemoryBytes));
    site.put("alluxio.worker.tieredstore.level0.dirs.quota",
        String.valueOf(config.workerMemoryBytes));
    site.putAll(config.extra);
    ServerJvm.writeConf(confDir, site);
  }

  /** Starts (or restarts) the master on its address and journal; returns when it answers. */
  public synchronized void startMaster() throws IOException, TimeoutException {
    if (master != null && master.isAlive()) {
      throw new IllegalStateException("the master is running");
    }
    master = launch("master", "alluxio.master.AlluxioMaster", List.of());
    record("master", master.toHandle(), "127.0.0.1:" + masterPort);
    Process started = master;
    try {
      await(() -> {
      if (!started.isAlive()) {
        throw new IOException("the master exited with status " + started.exitValue()
            + logTail("master"));
      }
        try (BlockMasterClient client = blockMasterClient()) {
          client.getWorkerInfoList();
          return true;
        } catch (IOException e) {
          return false;
        }
      }, START_TIMEOUT_MS, "the master to answer on 127.0.0.1:" + masterPort);
    } catch (TimeoutException e) {
      throw new TimeoutException(e.getMessage() + logTail("master"));
    }
  }

  /** Starts (or restarts) worker {@code i} on its address and tier directory. */
  public synchronized void startWorker(int i) throws IOException {
    if (workers[i] != null && workers[i].isAlive()) {
      throw new IllegalStateException("worker " + i + " is running");
    }
    String host = workerHost(i);
    workers[i] = launch("worker-" + i, "alluxio.worker.AlluxioWorker", List.of(),
        ServerJvm.workerOptions(host, workerTiers.get(i)));
    record("worker-" + i, workers[i].toHandle(), host);
  }

  /** Kills worker {@code i} with SIGKILL, as a crash; its blocks stay in its tier directory. */
  public void killWorker(int i) throws IOException {
    kill(workers[i], "worker " + i);
  }

  /**
   * Freezes worker {@code i} with SIGSTOP: a hung server, whose sockets stay open and accept while
   * nothing answers. {@link #thawWorker(int)} resumes it.
   */
  public void freezeWorker(int i) throws IOException {
    signal(workers[i], "STOP", "worker " + i);
  }

  /** Resumes worker {@code i} after {@link #freezeWorker(int)} (SIGCONT). */
  public void thawWorker(int i) throws IOException {
    signal(workers[i], "CONT", "worker " + i);
  }

  /**
   * Freezes the master with SIGSTOP: it keeps its connections and takes calls, and answers none.
   * {@link #thawMaster()} resumes it.
   */
  public void freezeMaster() throws IOException {
    signal(master, "STOP", "the master");
  }

  /** Resumes the master after {@link #freezeMaster()} (SIGCONT). */
  public void thawMaster() throws IOException {
    signal(master, "CONT", "the master");
  }

  private static void signal(Process p, String signal, String what) throws IOException {
    ServerJvm.signal(p, signal, what);
  }

  /** Stops worker {@code i} politely (SIGTERM), SIGKILL after 30 s. */
  public void stopWorker(int i) throws IOException {
    ServerJvm.stop(workers[i], "worker " + i);
  }

  /** Kills the master with SIGKILL. */
  public void killMaster() throws IOException {
    kill(master, "the master");
  }

  /** The master's process id, or -1 when it is not running. */
  public long masterPid() {
    return master != null && master.isAlive() ? master.pid() : -1;
  }

  /** Worker {@code i}'s process id, or -1 when it is not running. */
  public long workerPid(int i) {
    return workers[i] != null && workers[i].isAlive() ? workers[i].pid() : -1;
  }

  /** Whether worker {@code i}'s process is alive. */
  public boolean isWorkerAlive(int i) {
    return workers[i] != null && workers[i].isAlive();
  }

  /** The process ids of every child (s3proxy excluded), for checks that none survives. */
  public List<Long> pids() {
    List<Long> pids = new ArrayList<>();
    if (master != null) {
      pids.add(master.pid());
    }
    for (Process w : workers) {
      if (w != null) {
        pids.add(w.pid());
      }
    }
    return pids;
  }

  /**
   * Waits until every worker registered; fails at once, quoting its log, if a worker exits, and
   * on time-out names the workers missing and quotes their logs.
   */
  private void awaitStartedWorkers() throws IOException, TimeoutException {
    Set<String> registered = new HashSet<>();
    try {
      await(() -> {
        for (int i = 0; i < workers.length; i++) {
          if (!workers[i].isAlive()) {
            throw new IOException("worker " + i + " (" + workerHost(i) + ") exited with status "
                + workers[i].exitValue() + logTail("worker-" + i));
          }
        }
        try (BlockMasterClient client = blockMasterClient()) {
          registered.clear();
          for (WorkerInfo w : client.getWorkerInfoList()) {
            registered.add(w.getAddress().getHost());
          }
          return registered.size() == workers.length;
        } catch (IOException e) {
          return false;
        }
      }, START_TIMEOUT_MS, "the master to count " + workers.length + " live workers");
    } catch (TimeoutException e) {
      StringBuilder message = new StringBuilder(e.getMessage()).append("; registered: ")
          .append(registered);
      for (int i = 0; i < workers.length; i++) {
        if (!registered.contains(workerHost(i))) {
          message.append(logTail("worker-" + i));
        }
      }
      throw new TimeoutException(message.toString());
    }
  }

  /** Waits until the master counts exactly {@code n} live workers. */
  public void awaitLiveWorkers(int n, long timeoutMs) throws IOException, TimeoutException {
    // Each start takes a new port: until the master notices (worker timeout), a killed worker's
    // old entry still counts as live, and a client may be sent there. Wait until the master lists
    // n workers that all accept connections.
    await(() -> {
      try (BlockMasterClient client = blockMasterClient()) {
        List<WorkerInfo> listed = client.getWorkerInfoList();
        return listed.size() == n
            && listed.stream().allMatch(w -> ServerJvm.accepts(w.getAddress()));
      } catch (IOException e) {
        return false;
      }
    }, timeoutMs, "the master to count " + n + " live workers, none of them a killed one");
  }

  /**
   * A client configuration for this cluster (the global one plus the cluster's properties), with
   * Alluxio's client metrics reporting off: this cluster's master is killed and restarted, and the
   * last report of a client context closed after its master is gone retries for the RPC retry
   * duration under a JVM-wide lock (Alluxio's {@code MetricsHeartbeatContext}) that every new
   * {@code FileSystemContext} in the JVM waits for, stalling the next test's clients and workers.
   */
  public AlluxioConfiguration clientConfiguration() {
    return clientConfiguration(site);
  }

  /**
   * A client configuration for the cluster whose site properties are {@code site} (e.g. read from
   * its {@code conf/alluxio-site.properties}), with client metrics reporting off as above.
   */
  public static AlluxioConfiguration clientConfiguration(Map<String, String> site) {
    InstancedConfiguration conf = Configuration.copyGlobal();
    conf.merge(site, Source.RUNTIME);
    conf.set(PropertyKey.USER_METRICS_COLLECTION_ENABLED, false, Source.RUNTIME);
    return conf;
  }

  /**
   * The hosts of the workers the master of {@code site} counts as live; fails within seconds
   * (UnavailableException) when the master does not answer.
   */
  public static List<String> liveWorkerHosts(Map<String, String> site) throws IOException {
    try (BlockMasterClient client = blockMasterClient(clientConfiguration(site))) {
      List<String> hosts = new ArrayList<>();
      for (WorkerInfo w : client.getWorkerInfoList()) {
        hosts.add(w.getAddress().getHost());
      }
      Collections.sort(hosts);
      return hosts;
    }
  }

  /** worker {@code i}'s host. */
  public String workerHost(int i) {
    return "127.0.0." + (i + 2);
  }

  public int workerCount() {
    return workers.length;
  }

  /** The S3 server (to stop it and start it again). */
  public S3ProxyServer s3() {
    return s3;
  }

  /** The cluster's directory (configuration, journal, logs, tiers, S3 data). */
  public Path directory() {
    return dir;
  }

  /** The directory holding alluxio-site.properties, for ALLUXIO_CONF_DIR. */
  public Path confDirectory() {
    return confDir;
  }

  /** The master's RPC port on 127.0.0.1. */
  public int masterPort() {
    return masterPort;
  }

  /** The properties every process and the client share (alluxio-site.properties). */
  public Map<String, String> siteProperties() {
    return Collections.unmodifiableMap(site);
  }

  /** A client for polling: it gives up in seconds instead of retrying for minutes. */
  private BlockMasterClient blockMasterClient() {
    return blockMasterClient(clientConfiguration());
  }

  private static BlockMasterClient blockMasterClient(AlluxioConfiguration conf) {
    InstancedConfiguration probe = (InstancedConfiguration) conf;
    probe.set(alluxio.conf.PropertyKey.USER_RPC_RETRY_MAX_DURATION, "2s", Source.RUNTIME);
    return BlockMasterClient.Factory.create(MasterClientContext.newBuilder(
        ClientContext.create(probe)).build());
  }

  private Process launch(String name, String mainClass, List<String> args, String... jvmOptions)
      throws IOException {
    return jvm.launch(name, mainClass, args,
        name.equals("format") ? TEST_JVM_OPTIONS : config.serverJvmOptions, jvmOptions);
  }

  private static void kill(Process p, String what) throws IOException {
    ServerJvm.kill(p, what);
  }

  /** The last lines of a child's log, for an error message. */
  private String logTail(String name) {
    return jvm.logTail(name);
  }

  interface Check {
    boolean done() throws IOException;
  }

  private static void await(Check check, long timeoutMs, String what)
      throws IOException, TimeoutException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (!check.done()) {
      if (System.nanoTime() > deadline) {
        throw new TimeoutException("waited " + timeoutMs + " ms for " + what);
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for " + what, e);
      }
    }
  }

  private void killAll() {
    for (Process w : workers) {
      if (w != null) {
        w.destroyForcibly();
      }
    }
    if (master != null) {
      master.destroyForcibly();
    }
    if (s3 != null) {
      s3.close();
    }
  }

  /**
   * Once a detached cluster is up, its children no longer die with this JVM: the reaper goes.
   */
  private void detach() {
    try {
      Runtime.getRuntime().removeShutdownHook(reaper);
    } catch (IllegalStateException shuttingDown) {
      // the JVM is exiting: the reaper runs anyway, as if the start had been interrupted
    }
  }

  /**
   * Kills every process and removes the cluster's directory (a directory given to
   * {@link Builder#directory(Path)} is kept).
   */
  @Override
  public void close() {
    killAll();
    for (Process p : allProcesses()) {
      try {
        p.waitFor(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    try {
      Runtime.getRuntime().removeShutdownHook(reaper);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs anyway
    }
    if (config.directory != null) {
      return;
    }
    ClusterDirectories.deleteRecursively(dir);
  }

  private List<Process> allProcesses() {
    List<Process> all = new ArrayList<>();
    if (master != null) {
      all.add(master);
    }
    for (Process w : workers) {
      if (w != null) {
        all.add(w);
      }
    }
    return all;
  }
}
