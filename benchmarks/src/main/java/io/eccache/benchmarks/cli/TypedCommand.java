package io.eccache.benchmarks.cli;

import java.util.List;
import picocli.CommandLine.Model.CommandSpec;

/** The command line as typed, for the stamp on every result: what to run to regenerate it. */
final class TypedCommand {
  private TypedCommand() {}

  /**
   * "bin/eccache-bench" and the arguments picocli parsed (the subcommand's name included), each
   * quoted for a shell where it needs to be; just the subcommand's name when {@code spec} is null
   * (a command object called directly, as tests do).
   */
  static String of(CommandSpec spec, String name) {
    StringBuilder sb = new StringBuilder("bin/eccache-bench");
    List<String> args = spec == null ? List.of(name)
        : spec.commandLine().getParseResult().originalArgs();
    for (String a : args) {
      boolean plain = !a.isEmpty() && a.matches("[A-Za-z0-9_./:=,+@%-]+");
      sb.append(' ').append(plain ? a : "'" + a.replace("'", "'\\''") + "'");
    }
    return sb.toString();
  }
}
