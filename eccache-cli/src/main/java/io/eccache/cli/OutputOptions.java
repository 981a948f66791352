package io.eccache.cli;

import picocli.CommandLine.Option;

/** Output switches shared by the commands that talk to a cluster. */
final class OutputOptions {
  @Option(names = "--json", description = "Print the result as JSON on stdout, for scripts.")
  boolean json;

  @Option(names = {"-q", "--quiet"}, description = "No progress bar.")
  boolean quiet;

  @Option(names = "--progress", description = "A progress bar even when stderr is not a terminal.")
  boolean progress;

  /** Whether to draw a progress bar: on a terminal unless --quiet, or when asked. */
  boolean showProgress() {
    return progress || (!quiet && System.console() != null);
  }
}
