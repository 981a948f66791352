package io.eccache.benchmarks.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * What makes a result reproducible, stamped on every summary: the commit of the code that produced
 * it (with "-dirty" when the work tree differs from it), the exact command line, when it started
 * and on how many cores. Shared by the cluster benchmark and the simulator.
 */
public final class RunStamp {
  private final String commit;
  private final String command;
  private final Instant started;
  private final int cores;

  /** A stamp with the given values (for tests and for reports of runs read back). */
  public RunStamp(String commit, String command, Instant started, int cores) {
    this.commit = Objects.requireNonNull(commit, "commit");
    this.command = Objects.requireNonNull(command, "command");
    this.started = Objects.requireNonNull(started, "started");
    this.cores = cores;
  }

  /** The classpath resource the launcher writes when it builds: the commit it built. */
  static final String BUILD_COMMIT = "eccache-build-commit";

  /**
   * This run: the commit of the git work tree at {@code dir}; outside one (a build copied
   * elsewhere, e.g. to run two commits' builds side by side), the commit the launcher built these
   * classes from, if it did; else "unknown (not a git work tree)". Then {@code command}, now, and
   * this machine's cores.
   */
  public static RunStamp capture(Path dir, String command) {
    return new RunStamp(commitOf(dir, builtFrom()), command,
        Instant.now().truncatedTo(ChronoUnit.SECONDS), Runtime.getRuntime().availableProcessors());
  }

  /** The commit in the {@link #BUILD_COMMIT} resource, or null when there is none. */
  private static String builtFrom() {
    try (InputStream in = RunStamp.class.getClassLoader().getResourceAsStream(BUILD_COMMIT)) {
      return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * {@code git rev-parse HEAD}, plus "-dirty" if {@code git status --porcelain} lists anything;
   * outside a work tree {@code builtFrom} (what the launcher built), said so.
   */
  static String commitOf(Path dir, String builtFrom) {
    String head = git(dir, "rev-parse", "HEAD");
    if (head == null || head.isEmpty()) {
      return builtFrom == null || builtFrom.isEmpty() ? "unknown (not a git work tree)"
          : builtFrom + " (as built; run outside a git work tree)";
    }
    String status = git(dir, "status", "--porcelain", "--untracked-files=no");
    return status == null ? head + " (status unknown)" : status.isEmpty() ? head : head + "-dirty";
  }

  /** git's trimmed output, or null when it cannot run or fails; bounded at 30 s. */
  private static String git(Path dir, String... args) {
    List<String> cmd = new java.util.ArrayList<>(List.of("git", "-C", dir.toString()));
    cmd.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
      p.getOutputStream().close();
      String out;
      try (InputStream in = p.getInputStream()) {
        out = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
      }
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return null;
      }
      return p.exitValue() == 0 ? out : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** The commit, with "-dirty" when the tree was modified. */
  public String commit() {
    return commit;
  }

  /** The command line as given. */
  public String command() {
    return command;
  }

  /** When the run started (UTC, to the second). */
  public Instant started() {
    return started;
  }

  /** Cores of the machine it ran on. */
  public int cores() {
    return cores;
  }

  /** For JSON summaries: commit, command, started, cores. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("commit", commit);
    m.put("command", command);
    m.put("started", started.toString());
    m.put("cores", cores);
    return m;
  }

  /** One Markdown line: commit, command, start, cores. */
  public String markdown() {
    return "Commit `" + commit + "`; command `" + command + "`; started " + started + " on "
        + cores + " cores.";
  }

  @Override
  public String toString() {
    return markdown();
  }
}
