package io.eccache.localcluster;

import io.eccache.common.EcCacheHome;
import io.eccache.common.EcCacheVersion;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/**
 * {@code eccache cluster start|stop|status}: a cluster of real processes on this machine for a new
 * user, without Docker: an S3 server (s3proxy, files on disk) on loopback, an Alluxio master with the
 * coordinator plugin and N workers on 127.0.0.2, .3, ..., all from this project's jars. It runs
 * detached from the terminal, keeps its journal, S3 data and worker tiers across stop and start,
 * and writes the alluxio-site.properties that the eccache command and {@code alluxio fs} read.
 */
@Command(name = "eccache cluster", mixinStandardHelpOptions = true, versionProvider = LocalClusterCommand.Version.class,
    description = "A local eccache cluster of real processes: S3 (s3proxy) on loopback, an Alluxio "
        + "master with the coordinator plugin and N workers on 127.0.0.2, .3, ...",
    subcommands = {StartCommand.class, StopCommand.class, StatusCommand.class},
    footer = {"%nExit status: 0 done (status: running), 1 failed, 2 bad command line,",
        "3 not running (status), 4 partly running (status: stop, then start)."})
public final class LocalClusterCommand implements Runnable {
  /** Done; for status: running. */
  public static final int OK = 0;
  /** Failed (the message says why and what to do). */
  public static final int FAILED = 1;
  /** Bad command line. */
  public static final int USAGE = CommandLine.ExitCode.USAGE;
  /** status: no process of the cluster runs. */
  public static final int NOT_RUNNING = 3;
  /** status: some processes run, or the master does not answer, or a worker is not registered. */
  public static final int PARTLY_RUNNING = 4;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The option every subcommand takes: which cluster. */
  static final class DirOption {
    @Option(names = "--dir", paramLabel = "DIR",
        description = "The cluster's directory: configuration, journal, S3 data, worker tiers, logs "
            + "(default: $ECCACHE_HOME/cluster, else ~/.eccache/cluster with ~ as $HOME).")
    Path dir;

    ClusterDirectory directory() {
      return new ClusterDirectory(dir != null ? dir : EcCacheHome.current().resolve("cluster"));
    }
  }

  /** The command line, printing to {@code out} and {@code err}, with one-line failures. */
  public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
    CommandLine cl = new CommandLine(new LocalClusterCommand());
    cl.setOut(out);
    cl.setErr(err);
    cl.setExecutionExceptionHandler(new Failures());
    return cl;
  }

  /** Runs the command with these arguments; returns its exit status. */
  public static int execute(PrintWriter out, PrintWriter err, String... args) {
    try {
      return commandLine(out, err).execute(args);
    } finally {
      out.flush();
      err.flush();
    }
  }

  /**
   * The entry point of bin/eccache-cluster. This JVM's own logging stays quiet (what matters is
   * printed); the cluster's processes log to {@code <dir>/logs}.
   */
  public static void main(String[] args) {
    if (System.getProperty("log4j.configurationFile") == null
        && System.getProperty("log4j2.configurationFile") == null) {
      System.setProperty("log4j.configurationFile", "eccache-cluster-log4j2.xml");
    }
    int status = execute(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
    System.exit(status);
  }

  /** A failure: {@code eccache cluster COMMAND: message} on stderr and its exit status. */
  static final class Failures implements IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception e, CommandLine cl, ParseResult parsed) {
      String name = cl.getCommandSpec().qualifiedName();
      int status = FAILED;
      String message;
      if (e instanceof ClusterException) {
        status = ((ClusterException) e).exitCode();
        message = e.getMessage();
      } else if (e instanceof IllegalArgumentException) {
        status = USAGE;
        message = e.getMessage();
      } else {
        message = e.toString();
      }
      cl.getErr().println(name + ": " + message);
      if (Boolean.getBoolean("eccache.debug")) {
        e.printStackTrace(cl.getErr());
      }
      return status;
    }
  }

  /** {@code --version}: this build's version, from {@link EcCacheVersion}. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"eccache cluster " + EcCacheVersion.current()};
    }
  }
}
