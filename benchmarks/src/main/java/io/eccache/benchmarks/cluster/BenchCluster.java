package io.eccache.benchmarks.cluster;

import alluxio.client.block.BlockWorkerInfo;
import alluxio.client.file.FileSystemContext;
import io.eccache.testkit.EmbeddedCluster;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The cluster a benchmark runs on: the in-process {@link EmbeddedCluster} (whose workers it can stop,
 * and whose loopback addresses it can shape and load with background flows) or a running Alluxio
 * cluster reached through its master (docker-compose, EC2), which it can only read and write.
 */
public interface BenchCluster {
  /** The Alluxio context clients share. */
  FileSystemContext context();

  /** Workers, running or not. */
  int workerCount();

  /** Worker {@code i}'s host, as splits name it. */
  String workerHost(int i);

  /** Whether the benchmark owns the workers' processes and addresses: failures, background load. */
  boolean isInProcess();

  /** Stops worker {@code i} and waits until the master has noticed. */
  void stopWorker(int i) throws IOException;

  /**
   * Whether {@link #killWorker} and {@link #freezeWorker} can signal workers: they run as processes
   * of their own.
   */
  boolean canKillWorkers();

  /**
   * Kills worker {@code i} with SIGKILL, as a crash, and returns at once: the master notices after
   * its worker timeout.
   */
  void killWorker(int i) throws IOException;

  /** Freezes worker {@code i} (SIGSTOP): a hung server, or a slow one in a duty cycle. */
  void freezeWorker(int i) throws IOException;

  /** Resumes worker {@code i} after {@link #freezeWorker} (SIGCONT). */
  void thawWorker(int i) throws IOException;

  /** Starts worker {@code i} again and waits until it is back. */
  void startWorker(int i) throws IOException;

  /** Whether worker {@code i} runs. */
  boolean isWorkerRunning(int i);

  /**
   * {@code n} workers (or as many as there are) chosen by {@code random} among those not in
   * {@code exclude}: the stragglers, slow servers and victims of a run, drawn from its seed.
   */
  default List<Integer> choose(int n, List<Integer> exclude, java.util.Random random) {
    List<Integer> candidates = new ArrayList<>();
    for (int i = 0; i < workerCount(); i++) {
      if (!exclude.contains(i)) {
        candidates.add(i);
      }
    }
    java.util.Collections.shuffle(candidates, random);
    return new ArrayList<>(candidates.subList(0, Math.min(n, candidates.size())));
  }

  /** The in-process cluster. */
  static BenchCluster of(EmbeddedCluster cluster) {
    return new BenchCluster() {
      @Override
      public FileSystemContext context() {
        return cluster.fileSystemContext();
      }

      @Override
      public int workerCount() {
        return cluster.workerCount();
      }

      @Override
      public String workerHost(int i) {
        return cluster.workerHost(i);
      }

      @Override
      public boolean isInProcess() {
        return true;
      }

      @Override
      public void stopWorker(int i) throws IOException {
        cluster.stopWorker(i);
        cluster.awaitLiveWorkers(live());
      }

      @Override
      public boolean canKillWorkers() {
        return cluster.hasWorkerProcesses();
      }

      @Override
      public void killWorker(int i) throws IOException {
        cluster.killWorker(i);
      }

      @Override
      public void freezeWorker(int i) throws IOException {
        cluster.freezeWorker(i);
      }

      @Override
      public void thawWorker(int i) throws IOException {
        cluster.thawWorker(i);
      }

      @Override
      public void startWorker(int i) throws IOException {
        cluster.startWorker(i);
        cluster.awaitLiveWorkers(live());
      }

      @Override
      public boolean isWorkerRunning(int i) {
        return cluster.isWorkerRunning(i);
      }

      private int live() {
        int n = 0;
        for (int i = 0; i < cluster.workerCount(); i++) {
          n += cluster.isWorkerRunning(i) ? 1 : 0;
        }
        return n;
      }
    };
  }

  /**
   * A running cluster, through {@code context}: its workers are those the master lists now, all
   * taken as running.
   *
   * @throws IOException if the master cannot be reached or lists no worker
   */
  static BenchCluster remote(FileSystemContext context) throws IOException {
    List<String> hosts = new ArrayList<>();
    for (BlockWorkerInfo w : context.getCachedWorkers()) {
      hosts.add(w.getNetAddress().getHost());
    }
    if (hosts.isEmpty()) {
      throw new IOException("the master lists no live worker: start the workers first");
    }
    return new BenchCluster() {
      @Override
      public FileSystemContext context() {
        return context;
      }

      @Override
      public int workerCount() {
        return hosts.size();
      }

      @Override
      public String workerHost(int i) {
        return hosts.get(i);
      }

      @Override
      public boolean isInProcess() {
        return false;
      }

      @Override
      public void stopWorker(int i) {
        throw new UnsupportedOperationException("cannot stop a worker of a remote cluster: run "
            + "the failure scenario on the in-process cluster (no --master)");
      }

      @Override
      public boolean canKillWorkers() {
        return false;
      }

      @Override
      public void killWorker(int i) {
        stopWorker(i);
      }

      @Override
      public void freezeWorker(int i) {
        stopWorker(i);
      }

      @Override
      public void thawWorker(int i) {
        stopWorker(i);
      }

      @Override
      public void startWorker(int i) {
        stopWorker(i);
      }

      @Override
      public boolean isWorkerRunning(int i) {
        return true;
      }
    };
  }
}
