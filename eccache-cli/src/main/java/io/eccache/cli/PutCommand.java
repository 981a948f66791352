package io.eccache.cli;

import com.google.common.io.CountingInputStream;
import io.eccache.client.EcCacheClient;
import io.eccache.client.LocalInput;
import io.eccache.client.ObjectStat;
import io.eccache.client.PutOptions;
import io.eccache.client.WriteMode;
import java.io.BufferedInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code eccache put FILE KEY}: stores a file (or stdin, {@code -}), streaming, and shows how it is
 * stored. Source first, as in {@code cp}, {@code aws s3 cp} and {@code alluxio fs copyFromLocal}.
 */
@Command(name = "put", mixinStandardHelpOptions = true,
    description = "Store FILE ('-' for stdin) under KEY, replacing any previous version atomically.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:stored", "1:failed", "2:bad command line (e.g. KEY FILE, the old order)",
        "4:cluster, workers or S3 unavailable: retry", "5:refused (bad key or scheme, "
        + "k + r above the live workers)", "6:FILE missing, unreadable or a directory"})
final class PutCommand implements Callable<Integer>, ClusterCommand {
  @Parameters(index = "0", paramLabel = "FILE", description = "File to store; '-' reads stdin.")
  String file;

  @Parameters(index = "1", paramLabel = "KEY", description = "Object key, e.g. logs/2026/11/22.")
  String key;

  @Option(names = {"-s", "--scheme"}, paramLabel = "SCHEME", defaultValue = "default",
      converter = SchemeConverter.class,
      description = "default (the coordinator chooses and re-tunes), rs-K-R (or K+R), replica-N or "
          + "partition-K (default: ${DEFAULT-VALUE}).")
  PutOptions scheme;

  @Option(names = {"-w", "--write-mode"}, paramLabel = "MODE", defaultValue = "CACHE_ONLY",
      description = "CACHE_ONLY, THROUGH (also to S3 before returning) or ASYNC (to S3 after); "
          + "default ${DEFAULT-VALUE}.")
  WriteMode writeMode;

  @Option(names = "--metrics", description = "After the command, print this client's own metrics"
      + " (splits read and cancelled, bytes, decode and encode times, bytes per worker) on stderr"
      + " (in the JSON with --json).")
  boolean metrics;

  @Mixin ClusterOptions cluster;
  @Mixin OutputOptions output;
  @Spec CommandSpec spec;

  @Override
  public ClusterOptions cluster() {
    return cluster;
  }

  @Override
  public Integer call() throws Exception {
    checkOrder(file, key);
    // The local side first: a missing or unreadable FILE fails before the cluster is contacted.
    LocalInput input = LocalInput.open(file);
    long started = System.nanoTime();
    try (CountingInputStream in = new CountingInputStream(
            new BufferedInputStream(input.stream(), 1 << 20));
        EcCacheClient cache = cluster.connect();
        TransferProgress progress = new TransferProgress("put " + key, input.length(),
            in::getCount, spec.commandLine().getErr(), output.showProgress())) {
      // A file's SHA-256, for stat to show as sha256sum prints it (API PUTs skip it by default).
      cache.put(key, (InputStream) in, input.length(),
          scheme.writeMode(writeMode).sha256(true));
      double seconds = (System.nanoTime() - started) / 1e9;
      ObjectStat stat = cache.stat(key);
      if (output.json) {
        Map<String, Object> result = Json.of(stat);
        result.put("seconds", seconds);
        if (metrics) {
          result.put("clientMetrics", ClientMetricsReport.of(cache));
        }
        Json.print(spec.commandLine().getOut(), result);
      } else {
        spec.commandLine().getOut().printf("put %s: %s as %s%s in %.2f s (%s/s)%n", key,
            ByteSizes.format(stat.size()), stat.scheme().describe(),
            writeMode == WriteMode.CACHE_ONLY ? "" : ", " + writeMode, seconds,
            ByteSizes.format((long) (stat.size() / Math.max(seconds, 1e-9))));
        if (metrics) {
          ClientMetricsReport.print(spec.commandLine().getErr(), cache);
        }
      }
    }
    return ExitCodes.OK;
  }

  /**
   * Refuses the old order ({@code put KEY FILE}) when it is certain: the first argument names no
   * local file and is not {@code -}, while the second names an existing regular file.
   */
  static void checkOrder(String first, String second) {
    if (!"-".equals(first) && !Files.exists(Path.of(first))
        && Files.isRegularFile(Path.of(second))) {
      throw new UsageException("FILE comes first, then KEY: eccache put " + second + " " + first
          + " ('" + first + "' is no local file, '" + second + "' is)");
    }
  }

  /** Parses {@code --scheme} with {@link PutOptions#parse}. */
  static final class SchemeConverter implements picocli.CommandLine.ITypeConverter<PutOptions> {
    @Override
    public PutOptions convert(String value) {
      return PutOptions.parse(value);
    }
  }
}
