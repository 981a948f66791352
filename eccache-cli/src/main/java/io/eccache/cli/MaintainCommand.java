package io.eccache.cli;

import io.eccache.client.EcCacheClient;
import io.eccache.client.RedundancyMaintainer;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code eccache maintain}: a maintenance process for a running cluster (from the
 * {@code alluxio-site.properties} Alluxio reads): repairs splits lost with a worker and carries out
 * the coordinator's re-tuning, outside the master, until stopped.
 */
@Command(name = "maintain", mixinStandardHelpOptions = true,
    description = "Repair lost splits and apply re-tuning for the cluster (alluxio-site.properties"
        + " or --master), until stopped (Ctrl-C).")
final class MaintainCommand implements Callable<Integer>, ClusterCommand {
  @Mixin ClusterOptions cluster;

  @Override
  public ClusterOptions cluster() {
    return cluster;
  }

  @Option(names = "--period-ms", description = "How often to ask the coordinator for work "
      + "(default ${DEFAULT-VALUE}).")
  long periodMs = 1000;

  @Option(names = "--once", description = "Do the work planned now, then exit.")
  boolean once;

  @Override
  public Integer call() throws Exception {
    try (EcCacheClient cache = cluster.connect();
        RedundancyMaintainer maintainer = RedundancyMaintainer.create(cache)) {
      if (once) {
        System.out.println("tasks done: " + maintainer.runOnce());
        return 0;
      }
      maintainer.start(periodMs);
      while (!Thread.currentThread().isInterrupted()) {
        Thread.sleep(10_000);
        System.err.printf("eccache maintain: %d tasks done, %.1f MB moved%n",
            maintainer.tasksDone(), maintainer.bytesMoved() / 1e6);
      }
    }
    return 0;
  }
}
