package io.eccache.cli;

import com.google.common.io.CountingInputStream;
import io.eccache.client.EcCacheClient;
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

/** {@code eccache put KEY [FILE]}: stores a file (or stdin), streaming, and shows how it is stored. */
@Command(name = "put", mixinStandardHelpOptions = true,
    description = "Store FILE (or stdin) under KEY, replacing any previous version atomically.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:stored", "1:failed", "2:bad command line", "3:FILE not found",
        "4:cluster, workers or S3 unavailable: retry", "5:refused (bad key or scheme, "
        + "k + r above the live workers)"})
final class PutCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "KEY", description = "Object key, e.g. logs/2026/11/22.")
  String key;

  @Parameters(index = "1", paramLabel = "FILE", arity = "0..1", defaultValue = "-",
      description = "File to store; '-' or none reads stdin.")
  String file;

  @Option(names = {"-s", "--scheme"}, paramLabel = "SCHEME", defaultValue = "default",
      converter = SchemeConverter.class,
      description = "default (the coordinator chooses and re-tunes), rs-K-R (or K+R), replica-N or "
          + "partition-K (default: ${DEFAULT-VALUE}).")
  PutOptions scheme;

  @Option(names = {"-w", "--write-mode"}, paramLabel = "MODE", defaultValue = "CACHE_ONLY",
      description = "CACHE_ONLY, THROUGH (also to S3 before returning) or ASYNC (to S3 after); "
          + "default ${DEFAULT-VALUE}.")
  WriteMode writeMode;

  @Mixin ClusterOptions cluster;
  @Mixin OutputOptions output;
  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    boolean stdin = "-".equals(file);
    long length = stdin ? -1 : Files.size(Path.of(file));
    long started = System.nanoTime();
    try (EcCacheClient cache = cluster.connect();
        CountingInputStream in = new CountingInputStream(new BufferedInputStream(
            stdin ? System.in : Files.newInputStream(Path.of(file)), 1 << 20));
        TransferProgress progress = new TransferProgress("put " + key, length, in::getCount,
            spec.commandLine().getErr(), output.showProgress())) {
      cache.put(key, (InputStream) in, length, scheme.writeMode(writeMode));
      double seconds = (System.nanoTime() - started) / 1e9;
      ObjectStat stat = cache.stat(key);
      if (output.json) {
        Map<String, Object> result = Json.of(stat);
        result.put("seconds", seconds);
        Json.print(spec.commandLine().getOut(), result);
      } else {
        spec.commandLine().getOut().printf("put %s: %s as %s%s in %.2f s (%s/s)%n", key,
            ByteSizes.format(stat.size()), stat.scheme().describe(),
            writeMode == WriteMode.CACHE_ONLY ? "" : ", " + writeMode, seconds,
            ByteSizes.format((long) (stat.size() / Math.max(seconds, 1e-9))));
      }
    }
    return ExitCodes.OK;
  }

  /** Parses {@code --scheme} with {@link PutOptions#parse}. */
  static final class SchemeConverter implements picocli.CommandLine.ITypeConverter<PutOptions> {
    @Override
    public PutOptions convert(String value) {
      return PutOptions.parse(value);
    }
  }
}
