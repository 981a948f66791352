package io.eccache.benchmarks.cli;

import io.eccache.cli.ExitCodes;
import io.eccache.common.EcCacheVersion;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code eccache-bench} command: the demo, the cluster benchmark, the simulator, the
 * consistency checker and the data-path benchmark. They need the in-process cluster (Alluxio's
 * master and worker) and the reports' plotting (XChart), so they live here rather than in the
 * product's {@code eccache} command;
 * {@code bin/eccache demo|bench|sim|check} forwards to {@code bin/eccache-bench}.
 */
@Command(name = "eccache-bench", mixinStandardHelpOptions = true, versionProvider = EcCacheBench.Version.class,
    description = "EC-Cache on Alluxio: the demo, the cluster benchmark, the simulator, the"
        + " consistency checker and the data-path benchmark.",
    subcommands = {DemoCommand.class, BenchCommand.class, SimCommand.class, CheckCommand.class,
        DatapathCommand.class, AgarSimCommand.class, AgarCommand.class,
        PackedCheckCommand.class, LogEcMemCommand.class, PackedBenchCommand.class})
public final class EcCacheBench implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /** The command line with eccache's exit codes and one-line error messages. */
  static CommandLine commandLine() {
    return new CommandLine(new EcCacheBench()).setExecutionExceptionHandler(new ExitCodes());
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** {@code --version}: this build's version, from {@link EcCacheVersion}. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"eccache-bench " + EcCacheVersion.current()};
    }
  }
}
