package io.eccache.cli;

import java.io.IOException;
import java.nio.file.Files;
import io.eccache.common.EcCacheHome;
import io.eccache.common.EcCacheVersion;
import java.nio.file.Path;
import org.slf4j.bridge.SLF4JBridgeHandler;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code eccache} command: the cluster commands, on the client alone (no benchmark, no server). */
@Command(name = "eccache", mixinStandardHelpOptions = true, versionProvider = EcCacheCli.Version.class,
    description = "EC-Cache on Alluxio: erasure-coded cluster caching with late binding.",
    subcommands = {PutCommand.class, GetCommand.class, StatCommand.class, ListCommand.class,
        RemoveCommand.class, StatsCommand.class, MaintainCommand.class},
    footer = {"%nLibraries log to $ECCACHE_LOG_DIR/cli.log (default $ECCACHE_HOME/logs, else"
        + " ~/.eccache/logs).",
        "cluster start|stop|status: a local cluster of real processes (S3, master, workers) for"
        + " these commands: bin/eccache-cluster (bin/eccache cluster forwards there).",
        "demo, bench, sim and check live with the benchmarks: bin/eccache-bench (bin/eccache "
        + "forwards them there)."})
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
    logToFile();
    System.exit(commandLine().execute(args));
  }

  /**
   * Sends every library's logging to the log file (log4j2.xml), before anything logs: gRPC's
   * java.util.logging through SLF4J too, so nothing but the command's own lines reaches the terminal.
   */
  static void logToFile() {
    if (System.getProperty("eccache.log.dir") == null) {
      String env = System.getenv("ECCACHE_LOG_DIR");
      Path dir = env != null && !env.isEmpty() ? Path.of(env)
          : EcCacheHome.current().resolve("logs");
      if (!writableDirectory(dir)) {
        dir = Path.of(System.getProperty("java.io.tmpdir"),
            "eccache-logs-" + System.getProperty("user.name"));
        writableDirectory(dir);
      }
      System.setProperty("eccache.log.dir", dir.toString());
    }
    SLF4JBridgeHandler.removeHandlersForRootLogger();
    SLF4JBridgeHandler.install();
  }

  private static boolean writableDirectory(Path dir) {
    try {
      Files.createDirectories(dir);
      return Files.isWritable(dir);
    } catch (IOException | SecurityException e) {
      return false;
    }
  }

  /** {@code --version}: this build's version, from {@link EcCacheVersion}. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"eccache " + EcCacheVersion.current()};
    }
  }
}
