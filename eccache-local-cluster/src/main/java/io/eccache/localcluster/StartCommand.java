package io.eccache.localcluster;

import alluxio.conf.PropertyKey;
import alluxio.util.FormatUtils;
import io.eccache.common.EcCacheKeys;
import io.eccache.common.MasterKeys;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.channels.FileLock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code eccache cluster start}: starts the local cluster's processes detached from this command
 * and returns once the master answers and every worker registered. A directory's second start
 * while it runs changes nothing.
 */
@Command(name = "start", mixinStandardHelpOptions = true,
    description = {"Start the local cluster: S3 (s3proxy) on 127.0.0.1, an Alluxio master with the "
        + "coordinator plugin on 127.0.0.1 and N workers on 127.0.0.2, .3, ..., as processes that "
        + "outlive this command and the terminal. Returns once every worker registered.",
        "A directory that held a cluster before is restarted on its journal, S3 data and worker "
        + "tiers, with the options it was last started with unless given again. Starting a "
        + "running cluster says so and changes nothing."})
final class StartCommand implements Callable<Integer> {
  static final int DEFAULT_WORKERS = 6;
  static final String DEFAULT_WORKER_MEMORY = "512MB";
  static final int MIN_WORKERS = 2;
  /** Workers go on 127.0.0.2 up to 127.0.0.254. */
  static final int MAX_WORKERS = 253;
  private static final long MIN_WORKER_MEMORY = 16L << 20;

  @Mixin
  LocalClusterCommand.DirOption dir;

  @Option(names = "--workers", paramLabel = "N",
      description = "Number of workers (default " + DEFAULT_WORKERS + ", or what the directory's "
          + "last start used). The default code is RS(k,1) with k = N - 2, at most 10: RS(4,1) on "
          + "6 workers.")
  Integer workers;

  @Option(names = "--worker-memory", paramLabel = "SIZE",
      description = "Cache tier of each worker, e.g. 512MB or 2GB (default " + DEFAULT_WORKER_MEMORY
          + ", or what the last start used). Its files live in DIR/worker-N.")
  String workerMemory;

