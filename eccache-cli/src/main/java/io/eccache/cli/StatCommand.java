package io.eccache.cli;

import io.eccache.client.EcCacheClient;
import io.eccache.client.ObjectStat;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code eccache stat KEY}: how an object is stored, its health and popularity (not counted as a read). */
@Command(name = "stat", mixinStandardHelpOptions = true,
    description = "Show how KEY is stored: its scheme (and the coordinator's target), live "
        + "splits, memory, S3 copy, popularity, commit time and SHA-256.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:shown", "1:failed", "2:bad command line", "3:no such key",
        "4:cluster unavailable"})
final class StatCommand implements Callable<Integer>, ClusterCommand {
  @Parameters(paramLabel = "KEY", description = "Object key.")
  String key;

  @Mixin ClusterOptions cluster;
  @Mixin OutputOptions output;
  @Spec CommandSpec spec;

  @Override
  public ClusterOptions cluster() {
    return cluster;
  }

  @Override
  public Integer call() throws Exception {
    try (EcCacheClient cache = cluster.connect()) {
      ObjectStat s = cache.stat(key);
      PrintWriter out = spec.commandLine().getOut();
      if (output.json) {
        Json.print(out, Json.of(s));
        return ExitCodes.OK;
      }
      out.printf("key:          %s%n", s.key());
      out.printf("size:         %s (%d bytes)%n", ByteSizes.format(s.size()),
          s.size());
      out.printf("stored as:    %s (%s)%s%n", s.scheme().describe(), s.scheme(), s.tuned()
          ? (!s.target().equals(s.scheme()) ? ", tuned (target " + s.target().describe() + ")"
              : ", tuned")
          : ", fixed");
      out.printf("live splits:  %d of %d (any %d read it)%n", s.liveSplits(), s.scheme().splits(),
          s.scheme().splitsToRead());
      if (s.packed().isPresent()) {
        out.printf("packed:       %s%n", s.packed().get());
      } else {
        out.printf("stripes:      %d%n", s.stripes());
      }
      out.printf("memory:       %s (%.2fx)%n", ByteSizes.format(s.cachedBytes()),
          s.size() == 0 ? 0 : (double) s.cachedBytes() / s.size());
      out.printf("in S3:        %s%n", s.persisted() ? "yes" : "no (cache only)");
      out.printf("popularity:   %.2f accesses per period%n", s.popularity());
      out.printf("committed:    %s%n", s.committed().map(ListCommand::formatTime)
          .orElse("not recorded (written before eccache kept it)"));
      // As sha256sum prints it, so `sha256sum FILE` can be compared by eye or with grep.
      out.printf("sha256:       %s%n", s.sha256().map(h -> h + "  " + s.key())
          .orElse("not recorded (written before eccache kept checksums)"));
    }
    return ExitCodes.OK;
  }
}
