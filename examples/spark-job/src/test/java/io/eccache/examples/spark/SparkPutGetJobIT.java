package io.eccache.examples.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.conf.Configuration;
import alluxio.conf.InstancedConfiguration;
import alluxio.conf.PropertyKey;
import alluxio.exception.status.NotFoundException;
import io.eccache.client.EcCacheClient;
import io.eccache.client.ObjectStat;
import io.eccache.common.RedundancyScheme;
import io.eccache.isal.IsalLibrary;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Spark job in Spark local mode against a 6-worker cluster in its own JVM, with only Spark and
 * eccache-client-shaded on this JVM's classpath (the pom keeps everything unshaded off it). One
 * cluster and one SparkContext for the class.
 */
class SparkPutGetJobIT {
  private static final String PREFIX = "spark-it/";
  private static final int OBJECTS = 24;
  private static final int BYTES = 1 << 20;

  private static ClusterProcess cluster;
  private static JavaSparkContext sc;

  @BeforeAll
  static void start() throws Exception {
    cluster = ClusterProcess.start(6);
    sc = new JavaSparkContext(new SparkConf()
        .setMaster("local[2]")
        .setAppName("eccache-spark-it")
        .set("spark.ui.enabled", "false")
        .set("spark.driver.host", "127.0.0.1")
        .set("spark.driver.bindAddress", "127.0.0.1"));
  }

