package io.eccache.benchmarks.report;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * What a result was produced from, for its summary: the commit (with "dirty" when the work tree had
 * uncommitted changes), the command line and the settings. Immutable.
 */
public final class RunStamp {
  /** How long a git query may take before the commit is reported unknown. */
  private static final long GIT_TIMEOUT_SECONDS = 10;

  private final String commit;
  private final String command;
  private final Map<String, String> settings;

  /**
   * @param commit e.g. {@code 1a2b3c4 (dirty)}
   * @param command the command line, as a user would type it
   * @param settings name to value, in the order to print
   */
  public RunStamp(String commit, String command, Map<String, String> settings) {
    this.commit = Objects.requireNonNull(commit, "commit");
    this.command = Objects.requireNonNull(command, "command");
    this.settings = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(settings));
  }

  /**
   * Stamps a run of this process from the git work tree it runs in.
   *
   * @param launcher the command's name as typed, e.g. {@code bin/eccache-bench sim}
   * @param args the arguments it was given
   * @param settings name to value, in the order to print
   * @return the stamp; the commit is "unknown (...)" outside a git work tree or without git
   */
  public static RunStamp of(String launcher, List<String> args, Map<String, String> settings) {
    List<String> words = new ArrayList<>();
    words.add(launcher);
    for (String a : args) {
      words.add(a.isEmpty() || a.matches(".*[\\s'\"$`\\\\|&;<>()*?].*")
          ? "'" + a.replace("'", "'\\''") + "'" : a);
    }
    return new RunStamp(commit(Path.of("").toAbsolutePath()), String.join(" ", words), settings);
  }

  /**
   * @param dir a directory inside a git work tree
   * @return the short commit of HEAD, with " (dirty)" if tracked files differ from it; "unknown (why)"
   *     if git cannot tell
   */
  public static String commit(Path dir) {
    try {
      String head = git(dir, "rev-parse", "--short=12", "HEAD").trim();
      boolean dirty = !git(dir, "status", "--porcelain", "--untracked-files=no").trim().isEmpty();
      return dirty ? head + " (dirty)" : head;
    } catch (IOException e) {
      return "unknown (" + e.getMessage() + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown (interrupted)";
    }
  }

  private static String git(Path dir, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add("git");
    command.add("-C");
    command.add(dir.toString());
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (InputStream in = p.getInputStream()) {
      // git's output here is a line or a short list; read it before waiting so a full pipe cannot block.
      in.transferTo(out);
    }
    if (!p.waitFor(GIT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException("git " + String.join(" ", args) + " took over " + GIT_TIMEOUT_SECONDS + " s");
    }
    String text = out.toString(StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      throw new IOException("git " + String.join(" ", args) + " failed: " + text.trim());
    }
    return text;
  }

  /** @return the commit, e.g. {@code 1a2b3c4d5e6f (dirty)} */
  public String commit() {
    return commit;
  }

  /** @return the command line */
  public String command() {
    return command;
  }

  /** @return the settings, in order; unmodifiable */
  public Map<String, String> settings() {
    return settings;
  }

  /** @return Markdown lines: commit, command and the settings as one list */
  public String markdown() {
    StringBuilder b = new StringBuilder();
    b.append("Commit: `").append(commit).append("`. Command: `").append(command).append("`.\n");
    if (!settings.isEmpty()) {
      b.append("Settings: ");
      boolean first = true;
      for (Map.Entry<String, String> e : settings.entrySet()) {
        b.append(first ? "" : ", ").append(e.getKey()).append(" = ").append(e.getValue());
        first = false;
      }
      b.append(".\n");
    }
    return b.toString();
  }
}
