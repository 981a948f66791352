package io.eccache.benchmarks.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.IntSupplier;

/** A command run in this JVM with what it printed on standard output captured. */
final class CapturedRun {
  final int exit;
  final String stdout;

  private CapturedRun(int exit, String stdout) {
    this.exit = exit;
    this.stdout = stdout;
  }

  /** Runs {@code command} (returning its exit code) with System.out captured, then restored. */
  static CapturedRun of(IntSupplier command) {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    int exit;
    try {
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      exit = command.getAsInt();
    } finally {
      System.setOut(stdout);
    }
    return new CapturedRun(exit, captured.toString(StandardCharsets.UTF_8));
  }
}
