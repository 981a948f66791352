package io.eccache.cli;

import alluxio.exception.status.NotFoundException;
import io.eccache.client.EcCacheClient;
import io.eccache.client.ObjectStat;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code eccache ls [PREFIX]}: the keys stored, optionally with size and scheme. */
@Command(name = "ls", mixinStandardHelpOptions = true,
    description = "List the keys that start with PREFIX (all keys without one).")
final class ListCommand implements Callable<Integer>, ClusterCommand {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneId.systemDefault());

  @Parameters(paramLabel = "PREFIX", arity = "0..1", defaultValue = "",
      description = "Key prefix, e.g. logs/2026/.")
  String prefix;

  @Option(names = {"-l", "--long"}, description = "A table with a header: size, scheme, live "
      + "splits, S3 copy and commit time of each key.")
  boolean details;

  @Mixin ClusterOptions cluster;
  @Mixin OutputOptions output;
  @Spec CommandSpec spec;

  @Override
  public ClusterOptions cluster() {
    return cluster;
  }

  /** A commit time as {@code ls -l} shows it, in this machine's time zone. */
  static String formatTime(Instant time) {
    return TIME.format(time);
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    try (EcCacheClient cache = cluster.connect()) {
      List<String> keys = cache.list(prefix);
      if (!details && !output.json) {
        keys.forEach(out::println);
        return ExitCodes.OK;
      }
      List<Map<String, Object>> rows = new ArrayList<>();
      if (!output.json) {
        out.printf("%10s  %-14s %-7s %-3s %-16s  %s%n", "SIZE", "SCHEME", "LIVE", "S3", "COMMITTED",
            "KEY");
      }
      for (String key : keys) {
        ObjectStat s;
        try {
          s = cache.stat(key);
        } catch (NotFoundException deletedMeanwhile) {
          continue;
        }
        if (output.json) {
          rows.add(Json.of(s));
        } else {
          out.printf("%10s  %-14s %-7s %-3s %-16s  %s%n", ByteSizes.format(s.size()),
              s.scheme().describe(), s.liveSplits() + "/" + s.scheme().splits(),
              s.persisted() ? "yes" : "-", s.committed().map(ListCommand::formatTime).orElse("-"),
              s.key());
        }
      }
      if (output.json) {
        Json.print(out, rows);
      }
    }
    return ExitCodes.OK;
  }
}
