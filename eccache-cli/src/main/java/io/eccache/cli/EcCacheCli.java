package io.eccache.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code eccache} command. */
@Command(name = "eccache", mixinStandardHelpOptions = true, version = "eccache 0.1.0",
    description = "EC-Cache on Alluxio: erasure-coded cluster caching with late binding.",
    subcommands = {DemoCommand.class, BenchCommand.class, SimCommand.class,
        MaintainCommand.class})
public final class EcCacheCli implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new EcCacheCli()).execute(args));
  }
}
