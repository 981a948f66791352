package io.eccache.localcluster;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code eccache cluster status}: each process, the master's answer, the workers it counts. */
@Command(name = "status", mixinStandardHelpOptions = true,
    description = "Show each process of the local cluster (pid, address, alive), whether the master "
        + "answers and which workers it counts as live. Exit status 0 when running, 3 when not, 4 "
        + "when partly.")
final class StatusCommand implements Callable<Integer> {
  @Mixin
  LocalClusterCommand.DirOption dir;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    ClusterStatus status = ClusterStatus.probe(dir.directory());
    status.print(spec.commandLine().getOut());
    return status.exitCode();
  }
}