  @AfterAll
  static void stop() throws Exception {
    if (sc != null) {
      sc.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void classesComeFromTheShadedJarOnly() throws Exception {
    Path shaded = jar("eccache.client.shaded.jar");
    assertEquals(shaded, codeSource(EcCacheClient.class));
    assertEquals(shaded, codeSource(alluxio.client.file.FileSystem.class));
    // Alluxio's gRPC is here only relocated, where Spark cannot see it or clash with it.
    assertThrows(ClassNotFoundException.class, () -> Class.forName("io.grpc.ManagedChannel"));
    assertEquals(shaded, codeSource(Class.forName("alluxio.shaded.client.io.grpc.ManagedChannel")));
    if (Boolean.getBoolean("eccache.isal.required")) {
      // The JNI library inside the shaded jar loads: its symbols name io.eccache.isal, unrelocated.
      assertTrue(IsalLibrary.isAvailable(), IsalLibrary.loadingFailureReason());
      assertEquals("jar:/native/linux-x86_64/libeccache-isal-jni.so", IsalLibrary.source());
      // And the relocated Netty finds its epoll library under its renamed file.
      Class<?> epoll = Class.forName("alluxio.shaded.client.io.netty.channel.epoll.Epoll");
      assertEquals(true, epoll.getMethod("isAvailable").invoke(null),
          () -> "epoll unavailable: " + invokeQuietly(epoll, "unavailabilityCause"));
    }
  }

  @Test
  void shadedJarHoldsNoUnrelocatedThirdPartyClass() throws Exception {
    List<String> strays = new ArrayList<>();
    Set<String> natives = new TreeSet<>();
    try (JarFile jar = new JarFile(jar("eccache.client.shaded.jar").toFile())) {
      for (JarEntry e : Collections.list(jar.entries())) {
        String name = e.getName();
        // A multi-release jar's classes for newer JDKs sit under META-INF/versions/N/.
        String cls = name.replaceFirst("^META-INF/versions/\\d+/", "");
        if (cls.endsWith(".class") && !cls.startsWith("alluxio/") && !cls.startsWith("io/eccache/")) {
          strays.add(name);
        }
        if (name.endsWith(".so") || name.contains(".so.")) {
          natives.add(name);
        }
      }
    }
    assertEquals(List.of(), strays.subList(0, Math.min(20, strays.size())),
        strays.size() + " classes outside alluxio/ and io/eccache/ would clash with the application's");
    assertTrue(natives.contains("native/linux-x86_64/libeccache-isal-jni.so"), natives.toString());
    assertTrue(natives.contains("native/linux-x86_64/libisal.so.2"), natives.toString());
    // Named after the relocated package, as Netty's loader looks for it.
    assertTrue(natives.contains(
        "META-INF/native/liballuxio_shaded_client_netty_transport_native_epoll_x86_64.so"),
        natives.toString());
  }

  @Test
  void sparkJobPutsAndGetsEveryObjectIntact() throws Exception {
    SparkPutGetJob.Result r = SparkPutGetJob.run(sc, cluster.master(), PREFIX, OBJECTS, BYTES);
    long expectedBytes = 0;
    for (int id = 0; id < OBJECTS; id++) {
      expectedBytes += SparkPutGetJob.payload(PREFIX, id, BYTES).length;
    }
    assertEquals(OBJECTS, r.written, r.toString());
    assertEquals(OBJECTS, r.read, r.toString());
    assertEquals(0, r.mismatched, r.toString());
    assertEquals(expectedBytes, r.bytes, r.toString());

    // And from the driver, with a client of its own: the executors' objects, as they were stored.
    InstancedConfiguration conf = Configuration.copyGlobal();
    conf.set(PropertyKey.MASTER_HOSTNAME, cluster.master().split(":")[0]);
    conf.set(PropertyKey.MASTER_RPC_PORT, Integer.parseInt(cluster.master().split(":")[1]));
    try (EcCacheClient cache = EcCacheClient.create(conf)) {
      assertEquals(OBJECTS, cache.list(PREFIX).size());
      int id = OBJECTS - 1;
      assertArrayEquals(SparkPutGetJob.payload(PREFIX, id, BYTES), cache.get(PREFIX + id));
      ObjectStat stat = cache.stat(PREFIX + id);
      assertEquals(RedundancyScheme.erasureCoded(4, 1), stat.scheme(), stat.toString());
      assertEquals(5, stat.liveSplits(), stat.toString());
      // Alluxio's status exceptions cross the shading unchanged (alluxio.* is not relocated).
      assertThrows(NotFoundException.class, () -> cache.get(PREFIX + "no-such-key"));
    }
  }

  @Test
  void sparkReadsAndWritesEccachePaths() throws Exception {
    SparkSession spark = SparkSession.builder().sparkContext(sc.sc()).getOrCreate();
    String dir = "eccache://" + cluster.master() + "/spark-paths/tables";
    assertEquals(0, SparkTableJob.run(spark, dir, 5000), "rows lost through " + dir);
    // The file system came from the shaded jar's service file: nothing configured it.
    FileSystem fs = new org.apache.hadoop.fs.Path(dir).getFileSystem(sc.hadoopConfiguration());
    assertEquals("io.eccache.hadoop.EcCacheFileSystem", fs.getClass().getName());
    assertEquals(jar("eccache.client.shaded.jar"), codeSource(fs.getClass()));
    assertTrue(fs.exists(new org.apache.hadoop.fs.Path(dir + "/parquet/_SUCCESS")));
    assertEquals(5000, spark.read().parquet(dir + "/parquet").count());
  }

  /** The quick start's Spark step: the script, against the master alluxio-site.properties names. */
  @Test
  void quickStartCommandReadsAndWritesThroughEccachePaths(@TempDir Path conf) throws Exception {
    String[] hostPort = cluster.master().split(":");
    Files.writeString(conf.resolve("alluxio-site.properties"), "alluxio.master.hostname="
        + hostPort[0] + "\nalluxio.master.rpc.port=" + hostPort[1] + "\n");
    Path root = Paths.get(System.getProperty("eccache.root")).toAbsolutePath().normalize();
    ProcessBuilder command = new ProcessBuilder(root.resolve("bin/eccache-spark-example").toString(),
        "eccache:///spark-paths/quickstart", "2000").redirectErrorStream(true);
    command.environment().put("ALLUXIO_CONF_DIR", conf.toString());
    command.environment().put("ECCACHE_NO_BUILD", "1");
    Path log = Paths.get("target", "quickstart-spark.log").toAbsolutePath();
    Process p = command.redirectOutput(log.toFile()).start();
    if (!p.waitFor(300, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("bin/eccache-spark-example did not finish in 300 s; see " + log);
    }
    String out = Files.readString(log);
    assertEquals(0, p.exitValue(), out);
    assertTrue(out.contains("parquet: 2000 rows read back from eccache:///spark-paths/quickstart/parquet,"
        + " all intact"), out);
    assertTrue(out.contains("csv: 2000 rows read back from eccache:///spark-paths/quickstart/csv,"
        + " all intact"), out);
  }

  private static Object invokeQuietly(Class<?> c, String method) {
    try {
      return c.getMethod(method).invoke(null);
    } catch (ReflectiveOperationException e) {
      return e;
    }
  }

  private static Path jar(String property) {
    return Paths.get(System.getProperty(property)).toAbsolutePath().normalize();
  }

  private static Path codeSource(Class<?> c) throws URISyntaxException {
    return Paths.get(c.getProtectionDomain().getCodeSource().getLocation().toURI()).normalize();
  }
}
