package io.eccache.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.testkit.SharedCluster;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Spark in local mode writing and reading Parquet and CSV through {@code eccache://} paths, with
 * Spark's commit protocol (FileOutputCommitter, algorithm 1 by default and 2, renaming out of
 * {@code _temporary}). Reading
 * Parquet opens each file's footer with positioned reads at its end.
 */
class SparkEcCacheFileSystemTest {
  @RegisterExtension
  static final SharedCluster CLUSTER = HadoopTestCluster.fourWorkers();
  private static SparkSession spark;

  @BeforeAll
  static void startSpark() throws Exception {
    CLUSTER.cluster();
    spark = SparkSession.builder().master("local[2]").appName("eccache-hadoop-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.hadoop.fs.eccache.impl", EcCacheFileSystem.class.getName())
        .getOrCreate();
  }

  @AfterAll
  static void stopSpark() throws Exception {
    if (spark != null) {
      spark.stop();
    }
    // Spark's file systems stay in Hadoop's cache, which closes them in a shutdown hook, after the
    // shared cluster is gone: their close then waits on a dead master and held the test JVM's
    // exit past surefire's 30 s. Closed here, while the cluster runs.
    FileSystem.closeAll();
  }

  private static Dataset<Row> rows() {
    return spark.range(0, 2000).repartition(3)
        .selectExpr("id", "concat('name-', id) AS name", "id * 1.5 AS value");
  }

  private static String path(String name) {
    return HadoopTestCluster.uri() + CLUSTER.key(name);
  }

  private static void assertCommitted(String dir) throws Exception {
    FileSystem fs = new Path(dir).getFileSystem(spark.sparkContext().hadoopConfiguration());
    assertTrue(fs.exists(new Path(dir, "_SUCCESS")), "the job committed");
    assertFalse(fs.exists(new Path(dir, "_temporary")), "nothing left of the attempts");
  }

  @Test
  void parquetRoundTrips() throws Exception {
    String dir = path("table.parquet");
    rows().write().parquet(dir);
    assertCommitted(dir);
    List<Row> back = spark.read().parquet(dir).orderBy("id").collectAsList();
    assertEquals(rows().orderBy("id").collectAsList(), back);
    // A filter pushed into Parquet reads row groups by their footer's offsets.
    assertEquals(10, spark.read().parquet(dir).where("id >= 100 AND id < 110").count());
  }

  @Test
  void parquetRoundTripsWithCommitterVersion2() throws Exception {
    String dir = path("v2.parquet");
    rows().write().option("mapreduce.fileoutputcommitter.algorithm.version", "2").parquet(dir);
    assertCommitted(dir);
    assertEquals(rows().orderBy("id").collectAsList(),
        spark.read().parquet(dir).orderBy("id").collectAsList());
  }

  @Test
  void csvRoundTrips() throws Exception {
    String dir = path("table.csv");
    rows().write().option("header", "true").csv(dir);
    assertCommitted(dir);
    Dataset<Row> back = spark.read().option("header", "true").schema(rows().schema()).csv(dir);
    assertEquals(rows().orderBy("id").collectAsList(), back.orderBy("id").collectAsList());
  }

  @Test
  void overwriteReplacesATable() throws Exception {
    String dir = path("over.parquet");
    rows().write().parquet(dir);
    spark.range(0, 5).selectExpr("id", "'x' AS name", "0.0 AS value").write().mode("overwrite")
        .parquet(dir);
    assertEquals(5, spark.read().parquet(dir).count());
  }
}
