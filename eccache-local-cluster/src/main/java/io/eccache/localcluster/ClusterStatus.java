package io.eccache.localcluster;

import io.eccache.localcluster.ClusterState.ProcessRecord;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What runs of a local cluster: each recorded process alive or not, whether the master answers
 * and which workers it counts as live. The master is asked only when its process is alive, and
 * gives up within seconds.
 */
final class ClusterStatus {
  private final ClusterDirectory dir;
  private final Optional<ClusterState> state;
  private final List<ProcessRecord> alive = new ArrayList<>();
  private final List<ProcessRecord> dead = new ArrayList<>();
  private List<String> liveWorkers = List.of();
  private String masterError;

  private ClusterStatus(ClusterDirectory dir, Optional<ClusterState> state) {
    this.dir = dir;
    this.state = state;
  }

  static ClusterStatus probe(ClusterDirectory dir) throws IOException {
    ClusterStatus status = new ClusterStatus(dir, dir.state());
    boolean masterAlive = false;
    for (ProcessRecord r : status.processes()) {
      if (r.isAlive()) {
        status.alive.add(r);
        masterAlive |= r.name().equals("master");
      } else {
        status.dead.add(r);
      }
    }
    if (masterAlive) {
      Map<String, String> site = dir.siteProperties();
      try {
        status.liveWorkers = ProcessCluster.liveWorkerHosts(site);
      } catch (IOException | RuntimeException e) {
        status.masterError = e.getMessage();
      }
    }
    return status;
  }

  List<ProcessRecord> processes() {
    return state.map(ClusterState::processes).orElse(List.of());
  }

  Optional<ClusterState> state() {
    return state;
  }

  /** Processes of the cluster that are alive. */
  List<ProcessRecord> alive() {
    return alive;
  }

  boolean anyAlive() {
    return !alive.isEmpty();
  }

  /** Every process alive, the master answering, every worker counted live by it. */
  boolean running() {
    if (alive.isEmpty() || !dead.isEmpty() || masterError != null) {
      return false;
    }
    for (ProcessRecord r : alive) {
      if (r.name().startsWith("worker-") && !liveWorkers.contains(r.address())) {
        return false;
      }
    }
    return true;
  }

  int exitCode() {
    return running() ? LocalClusterCommand.OK
        : anyAlive() ? LocalClusterCommand.PARTLY_RUNNING : LocalClusterCommand.NOT_RUNNING;
  }

  void print(PrintWriter out) {
    String p = dir.path().toString();
    if (!dir.isCluster() || state.isEmpty()) {
      out.printf("no eccache cluster in %s (start one: eccache cluster start --dir %s)%n", p, p);
      return;
    }
    String summary = running() ? "running"
        : anyAlive() ? "PARTLY RUNNING (stop it, then start it: eccache cluster stop --dir " + p
            + ")" : "not running (data kept; start it: eccache cluster start --dir " + p + ")";
    out.printf("eccache cluster in %s: %s%n", p, summary);
    for (ProcessRecord r : processes()) {
      String what;
      if (!r.isAlive()) {
        what = "stopped";
      } else if (r.name().equals("master")) {
        what = masterError == null ? "running, answering" : "running, NOT answering: " + masterError;
      } else if (r.name().startsWith("worker-")) {
        what = liveWorkers.contains(r.address()) ? "running, registered"
            : "running, NOT registered with the master";
      } else {
        what = "running";
      }
      out.printf("  %-10s pid %-8d %-24s %s%n", r.name(), r.pid(), r.address(), what);
    }
    if (anyAlive() && masterError == null) {
      long expected = state.get().getLong("workers", -1);
      out.printf("  workers registered: %d of %d%n", liveWorkers.size(), expected);
    }
    Map<String, String> site;
    try {
      site = dir.siteProperties();
    } catch (IOException e) {
      site = Map.of();
    }
    String k = site.get("alluxio.master.eccache.default.k");
    String r = site.get("alluxio.master.eccache.default.r");
    if (k != null && r != null) {
      out.printf("  default code: RS(%s,%s)%n", k, r);
    }
    out.printf("  data: %s (journal, s3/data, worker-*); logs: %s%n", p, dir.logsDir());
    out.printf("export ALLUXIO_CONF_DIR=%s%n", dir.confDir());
  }
}
