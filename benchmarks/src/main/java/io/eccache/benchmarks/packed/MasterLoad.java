package io.eccache.benchmarks.packed;

import io.eccache.testkit.EmbeddedCluster;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;

/**
 * What an in-process Alluxio master did between two moments: the CPU time of its threads and the
 * journal entries it wrote (its journals' sequence numbers, summed over its masters: the file
 * system's, the block master's, eccache's coordinator...).
 * A master thread is one Alluxio names for the master: its RPC executor, its journal writers, its
 * heartbeats (listed in {@link #isMasterThread}).
 */
final class MasterLoad {
  final long cpuNanos;
  final long journalEntries;

  private MasterLoad(long cpuNanos, long journalEntries) {
    this.cpuNanos = cpuNanos;
    this.journalEntries = journalEntries;
  }

  /** The sums now. */
  static MasterLoad now(EmbeddedCluster cluster) {
    return new MasterLoad(masterCpuNanos(), cluster.journalEntries());
  }

  /** What happened since {@code earlier}. */
  MasterLoad since(MasterLoad earlier) {
    return new MasterLoad(cpuNanos - earlier.cpuNanos, journalEntries - earlier.journalEntries);
  }

  /**
   * Whether a thread of this JVM works for the master alone: Alluxio's master RPC executor (which
   * also runs the coordinator plugin's RPCs), its journal writer and collector, the masters'
   * heartbeats ({@code Master ...}, {@code MetricsMaster}), and the coordinator's own executor and
   * heartbeats ({@code EcCache...}). gRPC's Netty event loops serve the master, the workers and
   * the clients alike and are not counted: the figure is a lower bound.
   */
  static boolean isMasterThread(String name) {
    return name.startsWith("master-rpc-executor") || name.startsWith("Master ")
        || name.startsWith("MetricsMaster") || name.contains("JournalWriter")
        || name.startsWith("UfsJournal") || name.startsWith("EcCache")
        || name.startsWith("config-hash-master");
  }

  private static long masterCpuNanos() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null && isMasterThread(info.getThreadName())) {
        sum += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
      }
    }
    return sum;
  }
}
