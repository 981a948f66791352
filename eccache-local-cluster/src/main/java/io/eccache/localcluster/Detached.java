package io.eccache.localcluster;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Makes a child outlive the JVM that starts it and the terminal it was started from: it runs under
 * {@code setsid} (a session of its own, so no SIGHUP when the terminal closes and no SIGINT from
 * Ctrl-C in it) with standard input from /dev/null. A JVM's children are never process-group
 * leaders, so setsid does not fork: the child's pid is the server's pid, which stop and status use.
 */
final class Detached {
  private static final Path SETSID = find();

  private Detached() {}

  static ProcessBuilder apply(ProcessBuilder builder) {
    if (SETSID != null) {
      builder.command().add(0, SETSID.toString());
    }
    return builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
  }

  /** Whether children get a session of their own (util-linux's setsid is installed). */
  static boolean hasSetsid() {
    return SETSID != null;
  }

  private static Path find() {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
      Path candidate = Paths.get(dir.isEmpty() ? "." : dir, "setsid");
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    for (String fixed : new String[] {"/usr/bin/setsid", "/bin/setsid"}) {
      if (Files.isExecutable(Paths.get(fixed))) {
        return Paths.get(fixed);
      }
    }
    return null;
  }
}
