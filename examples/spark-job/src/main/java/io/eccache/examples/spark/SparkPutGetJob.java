package io.eccache.examples.spark;

import alluxio.conf.Configuration;
import alluxio.conf.InstancedConfiguration;
import alluxio.conf.PropertyKey;
import io.eccache.client.EcCacheClient;
import io.eccache.client.PutOptions;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * A Spark job whose executors PUT objects into eccache and GET them back.
 *
 * <pre>
 * spark-submit --class io.eccache.examples.spark.SparkPutGetJob \
 *     --jars alluxio-2.9.6-client.jar,eccache-client-shaded-0.2.0.jar \
 *     eccache-example-spark-job.jar master-host:19998 [objects] [bytes per object]
 * </pre>
 *
 * <p>Stage one PUTs every object from the partition that owns its key; stage two GETs them in a
 * different partitioning, so most reads happen in another task (on a cluster, another executor)
 * than the write, and compares every byte with what the key's seed generates. Each executor JVM
 * holds one {@link EcCacheClient}, shared by all its tasks (see {@link #client}).
 */
public final class SparkPutGetJob {
  /** 4 data + 1 parity split: any 4 of the 5 give the object back. Needs 5 live workers. */
  static final PutOptions CODE = PutOptions.code(4, 1);

  private SparkPutGetJob() {}

  /** Counts from one run; the job succeeded when {@link #mismatched} is 0 and all were read. */
  public static final class Result implements Serializable {
    private static final long serialVersionUID = 1L;
    /** Objects PUT. */
    public final long written;
    /** Objects read back. */
    public final long read;
    /** Objects whose bytes differed from what was PUT. */
    public final long mismatched;
    /** Bytes read back in all. */
    public final long bytes;

    Result(long written, long read, long mismatched, long bytes) {
      this.written = written;
      this.read = read;
      this.mismatched = mismatched;
      this.bytes = bytes;
    }

    @Override
    public String toString() {
      return "written " + written + ", read " + read + ", mismatched " + mismatched + ", bytes "
          + bytes;
    }
  }

  /** {@code master-host:port [objects=24] [bytes=1048576]}; exits 1 unless every byte matched. */
  public static void main(String[] args) {
    if (args.length < 1) {
      System.err.println("usage: SparkPutGetJob master-host:port [objects] [bytes per object]");
      System.exit(2);
    }
    int objects = args.length > 1 ? Integer.parseInt(args[1]) : 24;
    int bytes = args.length > 2 ? Integer.parseInt(args[2]) : 1 << 20;
    try (JavaSparkContext sc = new JavaSparkContext(new SparkConf().setAppName("eccache put/get"))) {
      Result r = run(sc, args[0], "spark-example/", objects, bytes);
      System.out.println(r);
      if (r.mismatched != 0 || r.read != objects) {
        System.exit(1);
      }
    }
  }

  /** PUTs {@code objects} objects of about {@code bytes} bytes under {@code prefix}, GETs and checks them. */
  public static Result run(JavaSparkContext sc, String master, String prefix, int objects,
      int bytes) {
    List<Integer> ids = IntStream.range(0, objects).boxed().collect(Collectors.toList());
    int partitions = Math.max(2, sc.defaultParallelism());

    long written = sc.parallelize(ids, partitions).mapPartitions((Iterator<Integer> it) -> {
      EcCacheClient cache = client(master);
      long n = 0;
      while (it.hasNext()) {
        int id = it.next();
        cache.put(prefix + id, payload(prefix, id, bytes), CODE);
        n++;
      }
      return Collections.singletonList(n).iterator();
    }).reduce(Long::sum);

    // Reversed and in one partition fewer: most GETs run in another task than their PUT.
    List<Integer> reversed = new ArrayList<>(ids);
    Collections.reverse(reversed);
    long[] counts = sc.parallelize(reversed, partitions - 1).mapPartitions((Iterator<Integer> it) -> {
      EcCacheClient cache = client(master);
      long[] c = new long[3];  // read, mismatched, bytes
      while (it.hasNext()) {
        int id = it.next();
        byte[] back = cache.get(prefix + id);
        c[0]++;
        c[1] += Arrays.equals(back, payload(prefix, id, bytes)) ? 0 : 1;
        c[2] += back.length;
      }
      return Collections.singletonList(c).iterator();
    }).reduce((a, b) -> new long[] {a[0] + b[0], a[1] + b[1], a[2] + b[2]});
    return new Result(written, counts[0], counts[1], counts[2]);
  }

  /**
   * The object stored under {@code prefix + id}: random bytes from a seed of the key, so any task,
   * and the driver, can regenerate it to compare. Sizes vary by id (half to 1.5 times {@code bytes})
   * so objects are not all one shape.
   */
  public static byte[] payload(String prefix, int id, int bytes) {
    Random random = new Random((prefix + id).hashCode() * 31L + id);
    byte[] b = new byte[bytes / 2 + random.nextInt(bytes + 1)];
    random.nextBytes(b);
    return b;
  }

  private static EcCacheClient client;
  private static String clientMaster;

  /**
   * This executor's one client for {@code master}: created by the first task that needs it, shared
   * by the tasks after it (the client is thread-safe and owns connections and I/O threads that are
   * worth keeping), closed when the executor JVM exits.
   */
  static synchronized EcCacheClient client(String master) {
    if (client == null || !master.equals(clientMaster)) {
      if (client != null) {
        client.close();
      }
      // Alluxio's usual configuration (alluxio-site.properties, -Dalluxio.* system properties),
      // with the master this job was given.
      InstancedConfiguration conf = Configuration.copyGlobal();
      String[] hostPort = master.split(":");
      conf.set(PropertyKey.MASTER_HOSTNAME, hostPort[0]);
      conf.set(PropertyKey.MASTER_RPC_PORT, Integer.parseInt(hostPort[1]));
      EcCacheClient created = EcCacheClient.create(conf);
      if (client == null) {
        Runtime.getRuntime().addShutdownHook(new Thread(SparkPutGetJob::closeClient,
            "eccache-client-close"));
      }
      client = created;
      clientMaster = master;
    }
    return client;
  }

  private static synchronized void closeClient() {
    if (client != null) {
      client.close();
      client = null;
    }
  }
}
