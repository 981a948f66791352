package io.eccache.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code eccache} command: the cluster commands, on the client alone (no benchmark, no server). */
@Command(name = "eccache", mixinStandardHelpOptions = true, version = "eccache 0.1.0",
    description = "EC-Cache on Alluxio: erasure-coded cluster caching with late binding.",
    subcommands = {PutCommand.class, GetCommand.class, StatCommand.class, ListCommand.class,
        RemoveCommand.class, StatsCommand.class, MaintainCommand.class},
    footer = "%ndemo, bench, sim and check live with the benchmarks: bin/eccache-bench (bin/eccache "
        + "forwards them there).")
public final class EcCacheCli implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /** The command line with eccache's exit codes and one-line error messages. */
  static CommandLine commandLine() {
    return new CommandLine(new EcCacheCli()).setExecutionExceptionHandler(new ExitCodes());
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }
}
