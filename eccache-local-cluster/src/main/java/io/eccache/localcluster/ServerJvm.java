package io.eccache.localcluster;

import alluxio.wire.WorkerNetAddress;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * How this JVM starts an Alluxio server (master, worker, journal format) as a JVM of its own: on
 * this JVM's classpath, with what Alluxio 2.9 needs on Java 17, reading its site properties from a
 * configuration directory and logging to {@code <dir>/logs/<name>.log}. {@link ProcessCluster}
 * starts every server this way; {@code EmbeddedCluster} its workers when they must be killable.
 */
public final class ServerJvm {
  private final Path dir;
  private final Path confDir;
  private final boolean detached;

  /**
   * @param dir the cluster's directory; logs go to its {@code logs}
   * @param confDir the directory holding {@code alluxio-site.properties} and {@code log4j2.xml}
   * @param detached whether children outlive this JVM (sessions of their own); else each dies with
   *     this JVM, even when it is SIGKILLed
   */
  public ServerJvm(Path dir, Path confDir, boolean detached) {
    this.dir = dir;
    this.confDir = confDir;
    this.detached = detached;
  }

  /**
   * Writes {@code site} as the servers' {@code alluxio-site.properties}, and a log4j2 configuration
   * sending each server's log to its own file.
   */
  public static void writeConf(Path confDir, Map<String, String> site) throws IOException {
    Files.createDirectories(confDir);
    Properties p = new Properties();
    p.putAll(site);
    try (Writer out = Files.newBufferedWriter(confDir.resolve("alluxio-site.properties"),
        StandardCharsets.UTF_8)) {
      p.store(out, "eccache cluster");
    }
    Files.writeString(confDir.resolve("log4j2.xml"), String.join("\n",
        "<Configuration status=\"WARN\">",
        "  <Appenders>",
        "    <File name=\"file\" fileName=\"${sys:eccache.log.file}\">",
        "      <PatternLayout pattern=\"%d{HH:mm:ss.SSS} %-5level [%t] %c{1} - %msg%n\"/>",
        "    </File>",
        "  </Appenders>",
        "  <Loggers>",
        "    <Root level=\"INFO\"><AppenderRef ref=\"file\"/></Root>",
        "  </Loggers>",
        "</Configuration>", ""));
  }

  /**
   * Starts {@code mainClass} as server {@code name} with {@code jvmOptions} (heap, collector) and
   * {@code properties} (per-server {@code -D} options) after them.
   */
  public Process launch(String name, String mainClass, List<String> args, List<String> jvmOptions,
      String... properties) throws IOException {
    Files.createDirectories(dir.resolve("logs"));
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(ProcessCluster.JAVA17_OPTIONS);
    command.add("-Dalluxio.conf.dir=" + confDir);
    command.add("-Dalluxio.logs.dir=" + dir.resolve("logs")); // a JVM property only
    command.add("-Dlog4j.configurationFile=" + confDir.resolve("log4j2.xml"));
    command.add("-Deccache.log.file=" + dir.resolve("logs").resolve(name + ".log"));
    command.addAll(Arrays.asList(properties));
    command.addAll(List.of("-cp", System.getProperty("java.class.path")));
    // Attached children die with this JVM even when it is SIGKILLed (no shutdown hook runs then).
    if (detached) {
      command.add(mainClass);
      command.addAll(args);
    } else {
      command.addAll(ParentWatch.wrap(mainClass, args));
    }
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(
            dir.resolve("logs").resolve(name + ".out").toFile()));
    builder.environment().put("MALLOC_ARENA_MAX", "2");
    return (detached ? Detached.apply(builder) : builder).start();
  }

  /**
   * The {@code -D} options of a worker on loopback address {@code host} with its memory tier in
   * {@code tier}: its identity and store, the rest from the site properties.
   */
  public static String[] workerOptions(String host, Path tier) {
    return new String[] {"-Dalluxio.worker.hostname=" + host, "-Dalluxio.worker.bind.host=" + host,
        "-Dalluxio.worker.web.bind.host=" + host, "-Dalluxio.worker.web.hostname=" + host,
        "-Dalluxio.worker.tieredstore.level0.dirs.path=" + tier, "-Dalluxio.locality.node=" + host};
  }

  /** Whether a worker's RPC port at {@code address} accepts a connection within a second. */
  public static boolean accepts(WorkerNetAddress address) {
    try (java.net.Socket socket = new java.net.Socket()) {
      socket.connect(new java.net.InetSocketAddress(address.getHost(), address.getRpcPort()), 1000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Kills {@code p} with SIGKILL, as a crash, and waits (at most 30 s) until it is gone. */
  public static void kill(Process p, String what) throws IOException {
    if (p == null) {
      return;
    }
    p.destroyForcibly(); // SIGKILL on Linux
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        throw new IOException(what + " (pid " + p.pid() + ") survived SIGKILL for 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while killing " + what, e);
    }
  }

  /**
   * Sends {@code p} the signal {@code signal} ("STOP", "CONT") with the system's {@code kill}
   * (Java sends only TERM and KILL); returns once it is sent.
   */
  public static void signal(Process p, String signal, String what) throws IOException {
    if (p == null || !p.isAlive()) {
      throw new IOException(what + " is not running: nothing to send SIG" + signal + " to");
    }
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid()))
        .redirectErrorStream(true).start();
    try {
      if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        kill.destroyForcibly();
        throw new IOException("kill -" + signal + " " + p.pid() + " (" + what + ") failed: "
            + new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while sending SIG" + signal + " to " + what, e);
    }
  }

  /** Stops {@code p} politely (SIGTERM), with SIGKILL after 30 s. */
  public static void stop(Process p, String what) throws IOException {
    if (p == null) {
      return;
    }
    p.destroy();
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        kill(p, what);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      kill(p, what);
    }
  }

  /** The last lines of server {@code name}'s logs, for an error message. */
  public String logTail(String name) {
    StringBuilder tail = new StringBuilder();
    for (String suffix : List.of(".log", ".out")) {
      Path log = dir.resolve("logs").resolve(name + suffix);
      try {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        tail.append("\n--- ").append(log).append(" (last lines) ---\n")
            .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 15),
                lines.size())));
      } catch (IOException e) {
        // no such log
      }
    }
    return tail.toString();
  }
}
