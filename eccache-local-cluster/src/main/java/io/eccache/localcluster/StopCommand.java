package io.eccache.localcluster;

import com.google.common.io.MoreFiles;
import io.eccache.localcluster.ClusterState.ProcessRecord;
import java.io.PrintWriter;
import java.nio.channels.FileLock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code eccache cluster stop}: SIGTERM to the workers, then to the master, then to S3; SIGKILL to
 * any that has not exited in time. Data stays unless {@code --purge}.
 */
@Command(name = "stop", mixinStandardHelpOptions = true,
    description = {"Stop the local cluster: SIGTERM to the workers, then to the master, then to "
        + "S3, SIGKILL to any still running after 30 s (S3: 10 s). Its data stays for the next start "
        + "(journal, S3 objects, worker tiers). Stopping a cluster that does not run changes "
        + "nothing."})
final class StopCommand implements Callable<Integer> {
  private static final long SERVERS_GRACE_MS = 30_000;
  private static final long S3_GRACE_MS = 10_000;
  private static final long KILL_WAIT_MS = 10_000;

  @Mixin
  LocalClusterCommand.DirOption dir;

  @Option(names = "--purge",
      description = "Also delete the cluster's directory: every object, the journal and the logs.")
  boolean purge;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    ClusterDirectory d = dir.directory();
    if (!d.isCluster()) {
      out.printf("no eccache cluster in %s: nothing to stop%n", d.path());
      return LocalClusterCommand.OK;
    }
    FileLock lock = d.lock("stop");
    try {
      List<ProcessRecord> workers = new ArrayList<>();
      List<ProcessRecord> master = new ArrayList<>();
      List<ProcessRecord> s3 = new ArrayList<>();
      for (ProcessRecord r : d.state().map(ClusterState::processes).orElse(List.of())) {
        if (r.isAlive()) {
          (r.name().equals("s3") ? s3 : r.name().equals("master") ? master : workers).add(r);
        }
      }
      int count = workers.size() + master.size() + s3.size();
      if (count == 0) {
        out.printf("the cluster in %s is not running%n", d.path());
      } else {
        // Workers first: a worker's shutdown reports to the master and, with the master gone,
        // retries until SIGKILL. S3 last: the master may still write to it while it stops.
        stop(workers, SERVERS_GRACE_MS, out);
        stop(master, SERVERS_GRACE_MS, out);
        stop(s3, S3_GRACE_MS, out);
        out.printf("stopped the cluster in %s (%d processes)%s%n", d.path(), count,
            purge ? "" : "; its data is kept for the next start");
      }
      if (purge) {
        // Deleted while the lock is held, so no start can slip in; Linux lets the locked file go.
        MoreFiles.deleteRecursively(d.path());
        out.printf("deleted %s%n", d.path());
      }
    } finally {
      ClusterDirectory.release(lock);
    }
    return LocalClusterCommand.OK;
  }

  /** SIGTERM to each, a bounded wait for all, SIGKILL to the survivors and a bounded wait again. */
  private static void stop(List<ProcessRecord> records, long graceMs, PrintWriter out)
      throws ClusterException {
    if (records.isEmpty()) {
      return;
    }
    for (ProcessRecord r : records) {
      r.live().ifPresent(ProcessHandle::destroy);
    }
    List<ProcessRecord> left = awaitExit(records, graceMs);
    for (ProcessRecord r : left) {
      out.printf("%s (pid %d) still running after %d s: SIGKILL%n", r.name(), r.pid(),
          graceMs / 1000);
      r.live().ifPresent(ProcessHandle::destroyForcibly);
    }
    left = awaitExit(left, KILL_WAIT_MS);
    if (!left.isEmpty()) {
      ProcessRecord r = left.get(0);
      throw new ClusterException(LocalClusterCommand.FAILED, r.name() + " (pid " + r.pid()
          + ") survived SIGKILL for " + KILL_WAIT_MS / 1000 + " s: check it with ps, then run "
          + "stop again");
    }
  }

  private static List<ProcessRecord> awaitExit(List<ProcessRecord> records, long timeoutMs)
      throws ClusterException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    List<ProcessRecord> left = new ArrayList<>(records);
    while (true) {
      left.removeIf(r -> !r.isAlive());
      if (left.isEmpty() || System.nanoTime() > deadline) {
        return left;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ClusterException(LocalClusterCommand.FAILED, "interrupted while stopping: run "
            + "stop again");
      }
    }
  }
}
