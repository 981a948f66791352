package io.eccache.testkit;

import alluxio.cli.Format;
import alluxio.client.file.FileSystem;
import alluxio.client.file.FileSystemContext;
import alluxio.conf.Configuration;
import alluxio.conf.PropertyKey;
import alluxio.exception.status.UnavailableException;
import alluxio.master.AlluxioMasterProcess;
import alluxio.master.block.BlockMaster;
import alluxio.master.journal.JournalType;
import alluxio.network.TieredIdentityFactory;
import alluxio.wire.WorkerInfo;
import alluxio.wire.WorkerNetAddress;
import alluxio.worker.WorkerProcess;
import io.eccache.common.EcCacheKeys;
import io.eccache.coordinator.CoordinatorMaster;
import io.eccache.localcluster.ClusterDirectories;
import io.eccache.localcluster.ProcessCluster;
import io.eccache.localcluster.S3ProxyServer;
import io.eccache.localcluster.ServerJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An Alluxio 2.9 cluster in one JVM: a master (with every {@code MasterFactory} on the classpath, found
 * by Alluxio's own ServiceLoader, so eccache's coordinator when its jar is present) and N workers, each
 * on its own loopback address {@code 127.0.0.(i+2)} with its own tier directory and memory size, over a
 * real S3 API server (s3proxy, a child process) mounted as the root under store.
 *
 * <p>Alluxio's {@code Configuration} is a JVM-wide singleton, so only one cluster may run per JVM at a
 * time; workers are created one after another because each reads its address and store from the
 * global configuration when it is created and started. Use try-with-resources: {@link #close()} stops
 * every process, the s3proxy child and removes every directory, also after a failed start.
 */
public final class EmbeddedCluster implements AutoCloseable {
  /** The bucket mounted at Alluxio's root. */
  public static final String BUCKET = ProcessCluster.BUCKET;

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedCluster.class);
  private static final int READY_TIMEOUT_MS = 120_000;
  private static boolean running;

  private final Builder config;
  private final Path dir;
  private final List<WorkerSlot> workers = new ArrayList<>();
  private S3ProxyServer s3;
  private AlluxioMasterProcess master;
  private Thread masterThread;
  private FileSystemContext fsContext;
  private FileSystem fs;
  /** Every property this cluster set, by name: the site properties of worker JVMs. */
  private final Map<String, String> site = new LinkedHashMap<>();
  /** Starts the workers' JVMs when they run as processes of their own; null otherwise. */
  private ServerJvm jvm;

  /**
   * One worker's fixed identity and its current process, if running: a {@link WorkerProcess} in
   * this JVM, or a JVM of its own ({@code child}, at {@code childAddress} once registered).
   */
  private static final class WorkerSlot {
    final int index;
    final String host;
    final Path tierDir;
    WorkerProcess process;
    Thread thread;
    Process child;
    WorkerNetAddress childAddress;

    WorkerSlot(int index, String host, Path tierDir) {
      this.index = index;
      this.host = host;
      this.tierDir = tierDir;
    }

    synchronized boolean running() {
      return process != null || child != null;
    }

    synchronized int rpcPort() {
      return process != null ? process.getRpcAddress().getPort() : childAddress.getRpcPort();
    }
  }

  /** Options for a cluster; {@link #start()} builds it. */
  public static final class Builder {
    private int workers = 3;
    private long workerMemoryBytes = 256L << 20;
    private String workerTimeout = "10s";
    private Path baseDir;
    private boolean workerProcesses;
    private final Map<PropertyKey, Object> extra = new LinkedHashMap<>();

    /** Number of workers (default 3). */
    public Builder workers(int n) {
      if (n < 1 || n > 250) {
        throw new IllegalArgumentException("workers must be in 1..250, not " + n);
      }
      workers = n;
      return this;
    }

    /** Memory tier size of each worker (default 256 MiB). */
    public Builder workerMemoryBytes(long bytes) {
      workerMemoryBytes = bytes;
      return this;
    }

    /** How long until the master declares a silent worker lost (default 10s; Alluxio's is 5min). */
    public Builder workerTimeout(String duration) {
      workerTimeout = duration;
      return this;
    }

    /** Where the cluster's directories go (default: a new directory under /dev/shm or tmp). */
    public Builder baseDir(Path dir) {
      baseDir = dir;
      return this;
    }

    /**
     * Whether each worker runs as a JVM of its own (on the same address, tier and properties;
     * small heap, C1 only) rather than in this JVM, so that {@link #killWorker} can SIGKILL it as
     * a crash would. The master stays in this JVM (its coordinator's test hooks with it).
     */
    public Builder workerProcesses(boolean processes) {
      workerProcesses = processes;
      return this;
    }

    /** Any other Alluxio property, applied after the cluster's own settings. */
    public Builder property(PropertyKey key, Object value) {
      extra.put(key, value);
      return this;
    }

    /**
     * Properties a user gave by name (a command's -D options and --conf file), applied as
     * {@link #property} applies its own. Call it after the command's own {@link #property} calls:
     * a key one of them set (the command derives it from its options) is refused, as is a name
     * that is no Alluxio or eccache property.
     *
     * @throws IllegalArgumentException naming the key and what to do instead
     */
    public Builder userProperties(Map<String, String> properties) {
      checkUserProperties(properties, extra.keySet());
      properties.forEach((name, value) -> extra.put(PropertyKey.fromString(name), value));
      return this;
    }

    /**
     * What these options describe, as one string: equal for two builders that would start the same
     * cluster (properties by name and the string form of their values, in name order).
     */
    public String spec() {
      Map<String, String> properties = new TreeMap<>();
      extra.forEach((key, value) -> properties.put(key.getName(), String.valueOf(value)));
      return workers + (workerProcesses ? " worker processes" : " workers") + " of "
          + (workerMemoryBytes >> 20) + " MiB, worker timeout "
          + workerTimeout + (baseDir == null ? "" : ", in " + baseDir) + ", " + properties;
    }

    /** Starts s3proxy, the master and the workers; returns when every worker has registered. */
    public EmbeddedCluster start() throws IOException {
      return EmbeddedCluster.start(this);
    }
  }

  /**
   * Checks properties a user gave by name for a cluster a command starts: each must be an Alluxio
   * or eccache property, and none one of {@code own}, which the command sets itself.
   *
   * @throws IllegalArgumentException naming the first key refused and what to do instead
   */
  public static void checkUserProperties(Map<String, String> properties, Set<PropertyKey> own) {
    EcCacheKeys.registerAll(); // so eccache's names parse
    for (String name : properties.keySet()) {
      if (!PropertyKey.isValid(name)) {
        throw new IllegalArgumentException("-D " + name + ": not an Alluxio or eccache property"
            + " (check its spelling)");
      }
      if (own.contains(PropertyKey.fromString(name))) {
        throw new IllegalArgumentException("-D " + name + ": this command sets it itself, from"
            + " its options (see --help); set it there");
      }
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  private EmbeddedCluster(Builder config, Path dir) {
    this.config = config;
    this.dir = dir;
  }

  private static final java.util.logging.Logger GRPC_STREAM_ERRORS =
      java.util.logging.Logger.getLogger("io.grpc.netty.NettyServerHandler");

  private static EmbeddedCluster start(Builder config) throws IOException {
    synchronized (EmbeddedCluster.class) {
      if (running) {
        throw new IllegalStateException("an EmbeddedCluster is already running in this JVM (Alluxio's "
            + "Configuration is global): close it before starting another");
      }
      running = true;
    }
    // A worker whose block read the client cancels (late binding's extra reads) while it was
    // still writing gets gRPC's "Stream closed before write could take place" warning with a
    // stack trace, once per cancelled read; expected, so this JVM's workers keep it below warning
    // (docs/design.md says how a deployment's workers do). Held here: JUL keeps loggers weakly.
    GRPC_STREAM_ERRORS.setLevel(java.util.logging.Level.SEVERE);
    Path base = config.baseDir != null ? config.baseDir : defaultBase();
    EmbeddedCluster cluster = new EmbeddedCluster(config,
        ClusterDirectories.createOwned(base, "eccache-"));
    try {
      cluster.startAll();
      return cluster;
    } catch (IOException | RuntimeException | Error e) {
      cluster.close();
      throw e;
    }
  }

  static Path defaultBase() {
    return ProcessCluster.defaultBaseDir();
  }

  private void startAll() throws IOException {
    s3 = S3ProxyServer.start(dir.resolve("s3"), List.of(BUCKET));
    Configuration.reloadProperties();
    configureCluster();
    Format.format(Format.Mode.MASTER, Configuration.global());
    startMaster();
    if (config.workerProcesses) {
      ServerJvm.writeConf(dir.resolve("conf"), site);
      jvm = new ServerJvm(dir, dir.resolve("conf"), false);
    }
    for (int i = 0; i < config.workers; i++) {
      Path tier = Files.createDirectories(dir.resolve("worker-" + i));
      workers.add(new WorkerSlot(i, "127.0.0." + (i + 2), tier));
      startWorker(i);
    }
    awaitLiveWorkers(config.workers);
    LOG.info("EmbeddedCluster up: master {}:{}, {} workers, s3 {}", "127.0.0.1",
        Configuration.getInt(PropertyKey.MASTER_RPC_PORT), config.workers, s3.endpoint());
  }

  private void configureCluster() {
    set(PropertyKey.WORK_DIR, dir.toString());
    set(PropertyKey.LOGS_DIR, dir.resolve("logs").toString());
    set(PropertyKey.MASTER_HOSTNAME, "127.0.0.1");
    set(PropertyKey.MASTER_BIND_HOST, "127.0.0.1");
    set(PropertyKey.MASTER_WEB_BIND_HOST, "127.0.0.1");
    set(PropertyKey.MASTER_RPC_PORT, S3ProxyServer.freePort());
    set(PropertyKey.MASTER_WEB_PORT, S3ProxyServer.freePort());
    set(PropertyKey.MASTER_JOURNAL_TYPE, JournalType.UFS);
    set(PropertyKey.MASTER_JOURNAL_FOLDER, dir.resolve("journal").toString());
    set(PropertyKey.MASTER_METASTORE, "HEAP");
    set(PropertyKey.MASTER_METASTORE_DIR, dir.resolve("metastore").toString());
    set(PropertyKey.MASTER_WORKER_TIMEOUT_MS, config.workerTimeout);
    set(PropertyKey.MASTER_LOST_WORKER_DETECTION_INTERVAL, "1s");
    set(PropertyKey.MASTER_JVM_MONITOR_ENABLED, false);
    // No phone-home: it probes EC2 metadata and the internet, neither of which a test cluster has.
    set(PropertyKey.MASTER_UPDATE_CHECK_ENABLED, false);
    // Workers register within seconds here; 0 would make Alluxio warn on every client start.
    set(PropertyKey.MASTER_WORKER_CONNECT_WAIT_TIME, "1s");
    set(PropertyKey.WORKER_JVM_MONITOR_ENABLED, false);
    // Fewer threads per process: 15 workers in one JVM otherwise run thousands (DESIGN.md). The
    // master's pool queues without bound, so it never grows past its core size: 64, not 16, so a
    // few calls waiting on S3 (up to its 1 min request timeout) do not queue the workers' block
    // commits behind them (idle threads still time out).
    set(PropertyKey.MASTER_RPC_EXECUTOR_CORE_POOL_SIZE, 64);
    set(PropertyKey.MASTER_RPC_EXECUTOR_MAX_POOL_SIZE, 64);
    set(PropertyKey.WORKER_RPC_EXECUTOR_CORE_POOL_SIZE, 4);
    set(PropertyKey.WORKER_RPC_EXECUTOR_MAX_POOL_SIZE, 64);
    set(PropertyKey.WORKER_NETWORK_NETTY_WORKER_THREADS, 1);
    // The under store: s3proxy's bucket at the root.
    set(PropertyKey.MASTER_MOUNT_TABLE_ROOT_UFS, "s3://" + BUCKET + "/");
    set(PropertyKey.UNDERFS_S3_ENDPOINT, s3.endpoint());
    set(PropertyKey.UNDERFS_S3_ENDPOINT_REGION, "us-east-1");
    set(PropertyKey.UNDERFS_S3_DISABLE_DNS_BUCKETS, true);
    set(PropertyKey.UNDERFS_S3_INHERIT_ACL, false);
    set(PropertyKey.UNDERFS_S3_SECURE_HTTP_ENABLED, false);
    set(PropertyKey.S3A_ACCESS_KEY, S3ProxyServer.IDENTITY);
    set(PropertyKey.S3A_SECRET_KEY, S3ProxyServer.CREDENTIAL);
    // Clients read over the network from the worker that holds a block, never its files directly.
    // Users and groups from a fixed mapping (TestUsers), not the machine's accounts.
    set(PropertyKey.SECURITY_GROUP_MAPPING_CLASS, TestUsers.GROUP_MAPPING);
    set(PropertyKey.SECURITY_AUTHORIZATION_PERMISSION_SUPERGROUP, TestUsers.SUPERGROUP);
    TestUsers.forgetCachedGroupMapping();
    set(PropertyKey.USER_SHORT_CIRCUIT_ENABLED, false);
    set(PropertyKey.USER_FILE_PASSIVE_CACHE_ENABLED, false);
    set(PropertyKey.USER_WORKER_LIST_REFRESH_INTERVAL, "1s");
    set(PropertyKey.USER_STREAMING_READER_CLOSE_TIMEOUT, "0ms");
    set(PropertyKey.USER_RPC_RETRY_MAX_SLEEP_MS, "1s");
    // No client metrics reports: a context closed after its cluster's master stopped (a worker's,
    // a test's) sends a last report that retries the dead master for the RPC retry duration under
    // Alluxio's JVM-wide MetricsHeartbeatContext lock, stalling every context the next cluster in
    // this JVM opens (ProcessCluster's client configuration turns them off for the same reason).
    set(PropertyKey.USER_METRICS_COLLECTION_ENABLED, false);
    // A block whose only worker is gone fails in seconds, not after Alluxio's default 5 minutes.
    set(PropertyKey.USER_BLOCK_READ_RETRY_MAX_DURATION, "10s");
    // Workers: one memory tier each; ports picked by the OS.
    set(PropertyKey.WORKER_RPC_PORT, 0);
    set(PropertyKey.WORKER_WEB_PORT, 0);
    set(PropertyKey.WORKER_TIERED_STORE_LEVELS, 1);
    set(PropertyKey.WORKER_TIERED_STORE_LEVEL0_ALIAS, "MEM");
    set(PropertyKey.WORKER_TIERED_STORE_LEVEL0_DIRS_MEDIUMTYPE, "MEM");
    set(PropertyKey.WORKER_RAMDISK_SIZE, String.valueOf(config.workerMemoryBytes));
    set(PropertyKey.WORKER_TIERED_STORE_LEVEL0_DIRS_QUOTA, String.valueOf(config.workerMemoryBytes));
    config.extra.forEach(this::set);
  }

  private void set(PropertyKey key, Object value) {
    Configuration.set(key, value);
    site.put(key.getName(), String.valueOf(value));
  }

  private void startMaster() throws IOException {
    master = AlluxioMasterProcess.Factory.create();
    masterThread = runOnThread("eccache-master", master::start);
    if (!master.waitForReady(READY_TIMEOUT_MS)) {
      throw new IOException("Alluxio master not ready within " + READY_TIMEOUT_MS + " ms");
    }
  }

  /** Starts worker {@code i} (again, after {@link #stopWorker}); returns when it has registered. */
  public synchronized void startWorker(int i) throws IOException {
    WorkerSlot w = workers.get(i);
    if (w.running()) {
      throw new IllegalStateException("worker " + i + " (" + w.host + ") is already running");
    }
    if (jvm != null) {
      startWorkerProcess(w);
      return;
    }
    // Each worker reads its host and store from the global configuration at create/start: set them,
    // create, start, wait, and only then move on to the next worker.
    for (PropertyKey k : List.of(PropertyKey.WORKER_HOSTNAME, PropertyKey.WORKER_BIND_HOST,
        PropertyKey.WORKER_WEB_BIND_HOST, PropertyKey.WORKER_WEB_HOSTNAME)) {
      set(k, w.host);
    }
    set(PropertyKey.WORKER_TIERED_STORE_LEVEL0_DIRS_PATH, w.tierDir.toString());
    WorkerProcess process = WorkerProcess.Factory.create(
        TieredIdentityFactory.fromString("node=" + w.host, Configuration.global()));
    Thread thread = runOnThread("eccache-worker-" + i, process::start);
    synchronized (w) {
      w.process = process;
      w.thread = thread;
    }
    if (!process.waitForReady(READY_TIMEOUT_MS)) {
      throw new IOException("worker " + i + " (" + w.host + ") not ready within " + READY_TIMEOUT_MS
          + " ms");
    }
  }

  private void startWorkerProcess(WorkerSlot w) throws IOException {
    String name = "worker-" + w.index;
    Process child = jvm.launch(name, "alluxio.worker.AlluxioWorker", List.of(),
        ProcessCluster.TEST_JVM_OPTIONS, ServerJvm.workerOptions(w.host, w.tierDir));
    // Registered when the master lists this host on a port that accepts: a killed process's old
    // entry (its old port) stays listed until the master's worker timeout.
    WorkerNetAddress[] registered = new WorkerNetAddress[1];
    try {
      await(() -> {
        if (!child.isAlive()) {
          return true; // said below
        }
        try {
          for (WorkerInfo info : blockMaster().getWorkerInfoList()) {
            if (info.getAddress().getHost().equals(w.host) && ServerJvm.accepts(info.getAddress())) {
              registered[0] = info.getAddress();
              return true;
            }
          }
        } catch (UnavailableException e) {
          return false;
        }
        return false;
      }, READY_TIMEOUT_MS, "worker " + w.index + " (" + w.host + ", pid " + child.pid()
          + ") to register");
      if (!child.isAlive()) {
        throw new IOException("exited with status " + child.exitValue());
      }
    } catch (IOException e) {
      child.destroyForcibly();
      throw new IOException("worker " + w.index + " (" + w.host + "): " + e.getMessage()
          + jvm.logTail(name), e);
    }
    synchronized (w) {
      w.child = child;
      w.childAddress = registered[0];
    }
  }

  /** Whether the workers run as JVMs of their own ({@link Builder#workerProcesses}). */
  public boolean hasWorkerProcesses() {
    return jvm != null;
  }

  /**
   * Kills worker {@code i} with SIGKILL, as a crash: its sockets close at once, the master notices
   * after its worker timeout, its cached blocks stay in its tier directory for a restart. Needs
   * {@link Builder#workerProcesses}.
   */
  public void killWorker(int i) throws IOException {
    WorkerSlot w = workers.get(i);
    Process child;
    synchronized (w) {
      if (jvm == null) {
        throw new IllegalStateException("worker " + i + " runs in this JVM: start the cluster with"
            + " workerProcesses(true) to kill its workers");
      }
      child = w.child;
      w.child = null;
      w.childAddress = null;
    }
    ServerJvm.kill(child, "worker " + i);
  }

  /**
   * Freezes worker {@code i} with SIGSTOP (a hung or, in a duty cycle, a slow server: its sockets
   * stay open and nothing answers); {@link #thawWorker} resumes it. Needs
   * {@link Builder#workerProcesses}.
   */
  public void freezeWorker(int i) throws IOException {
    ServerJvm.signal(child(i), "STOP", "worker " + i);
  }

  /** Resumes worker {@code i} after {@link #freezeWorker} (SIGCONT). */
  public void thawWorker(int i) throws IOException {
    ServerJvm.signal(child(i), "CONT", "worker " + i);
  }

  private Process child(int i) {
    WorkerSlot w = workers.get(i);
    synchronized (w) {
      if (jvm == null) {
        throw new IllegalStateException("worker " + i + " runs in this JVM: start the cluster with"
            + " workerProcesses(true) to signal its workers");
      }
      return w.child;
    }
  }

  /** Stops worker {@code i} as a crash would look to clients; its cached blocks stay on disk. */
  public void stopWorker(int i) {
    WorkerSlot w = workers.get(i);
    WorkerProcess process;
    Thread thread;
    Process child;
    synchronized (w) {
      process = w.process;
      thread = w.thread;
      child = w.child;
      w.process = null;
      w.thread = null;
      w.child = null;
      w.childAddress = null;
    }
    if (child != null) {
      try {
        ServerJvm.stop(child, "worker " + i);
      } catch (IOException e) {
        LOG.warn("stopping worker {}: {}", i, e.toString());
      }
    }
    if (process != null) {
      stopProcess(process::stop, thread, "worker " + i);
    }
  }

  /**
   * Stops worker {@code i}, removes every block it cached, and starts it again: it registers
   * empty, so the master forgets its blocks.
   */
  public void restartWorkerEmpty(int i) throws IOException {
    stopWorker(i);
    WorkerSlot w = workers.get(i);
    deleteRecursively(w.tierDir);
    java.nio.file.Files.createDirectories(w.tierDir);
    startWorker(i);
  }

  /** Whether worker {@code i} is running. */
  public boolean isWorkerRunning(int i) {
    return workers.get(i).running();
  }

  /** Stops and restarts the master (the journal keeps the namespace); waits for running workers. */
  public synchronized void restartMaster() throws IOException {
    stopProcess(master::stop, masterThread, "master");
    startMaster();
    int live = (int) workers.stream().filter(WorkerSlot::running).count();
    awaitLiveWorkers(live);
  }

  /** Waits until the master counts exactly {@code n} live workers. */
  public void awaitLiveWorkers(int n) throws IOException {
    // Each start takes a new port: until the master notices (worker timeout), a stopped worker's
    // old entry still counts as live, and a client may be sent there. Wait until the master lists
    // exactly the running workers' addresses.
    await(() -> {
      Set<String> running = new HashSet<>();
      for (WorkerSlot w : workers) {
        if (w.running()) {
          running.add(w.host + ":" + w.rpcPort());
        }
      }
      Set<String> listed = new HashSet<>();
      try {
        for (WorkerInfo info : blockMaster().getWorkerInfoList()) {
          listed.add(info.getAddress().getHost() + ":" + info.getAddress().getRpcPort());
        }
      } catch (UnavailableException e) {
        return false; // the master is not serving yet
      }
      return listed.size() == n && running.containsAll(listed);
    }, READY_TIMEOUT_MS, "the master to count " + n + " live workers, none of them a stopped one");
  }


  /**
   * Alluxio's used bytes once they stop changing: past {@code retiredGraceMs} (replaced versions
   * swept), two reads 2 s apart agree (the workers' heartbeats have reported freed blocks).
   *
   * @throws IOException if they do not settle within 60 s past the grace
   */
  public long settledUsedBytes(long retiredGraceMs) throws IOException {
    long last = -1;
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(retiredGraceMs + 60_000);
    boolean first = true;
    while (System.nanoTime() < deadline) {
      try {
        Thread.sleep(first ? retiredGraceMs + 2000 : 2000);
        first = false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for Alluxio's used bytes to settle");
      }
      long used = blockMaster().getUsedBytes();
      if (used == last) {
        return used;
      }
      last = used;
    }
    throw new IOException("Alluxio's used bytes did not settle within 60 s past the grace (last "
        + last + "): the workers' heartbeats or the retired sweep are stuck; see the logs");
  }

  /** The master's BlockMaster, for checks of block locations and live workers. */
  public BlockMaster blockMaster() {
    return master.getMaster(BlockMaster.class);
  }

  /**
   * The eccache coordinator in the running master. Its test hooks ({@code clock()},
   * {@code retuner()}, {@code sweep()}) let a test advance time and run one re-tuning pass or sweep
   * in its own thread instead of sleeping until a heartbeat does.
   */
  public CoordinatorMaster coordinator() {
    return master.getMaster(CoordinatorMaster.class);
  }

  /**
   * Journal entries the master has written, summed over its masters (each journal's next
   * sequence number): what a benchmark divides by its operations. Alluxio 2.9.6's master process
   * keeps its journal system in a protected field without a getter, so it is read reflectively.
   */
  public long journalEntries() {
    try {
      java.lang.reflect.Field field =
          alluxio.master.MasterProcess.class.getDeclaredField("mJournalSystem");
      field.setAccessible(true);
      alluxio.master.journal.JournalSystem journal =
          (alluxio.master.journal.JournalSystem) field.get(master);
      return journal.getCurrentSequenceNumbers().values().stream().mapToLong(Long::longValue)
          .sum();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("this Alluxio's master process has no mJournalSystem", e);
    }
  }

  /** The running master process. */
  public AlluxioMasterProcess master() {
    return master;
  }

  /** A client of this cluster, shared; closed with the cluster. */
  public synchronized FileSystem fileSystem() {
    if (fs == null) {
      fsContext = FileSystemContext.create(Configuration.copyGlobal());
      fs = FileSystem.Factory.create(fsContext);
    }
    return fs;
  }

  /** The client context behind {@link #fileSystem()}. */
  public synchronized FileSystemContext fileSystemContext() {
    fileSystem();
    return fsContext;
  }

  /** Number of workers, running or stopped. */
  public int workerCount() {
    return workers.size();
  }

  /** Worker {@code i}'s loopback host, {@code 127.0.0.(i+2)}. */
  public String workerHost(int i) {
    return workers.get(i).host;
  }

  /** Worker {@code i}'s address as registered with the master, or null when it is stopped. */
  public WorkerNetAddress workerAddress(int i) {
    WorkerSlot w = workers.get(i);
    synchronized (w) {
      if (w.childAddress != null) {
        return w.childAddress;
      }
    }
    if (w.process == null) {
      return null;
    }
    // getAddress() reads the host from the global configuration, which names the last worker
    // started: take its ports, but our own record of the host.
    WorkerNetAddress a = w.process.getAddress();
    return new WorkerNetAddress().setHost(w.host).setContainerHost(w.host)
        .setRpcPort(a.getRpcPort()).setDataPort(a.getDataPort()).setWebPort(a.getWebPort())
        .setTieredIdentity(a.getTieredIdentity());
  }

  /** Index of the worker on {@code host}, or -1. */
  public int workerIndex(String host) {
    for (WorkerSlot w : workers) {
      if (w.host.equals(host)) {
        return w.index;
      }
    }
    return -1;
  }

  /** The S3 API server behind the root mount. */
  public S3ProxyServer s3() {
    return s3;
  }

  /**
   * The file s3proxy keeps object {@code name} of the cluster's bucket in: for tests that look at
   * what S3 itself holds, or write there as another tool would.
   */
  public Path s3File(String name) {
    return s3.dataDir().resolve(BUCKET).resolve(name);
  }

  /** Where this cluster keeps everything (removed on close). */
  public Path directory() {
    return dir;
  }

  @Override
  public synchronized void close() {
    try {
      if (fs != null) {
        closeQuietly(fs);
        closeQuietly(fsContext);
      }
      // Workers all at once (each takes a few seconds to wind down its servers), then the master:
      // stopped first, it would leave every worker logging failed heartbeats; stopped last and
      // quickly, it has no time to declare them lost.
      List<Thread> stoppers = new ArrayList<>();
      for (int i = 0; i < workers.size(); i++) {
        final int index = i;
        stoppers.add(runOnThread("eccache-stop-worker-" + i, () -> stopWorker(index)));
      }
      for (Thread t : stoppers) {
        try {
          t.join(60_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      if (master != null) {
        stopProcess(master::stop, masterThread, "master");
        master = null;
      }
      if (s3 != null) {
        s3.close();
      }
      Configuration.reloadProperties();
      deleteRecursively(dir);
    } finally {
      synchronized (EmbeddedCluster.class) {
        running = false;
      }
    }
  }

  private interface Action {
    void run() throws Exception;
  }

  private static Thread runOnThread(String name, Action start) {
    Thread t = new Thread(() -> {
      try {
        start.run();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception e) {
        LOG.error("{} failed", name, e);
      }
    }, name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  private static void stopProcess(Action stop, Thread thread, String what) {
    try {
      stop.run();
    } catch (Exception e) {
      LOG.warn("stopping {}: {}", what, e.toString());
    }
    try {
      for (int i = 0; thread != null && thread.isAlive() && i < 30; i++) {
        thread.interrupt();
        thread.join(1000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void await(BooleanSupplier condition, long timeoutMs, String what)
      throws IOException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (true) {
      try {
        if (condition.getAsBoolean()) {
          return;
        }
      } catch (RuntimeException notYet) {
        // e.g. the master is still in safe mode
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IOException(new TimeoutException("timed out after " + timeoutMs + " ms waiting for "
            + what));
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted waiting for " + what, e);
      }
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      LOG.debug("close: {}", e.toString());
    }
  }

  static void deleteRecursively(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      List<Path> all = new ArrayList<>();
      paths.forEach(all::add);
      all.sort(Comparator.reverseOrder());
      for (Path p : all) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      LOG.warn("could not remove {}: {}", root, e.toString());
    }
  }
}
