package io.eccache.cli;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The eccache command as a user runs it: a separate JVM on the module's runtime classpath (what
 * bin/eccache puts together), for tests that need a process of its own (its exit, its terminal, its
 * JVM-wide state such as Alluxio's metrics sinks).
 */
final class CliProcess {
  private CliProcess() {}

  /** {@code java ... EcCacheCli ARGS}, with {@code jvmOptions} before the class. */
  static List<String> command(List<String> jvmOptions, String... args) throws Exception {
    return java(jvmOptions, EcCacheCli.class, args);
  }

  /**
   * {@code java ... MAIN ARGS} on the module's runtime classpath, plus its test classes when
   * {@code main} is one of them.
   */
  static List<String> java(List<String> jvmOptions, Class<?> main, String... args)
      throws Exception {
    String classpath = Path.of("target", "classes").toAbsolutePath() + File.pathSeparator
        + Path.of("target", "test-classes").toAbsolutePath() + File.pathSeparator
        + Files.readString(Path.of("target", "runtime-classpath.txt"), StandardCharsets.UTF_8)
            .trim();
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
        "-Dio.netty.tryReflectionSetAccessible=true", "-Xshare:auto", "-XX:TieredStopAtLevel=1"));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", classpath, main.getName()));
    command.addAll(List.of(args));
    return command;
  }
}
