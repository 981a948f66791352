package io.eccache.testkit;

import alluxio.conf.Configuration;
import alluxio.conf.PropertyKey;
import java.io.IOException;
import java.io.InputStream;

/**
 * Runs an {@link EmbeddedCluster} as a process of its own, for tests whose JVM must not hold
 * Alluxio's server classes: a Spark job, for one, brings its own Guava, Netty and protobuf, which
 * clash with the unshaded ones the Alluxio master and workers use, while the client under test is
 * the shaded one.
 *
 * <pre>
 * java $ECCACHE_ALLUXIO_JVM_ARGS -cp &lt;testkit runtime classpath&gt; io.eccache.testkit.EmbeddedClusterMain \
 *     [--workers N] [--worker-memory BYTES] [alluxio.some.key=value ...]
 * </pre>
 *
 * <p>Once every worker has registered it prints one line to standard output,
 * {@value #READY_PREFIX}{@code 127.0.0.1:<rpc port> s3=<endpoint>}, and nothing else there; Alluxio's
 * own logging goes to standard error. It stops the cluster and exits when its standard input reaches
 * end of file (the parent closed the pipe or died) or when it is sent SIGTERM, removing every
 * directory it made either way.
 */
public final class EmbeddedClusterMain {
  /** Starts the one line that says the cluster is up, followed by the master's host:port. */
  public static final String READY_PREFIX = "ECCACHE_CLUSTER_READY master=";

  private EmbeddedClusterMain() {}

  /**
   * Starts the cluster, announces it, and blocks until standard input closes.
   *
   * @param args {@code --workers N}, {@code --worker-memory BYTES}, and Alluxio properties as
   *     {@code key=value}
   */
  public static void main(String[] args) throws IOException {
    EmbeddedCluster.Builder builder = EmbeddedCluster.builder();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--workers") && i + 1 < args.length) {
        builder.workers(Integer.parseInt(args[++i]));
      } else if (a.equals("--worker-memory") && i + 1 < args.length) {
        builder.workerMemoryBytes(Long.parseLong(args[++i]));
      } else if (a.contains("=") && !a.startsWith("-")) {
        int eq = a.indexOf('=');
        builder.property(PropertyKey.fromString(a.substring(0, eq)), a.substring(eq + 1));
      } else {
        System.err.println("usage: EmbeddedClusterMain [--workers N] [--worker-memory BYTES]"
            + " [alluxio.key=value ...]; not understood: " + a);
        System.exit(2);
      }
    }
    EmbeddedCluster cluster = builder.start();
    // Both ways out (end of input below, or SIGTERM from Process.destroy) end in this hook: stop the
    // processes and remove the tier directories in /dev/shm, which would otherwise outlive us.
    Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, "eccache-cluster-shutdown"));

    System.out.println(READY_PREFIX + "127.0.0.1:" + Configuration.getInt(PropertyKey.MASTER_RPC_PORT)
        + " s3=" + cluster.s3().endpoint());
    System.out.flush();

    drain(System.in);
    System.exit(0);
  }

  /** Reads until end of file: the parent's way of saying "stop" that also works when it crashed. */
  private static void drain(InputStream in) {
    byte[] buf = new byte[256];
    try {
      while (in.read(buf) >= 0) {
        // anything written is ignored; only the end matters
      }
    } catch (IOException e) {
      // a broken pipe means the same as end of file
    }
  }
}
