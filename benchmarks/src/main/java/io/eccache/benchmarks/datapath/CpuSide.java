package io.eccache.benchmarks.datapath;

import java.util.List;
import java.util.Locale;

/**
 * Which part of the in-process cluster a thread works for, told from its name as Linux keeps it
 * ({@code /proc/self/task/<tid>/comm}: the Java name's first 15 characters). The client's, the
 * workers' and the master's threads are named by Alluxio, eccache and the benchmark; a thread none
 * of them names (gRPC's shared event loops and executors, which serve clients and servers alike)
 * counts as {@link #OTHER}.
 */
enum CpuSide {
  /** eccache's split I/O, the benchmark's client threads, Alluxio's client event loops. */
  CLIENT("eccache-io", "datapath-", "alluxio-client-"),
  /** Alluxio's block workers: data servers, block readers and writers, their RPC executors. */
  WORKERS("BlockData", "data-server", "worker-rpc", "eccache-worker", "block-worker",
      "block-removal", "Worker "),
  /** Alluxio's master with eccache's coordinator: RPCs, journal, under-store metadata, sweeps. */
  MASTER("master-rpc", "EcCacheCoordin", "EcCache ", "AsyncJournal", "UFS-Absent",
      "alluxio-ufs-", "eccache-master", "MetricsMaster"),
  /** The JVM's garbage collection (G1's threads, and the VM thread that runs its pauses). */
  GC("GC Thread", "G1 ", "VM Thread", "VM Periodic"),
  /** The JVM's JIT compilers and their code cache sweeper. */
  JIT("C1 Compiler", "C2 Compiler", "Sweeper thread"),
  /**
   * The S3 API server the cluster's under store is (s3proxy, a process of its own here): every
   * thread of it, its JVM's included. It shares this machine's cores, as S3 would not: eccache's
   * PUTs ask it whether the key has a copy there, plain files never do.
   */
  S3(),
  OTHER();

  private final List<String> prefixes;

  CpuSide(String... prefixes) {
    this.prefixes = List.of(prefixes);
  }

  /** The side of the thread named {@code comm}. */
  static CpuSide of(String comm) {
    for (CpuSide side : values()) {
      for (String prefix : side.prefixes) {
        if (comm.startsWith(prefix)) {
          return side;
        }
      }
    }
    return OTHER;
  }

  /**
   * The side of the thread named {@code comm} in a server process of its own that works for
   * {@code process}: the JVM's GC and JIT threads are counted as every JVM's are (so settling
   * waits for the servers' compilers too, and the workers' column is their data path's work),
   * every other thread, gRPC's included, to the process's side. The S3 server's threads all count
   * to {@link #S3}.
   */
  static CpuSide inServer(String comm, CpuSide process) {
    if (process == S3) {
      return S3; // not the cluster's: its JIT is no part of the cluster's settling
    }
    CpuSide side = of(comm);
    return side == GC || side == JIT ? side : process;
  }

  /** Lower-case name for columns and keys. */
  String key() {
    return name().toLowerCase(Locale.ROOT);
  }
}
