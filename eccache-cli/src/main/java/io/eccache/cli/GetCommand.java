package io.eccache.cli;

import alluxio.exception.status.NotFoundException;
import com.google.common.io.CountingOutputStream;
import io.eccache.client.EcCacheClient;
import io.eccache.client.LocalOutput;
import java.io.BufferedOutputStream;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code eccache get KEY [FILE]}: reads an object with late binding (k + Δ splits, the first k win)
 * into a file or stdout, by {@link LocalOutput}'s rules: a regular file is written beside its target
 * and renamed when complete (a failed GET leaves nothing), special files and stdout are streamed
 * into and never replaced, a directory gets {@code DIR/<last key segment>}, a symbolic link is
 * written through.
 */
@Command(name = "get", mixinStandardHelpOptions = true,
    description = "Read the object under KEY into FILE ('-' for stdout).",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:read", "1:failed", "2:bad command line (or binary to a terminal)",
        "3:no such key", "4:too few splits readable and S3 unavailable: retry",
        "6:FILE cannot be written (no such directory, permission denied)"})
final class GetCommand implements Callable<Integer>, ClusterCommand {
  @Parameters(index = "0", paramLabel = "KEY", description = "Object key.")
  String key;

  @Parameters(index = "1", paramLabel = "FILE", arity = "0..1",
      description = "Where to write it: a file, a directory (DIR/<last key segment>), a device or"
          + " FIFO, or '-' for stdout. Without it, stdout unless that is a terminal.")
  String file;

  @Option(names = {"-d", "--delta"}, paramLabel = "N", defaultValue = "1",
      description = "Extra splits to read beyond k (late binding); default ${DEFAULT-VALUE}.")
  int delta;

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
    if (file == null) {
      if (System.console() != null) {
        throw new UsageException("not writing the object to the terminal: give a FILE, or '-' to"
            + " write it to stdout anyway (e.g. eccache get " + key + " - | less)");
      }
      file = "-";
    }
    boolean stdout = "-".equals(file);
    if (stdout && output.json) {
      throw new UsageException("--json prints a summary on stdout: give a FILE to write the object"
          + " to");
    }
    long started = System.nanoTime();
    // The local side first: an unwritable target fails before the cluster is contacted; closing
    // without a commit removes the part file whatever failed.
    try (LocalOutput target = LocalOutput.open(file, key);
        EcCacheClient cache = cluster.connect()) {
      long total;
      try {
        total = cache.stat(key).size();
      } catch (NotFoundException onlyInS3) {
        total = -1; // the GET below may still find it in the under store and cache it
      }
      long bytes;
      try (InputStream in = cache.openStream(key, delta);
          CountingOutputStream out = new CountingOutputStream(
              new BufferedOutputStream(target.stream(), 1 << 20));
          TransferProgress progress = new TransferProgress("get " + key, total,
              out::getCount, spec.commandLine().getErr(), output.showProgress())) {
        in.transferTo(out);
        out.flush();
        bytes = out.getCount();
      }
      target.commit();
      double seconds = (System.nanoTime() - started) / 1e9;
      if (output.json) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("key", key);
        result.put("file", target.target().toString());
        result.put("bytes", bytes);
        result.put("seconds", seconds);
        if (metrics) {
          result.put("clientMetrics", ClientMetricsReport.of(cache));
        }
        Json.print(spec.commandLine().getOut(), result);
      } else {
        if (!stdout) {
          spec.commandLine().getOut().printf("get %s: %s to %s in %.2f s%n", key,
              ByteSizes.format(bytes), target.target(), seconds);
        }
        if (metrics) {
          ClientMetricsReport.print(spec.commandLine().getErr(), cache);
        }
      }
    }
    return ExitCodes.OK;
  }
}
