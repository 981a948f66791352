package io.eccache.testkit;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * Checks a command tree's help text. picocli passes every description through
 * {@code String.format}; a bare {@code %} (as in "2% of") makes it print a warning to standard
 * error above the help (and the line unformatted), which only a user asking for help would see.
 */
public final class UsageText {
  private UsageText() {}

  /**
   * The warnings picocli prints while rendering the help of {@code root} and of each of its
   * subcommands, each prefixed with the command's qualified name; empty when all help renders.
   */
  public static synchronized List<String> warnings(CommandLine root) {
    List<String> warnings = new ArrayList<>();
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      collect(root, captured, warnings);
    } finally {
      System.setErr(err);
    }
    return warnings;
  }

  private static void collect(CommandLine command, ByteArrayOutputStream captured,
      List<String> warnings) {
    captured.reset();
    command.getUsageMessage();
    for (String line : captured.toString(StandardCharsets.UTF_8).split("\n")) {
      if (line.contains("WARN")) {
        warnings.add(command.getCommandSpec().qualifiedName() + ": " + line);
      }
    }
    for (CommandLine sub : command.getSubcommands().values()) {
      collect(sub, captured, warnings);
    }
  }
}
