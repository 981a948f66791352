package io.eccache.examples.spark;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * A Spark job that writes a table to an {@code eccache://} path with {@code df.write} and reads it
 * back with {@code spark.read}, as Parquet and as CSV, and checks that every row came back.
 *
 * <pre>
 * spark-submit --jars eccache-client-shaded-0.2.0.jar \
 *     --class io.eccache.examples.spark.SparkTableJob eccache-example-spark-job.jar \
 *     eccache:///tables/example [rows]
 * bin/eccache-spark-example eccache:///tables/example     # the same in Spark local mode
 * </pre>
 *
 * <p>{@code eccache:///KEY} finds the master in alluxio-site.properties ({@code $ALLUXIO_CONF_DIR});
 * {@code eccache://HOST:PORT/KEY} names it. Nothing is configured for the file system itself: the
 * shaded client's service file registers {@code io.eccache.hadoop.EcCacheFileSystem} for the
 * {@code eccache} scheme. Without {@code spark.master} the job runs in local mode.
 */
public final class SparkTableJob {
  private SparkTableJob() {}

  /** {@code eccache://.../DIR [rows=100000]}; exits 1 unless every row came back. */
  public static void main(String[] args) {
    if (args.length < 1 || !args[0].startsWith("eccache:")) {
      System.err.println("usage: SparkTableJob eccache:///DIR [rows]   (or eccache://HOST:PORT/DIR)");
      System.exit(2);
    }
    long rows = args.length > 1 ? Long.parseLong(args[1]) : 100_000;
    SparkSession.Builder builder = SparkSession.builder().appName("eccache tables");
    if (!new org.apache.spark.SparkConf().contains("spark.master")) {
      builder.master("local[2]").config("spark.ui.enabled", "false");
    }
    SparkSession spark = builder.getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    try {
      long lost = run(spark, args[0], rows);
      System.exit(lost == 0 ? 0 : 1);
    } finally {
      spark.stop();
    }
  }

  /**
   * Writes {@code rows} rows under {@code dir} as Parquet ({@code dir/parquet}) and CSV
   * ({@code dir/csv}), replacing what was there, reads both back and prints what it found; returns
   * the rows missing or different in either (0 when all came back).
   */
  public static long run(SparkSession spark, String dir, long rows) {
    Dataset<Row> table = table(spark, rows);
    String parquet = dir + "/parquet";
    table.write().mode(SaveMode.Overwrite).parquet(parquet);
    long lost = report("parquet", parquet, table, spark.read().parquet(parquet));
    String csv = dir + "/csv";
    table.write().mode(SaveMode.Overwrite).option("header", "true").csv(csv);
    lost += report("csv", csv, table,
        spark.read().option("header", "true").schema(table.schema()).csv(csv));
    return lost;
  }

  /** The example table: an id, a name and a value per row, in 4 partitions (4 files). */
  public static Dataset<Row> table(SparkSession spark, long rows) {
    return spark.range(0, rows, 1, 4)
        .selectExpr("id", "concat('name-', id) AS name", "id * 1.5 AS value");
  }

  private static long report(String format, String path, Dataset<Row> written, Dataset<Row> read) {
    long count = read.count();
    long lost = written.except(read).count() + read.except(written).count();
    System.out.println(format + ": " + count + " rows read back from " + path + ", "
        + (lost == 0 ? "all intact" : lost + " missing or different"));
    return lost;
  }
}
