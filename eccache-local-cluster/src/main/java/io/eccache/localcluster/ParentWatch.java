package io.eccache.localcluster;

import java.lang.reflect.InvocationTargetException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The main class of a cluster's child JVM that must not outlive the JVM that started it: it halts
 * its JVM once that one is gone, then runs the real main class. A shutdown hook kills the children
 * when their parent exits, but a parent that is SIGKILLed (a timed-out CI run, a benchmark the
 * kernel's OOM killer chose, kill -9) runs no hook, and its master, workers and S3 server stayed
 * behind holding memory, ports and {@code /dev/shm}. Detached children (see {@link Detached}) are
 * meant to outlive it and are not started through this.
 *
 * <p>Usage: {@code java -cp ... io.eccache.localcluster.ParentWatch <parent pid> <main class>
 * [args...]}. The parent is polled every {@value #POLL_MS} ms; its start time is part of its
 * handle, so a new process reusing its pid does not count as the parent.
 */
public final class ParentWatch {
  static final long POLL_MS = 500;

  private ParentWatch() {}

  /** The command that runs {@code mainClass} with {@code args} under a watch of this JVM. */
  static List<String> wrap(String mainClass, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(ParentWatch.class.getName());
    command.add(String.valueOf(ProcessHandle.current().pid()));
    command.add(mainClass);
    command.addAll(args);
    return command;
  }

  /** Where this class is loaded from (a classes directory or a jar), for a child's class path. */
  static Path codeLocation() {
    try {
      return Paths.get(ParentWatch.class.getProtectionDomain().getCodeSource().getLocation()
          .toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot locate eccache-local-cluster's classes", e);
    }
  }

  public static void main(String[] args) throws Throwable {
    if (args.length < 2) {
      System.err.println("usage: ParentWatch <parent pid> <main class> [args...]");
      System.exit(2);
    }
    Optional<ProcessHandle> parent = ProcessHandle.of(Long.parseLong(args[0]));
    if (parent.isEmpty() || !parent.get().isAlive()) {
      System.err.println("ParentWatch: process " + args[0] + " is gone; not starting " + args[1]);
      System.exit(137);
    }
    Thread watch = new Thread(() -> {
      while (parent.get().isAlive()) {
        try {
          Thread.sleep(POLL_MS);
        } catch (InterruptedException e) {
          return;
        }
      }
      System.err.println("ParentWatch: process " + args[0] + " is gone; halting");
      Runtime.getRuntime().halt(137); // as the SIGKILL its parent's shutdown hook would have sent
    }, "eccache-parent-watch");
    watch.setDaemon(true);
    watch.start();
    try {
      Class.forName(args[1]).getMethod("main", String[].class)
          .invoke(null, (Object) Arrays.copyOfRange(args, 2, args.length));
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
