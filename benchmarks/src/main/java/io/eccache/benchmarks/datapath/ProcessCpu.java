package io.eccache.benchmarks.datapath;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

/**
 * The CPU time of this process, every thread but the measuring one: with the cluster in-process,
 * the client, the master, the workers, and the JVM's GC and JIT threads. Two sources:
 *
 * <ul>
 *   <li>{@link #snapshot()}/{@link #since}: each thread's run time in nanoseconds from Linux's
 *       {@code /proc/self/task/<tid>/schedstat}, summed; exact, but a thread that ends in between
 *       loses its share (threads here live as long as the cluster, or idle before they end).
 *   <li>{@link #processNanos()}: {@code OperatingSystemMXBean.getProcessCpuTime}, which Linux
 *       counts in clock ticks (10 ms): off by up to a tick per reading, a cross-check.
 * </ul>
 *
 * The measuring thread is left out of both: it only submits operations, waits, and checks the
 * bytes GETs returned, which is not the data path's work. The first also tells which side of the
 * cluster each thread works for ({@link CpuSide}), from the thread's name. With the cluster in
 * processes of its own, the first adds their threads too, each to its process's side but the
 * JVM's GC and JIT threads, which go to those sides as this process's do; and the S3 server's
 * (s3proxy, a child process in every cluster the benchmark starts), all of it to its own side. The
 * second stays this process's alone.
 */
final class ProcessCpu {
  private static final Path TASKS = Paths.get("/proc/self/task");
  private static final Path SELF = Paths.get("/proc/thread-self");

  private ProcessCpu() {}

  /** Whether {@link #snapshot()} works here (Linux with scheduler statistics). */
  static boolean exact() {
    return Files.isReadable(SELF.resolve("schedstat"));
  }

  /** Every thread's run time at one moment, and which side each thread works for. */
  static final class Snapshot {
    final Map<String, Long> nanosByTask = new HashMap<>();
    final Map<String, CpuSide> sideByTask = new HashMap<>();
  }

  /**
   * Every thread's run time now, nanoseconds by thread id, the calling thread left out; and every
   * thread of the processes {@code servers} names (process id to the side it works for).
   */
  static Snapshot snapshot(Map<Long, CpuSide> servers) throws IOException {
    String self = Files.readSymbolicLink(SELF).getFileName().toString();
    Snapshot snapshot = new Snapshot();
    addTasks(snapshot, TASKS, "", self, null);
    for (Map.Entry<Long, CpuSide> server : servers.entrySet()) {
      Path tasks = Paths.get("/proc", String.valueOf(server.getKey()), "task");
      try {
        addTasks(snapshot, tasks, server.getKey() + "/", null, server.getValue());
      } catch (NoSuchFileException ended) {
        throw new IOException("the cluster's " + server.getValue().key() + " process "
            + server.getKey() + " is gone: see its log in the cluster's directory", ended);
      }
    }
    return snapshot;
  }

  /**
   * Adds the tasks under {@code tasks}, keyed {@code prefix + tid}: to {@code side} if given (a
   * server process's; its GC and JIT threads to theirs), else each by its name.
   */
  private static void addTasks(Snapshot snapshot, Path tasks, String prefix, String skip,
      CpuSide side) throws IOException {
    try (DirectoryStream<Path> list = Files.newDirectoryStream(tasks)) {
      for (Path task : list) {
        String tid = task.getFileName().toString();
        if (tid.equals(skip)) {
          continue;
        }
        try {
          String stat = new String(Files.readAllBytes(task.resolve("schedstat")),
              StandardCharsets.US_ASCII);
          int end = stat.indexOf(' ');
          snapshot.nanosByTask.put(prefix + tid,
              Long.parseLong(end < 0 ? stat.trim() : stat.substring(0, end)));
          String comm = new String(Files.readAllBytes(task.resolve("comm")),
              StandardCharsets.UTF_8).trim();
          snapshot.sideByTask.put(prefix + tid,
              side != null ? CpuSide.inServer(comm, side) : CpuSide.of(comm));
        } catch (IOException e) {
          // A thread that ended while we listed reads as ENOENT or, mid-exit, ESRCH ("No such
          // process"); anything else on a thread still there is an error.
          if (Files.exists(task)) {
            throw e;
          }
        }
      }
    }
  }

  /**
   * Run time since {@code before}, by side, of this process and of {@code servers}: threads
   * started since count whole.
   */
  static EnumMap<CpuSide, Long> since(Snapshot before, Map<Long, CpuSide> servers)
      throws IOException {
    EnumMap<CpuSide, Long> bySide = new EnumMap<>(CpuSide.class);
    for (CpuSide side : CpuSide.values()) {
      bySide.put(side, 0L);
    }
    Snapshot now = snapshot(servers);
    for (Map.Entry<String, Long> e : now.nanosByTask.entrySet()) {
      Long was = before.nanosByTask.get(e.getKey());
      // A thread id Linux reused for a new thread reads less than the old one's total.
      long ran = was != null && e.getValue() >= was ? e.getValue() - was : e.getValue();
      bySide.merge(now.sideByTask.get(e.getKey()), ran, Long::sum);
    }
    return bySide;
  }

  /** The process's CPU time in clock ticks, as nanoseconds (getProcessCpuTime). */
  static long processNanos() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    long nanos = os instanceof com.sun.management.OperatingSystemMXBean
        ? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() : -1;
    if (nanos < 0) {
      throw new IllegalStateException("this JVM does not report process CPU time"
          + " (com.sun.management.OperatingSystemMXBean); run on OpenJDK or HotSpot");
    }
    return nanos;
  }

  /** The calling thread's CPU time, nanoseconds. */
  static long selfNanos() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : 0;
  }
}