  @Option(names = "-D", paramLabel = "KEY=VALUE",
      description = "An Alluxio or eccache property for every process and alluxio-site.properties "
          + "(repeatable; kept for later starts), e.g. -D alluxio.master.eccache.default.k=6.")
  Map<String, String> properties = new LinkedHashMap<>();

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    // Bad input is refused before anything is created or started.
    if (workers != null && (workers < MIN_WORKERS || workers > MAX_WORKERS)) {
      throw new ClusterException(LocalClusterCommand.USAGE, "--workers " + workers
          + ": between " + MIN_WORKERS + " (the smallest code, RS(1,1), and a small object's two "
          + "copies need two) and " + MAX_WORKERS + " (worker i runs on 127.0.0.(i+2))");
    }
    if (workerMemory != null) {
      parseMemory(workerMemory);
    }
    EcCacheKeys.registerAll(); // so eccache's keys are known to PropertyKey.isValid
    for (String key : properties.keySet()) {
      if (!PropertyKey.isValid(key)) {
        throw new ClusterException(LocalClusterCommand.USAGE, "-D " + key
            + ": not an Alluxio or eccache property (see docs/configuration.md)");
      }
    }
    ClusterDirectory d = dir.directory();
    d.checkUsable();
    d.create();
    FileLock lock = d.lock("start");
    try {
      ClusterStatus status = ClusterStatus.probe(d);
      if (status.running()) {
        out.println("already running: nothing started");
        status.print(out);
        return LocalClusterCommand.OK;
      }
      if (status.anyAlive()) {
        throw new ClusterException(LocalClusterCommand.FAILED, "the cluster in " + d.path()
            + " is partly running (" + status.alive().size() + " of " + status.processes().size()
            + " processes alive; see eccache cluster status --dir " + d.path() + "): stop it with "
            + "eccache cluster stop --dir " + d.path() + ", then start it");
      }
      return start(d, status.state(), out);
    } finally {
      ClusterDirectory.release(lock);
    }
  }

  private int start(ClusterDirectory d, Optional<ClusterState> previous, PrintWriter out)
      throws Exception {
    Properties saved = d.options();
    int n = workers != null ? workers
        : Integer.parseInt(saved.getProperty("workers", String.valueOf(DEFAULT_WORKERS)));
    String memory = workerMemory != null ? workerMemory
        : saved.getProperty("worker.memory", DEFAULT_WORKER_MEMORY);
    long memoryBytes = parseMemory(memory);
    Map<String, String> props = new LinkedHashMap<>();
    // The default code fits the workers, with one to spare so an object stays whole after a loss.
    props.put(MasterKeys.DEFAULT_K.getName(), String.valueOf(Math.max(1, Math.min(10, n - 2))));
    props.put(MasterKeys.DEFAULT_R.getName(), "1");
    for (String key : saved.stringPropertyNames()) {
      if (key.startsWith("property.")) {
        props.put(key.substring("property.".length()), saved.getProperty(key));
      }
    }
    props.putAll(properties);
    Properties options = new Properties();
    options.setProperty("workers", String.valueOf(n));
    options.setProperty("worker.memory", memory);
    for (Map.Entry<String, String> e : props.entrySet()) {
      if (saved.containsKey("property." + e.getKey()) || properties.containsKey(e.getKey())) {
        options.setProperty("property." + e.getKey(), e.getValue());
      }
    }

    ProcessCluster.Builder builder = ProcessCluster.builder().directory(d.path()).detached(true)
        .workers(n).workerMemoryBytes(memoryBytes).workerTimeout("10s")
        .masterPort(reusablePort(previous, "master.port", out, "the master's RPC port"))
        .masterWebPort(reusablePort(previous, "master.web.port", out, "the master's web port"))
        .s3Port(reusablePort(previous, "s3.port", out, "the S3 server's port"));
    props.forEach(builder::property);
    if (!Detached.hasSetsid()) {
      out.println("note: setsid (util-linux) is not installed: the cluster shares this terminal's "
          + "session and may stop when it closes");
    }
    out.printf("%s S3, the master and %d workers in %s (logs in %s) ...%n",
        previous.isPresent() ? "restarting" : "starting", n, d.path(), d.logsDir());
    out.flush();
    ProcessCluster cluster;
    try {
      cluster = builder.start();
    } catch (TimeoutException | IOException e) {
      throw new ClusterException(LocalClusterCommand.FAILED, "the cluster did not start, and "
          + "what had started was stopped (data kept in " + d.path() + "): " + e.getMessage(), e);
    }
    // Kept only once they worked: a bad -D does not come back at the next start.
    d.writeOptions(options);
    Map<String, String> site = cluster.siteProperties();
    out.printf("eccache cluster running in %s%n", d.path());
    out.printf("  master   127.0.0.1:%d (web http://127.0.0.1:%s)%n", cluster.masterPort(),
        site.get("alluxio.master.web.port"));
    out.printf("  workers  %d on 127.0.0.2 to %s, %s each%n", n, cluster.workerHost(n - 1),
        memory);
    out.printf("  S3       %s, bucket %s, data in %s%n", cluster.s3().endpoint(),
        ProcessCluster.BUCKET, cluster.s3().dataDir());
    out.printf("  default code RS(%s,%s); a plain put is CACHE_ONLY: -w THROUGH also writes S3%n",
        site.get(MasterKeys.DEFAULT_K.getName()), site.get(MasterKeys.DEFAULT_R.getName()));
    out.printf("  stop it: eccache cluster stop --dir %s%n", d.path());
    out.println("Point the eccache command and alluxio fs at it:");
    out.printf("export ALLUXIO_CONF_DIR=%s%n", cluster.confDirectory());
    return LocalClusterCommand.OK;
  }

  /** The port the last start used, when it is free again (clients keep their address), else 0. */
  private static int reusablePort(Optional<ClusterState> previous, String key, PrintWriter out,
      String what) {
    long port = previous.map(s -> s.getLong(key, 0)).orElse(0L);
    if (port <= 0 || port > 65535) {
      return 0;
    }
    try (ServerSocket s = new ServerSocket((int) port, 1, InetAddress.getLoopbackAddress())) {
      return (int) port;
    } catch (IOException taken) {
      out.printf("note: %s %d is taken now: using another (alluxio-site.properties follows)%n",
          what, port);
      return 0;
    }
  }

  private static long parseMemory(String text) throws ClusterException {
    long bytes;
    try {
      bytes = FormatUtils.parseSpaceSize(text);
    } catch (IllegalArgumentException e) {
      throw new ClusterException(LocalClusterCommand.USAGE, "--worker-memory " + text
          + ": not a size (e.g. 512MB, 2GB)");
    }
    if (bytes < MIN_WORKER_MEMORY) {
      throw new ClusterException(LocalClusterCommand.USAGE, "--worker-memory " + text
          + ": at least 16MB");
    }
    return bytes;
  }
}
