package io.eccache.examples.spark;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The testkit's {@code EmbeddedClusterMain} as a child JVM. Alluxio's master and workers use
 * unshaded Guava, gRPC and Netty, which must not share a JVM with Spark and the shaded client under
 * test; so the cluster gets the testkit's own runtime classpath (written by its build) and the JVM
 * options Alluxio needs on Java 17, and this test JVM only learns the master's address.
 */
final class ClusterProcess implements AutoCloseable {
  private static final String READY_PREFIX = "ECCACHE_CLUSTER_READY master=";
  private static final long START_TIMEOUT_S = 180;

  private final Process process;
  private final String master;

  private ClusterProcess(Process process, String master) {
    this.process = process;
    this.master = master;
  }

  /** Starts a cluster of {@code workers} workers; returns once they have all registered. */
  static ClusterProcess start(int workers) throws IOException {
    Path target = Paths.get(required("eccache.testkit.target"));
    Path classpathFile = target.resolve("runtime-classpath.txt");
    if (!Files.isRegularFile(classpathFile)) {
      throw new IOException(classpathFile + " is missing: build eccache-testkit in the same reactor"
          + " (mvn -pl examples/spark-job -am verify)");
    }
    String classpath = target.resolve("classes") + File.pathSeparator
        + Files.readString(classpathFile).trim();
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(Arrays.asList(required("eccache.cluster.jvm.args").trim().split("\\s+")));
    command.addAll(List.of("-cp", classpath, "io.eccache.testkit.EmbeddedClusterMain",
        "--workers", String.valueOf(workers)));
    Path log = Paths.get("target", "embedded-cluster.log").toAbsolutePath();
    Process p = new ProcessBuilder(command)
        .redirectError(ProcessBuilder.Redirect.to(log.toFile()))
        .start();
    BufferedReader out = new BufferedReader(
        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    // Read standard output to its end on a thread of its own, into a second log: Alluxio's errors
    // go there (log4j2's default console), and a full pipe would stall the cluster.
    Path outLog = Paths.get("target", "embedded-cluster.out").toAbsolutePath();
    CompletableFuture<String> ready = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try (BufferedWriter copy = Files.newBufferedWriter(outLog, StandardCharsets.UTF_8)) {
        for (String line; (line = out.readLine()) != null; ) {
          if (line.startsWith(READY_PREFIX)) {
            ready.complete(line.substring(READY_PREFIX.length()).split(" ")[0]);
          }
          copy.write(line);
          copy.newLine();
          copy.flush();
        }
      } catch (IOException e) {
        // the process is gone: same as end of file
      }
      ready.complete(null);
    }, "cluster-stdout");
    reader.setDaemon(true);
    reader.start();
    try {
      String master = ready.get(START_TIMEOUT_S, TimeUnit.SECONDS);
      if (master == null) {
        throw new IOException("the cluster process exited (" + waitExit(p) + ") before it was up;"
            + " its logs: " + log + ", " + outLog);
      }
      return new ClusterProcess(p, master);
    } catch (InterruptedException | ExecutionException | TimeoutException e) {
      p.destroyForcibly();
      throw new IOException("the cluster was not up within " + START_TIMEOUT_S + " s; its logs: "
          + log + ", " + outLog, e);
    } catch (IOException e) {
      p.destroyForcibly();
      throw e;
    }
  }

  /** The master's {@code host:port}. */
  String master() {
    return master;
  }

  /** Closes the child's standard input, its signal to stop the cluster and clean up, and waits. */
  @Override
  public void close() throws IOException {
    process.getOutputStream().close();
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private static String waitExit(Process p) {
    try {
      return p.waitFor(10, TimeUnit.SECONDS) ? "exit status " + p.exitValue() : "still running";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  private static String required(String property) {
    String v = System.getProperty(property);
    if (v == null || v.isEmpty()) {
      throw new IllegalStateException("system property " + property + " is not set (the pom's"
          + " failsafe configuration sets it)");
    }
    return v;
  }
}
