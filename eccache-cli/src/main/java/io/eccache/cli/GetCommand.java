package io.eccache.cli;

import alluxio.exception.status.NotFoundException;
import com.google.common.io.CountingOutputStream;
import io.eccache.client.EcCacheClient;
import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
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
 * into a file or stdout. A file is written beside its target and renamed when complete, so a failed
 * GET never leaves a truncated file.
 */
@Command(name = "get", mixinStandardHelpOptions = true,
    description = "Read the object under KEY into FILE (or stdout).",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:read", "1:failed", "2:bad command line", "3:no such key",
        "4:too few splits readable and S3 unavailable: retry"})
final class GetCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "KEY", description = "Object key.")
  String key;

  @Parameters(index = "1", paramLabel = "FILE", arity = "0..1", defaultValue = "-",
      description = "Where to write it; '-' or none writes stdout.")
  String file;

  @Option(names = {"-d", "--delta"}, paramLabel = "N", defaultValue = "1",
      description = "Extra splits to read beyond k (late binding); default ${DEFAULT-VALUE}.")
  int delta;

  @Mixin ClusterOptions cluster;
  @Mixin OutputOptions output;
  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    boolean stdout = "-".equals(file);
    if (stdout && output.json) {
      throw new IllegalArgumentException("--json prints a summary on stdout: give a FILE to write "
          + "the object to");
    }
    long started = System.nanoTime();
    try (EcCacheClient cache = cluster.connect()) {
      long total;
      try {
        total = cache.stat(key).size();
      } catch (NotFoundException onlyInS3) {
        total = -1; // the GET below may still find it in the under store and cache it
      }
      Path target = stdout ? null : Path.of(file).toAbsolutePath();
      // Beside the target (same file system, so the rename is atomic), with the usual permissions.
      Path partial = stdout ? null : target.resolveSibling(
          "." + target.getFileName() + "." + ProcessHandle.current().pid() + ".part");
      long bytes;
      try (InputStream in = cache.openStream(key, delta);
          CountingOutputStream out = new CountingOutputStream(new BufferedOutputStream(
              stdout ? nonClosing(System.out) : Files.newOutputStream(partial,
                  StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), 1 << 20));
          TransferProgress progress = new TransferProgress("get " + key, total,
              out::getCount, spec.commandLine().getErr(), output.showProgress())) {
        in.transferTo(out);
        out.flush();
        bytes = out.getCount();
      } catch (Exception e) {
        if (partial != null) {
          Files.deleteIfExists(partial);
        }
        throw e;
      }
      if (partial != null) {
        Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.ATOMIC_MOVE);
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      if (output.json) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("key", key);
        result.put("file", target.toString());
        result.put("bytes", bytes);
        result.put("seconds", seconds);
        Json.print(spec.commandLine().getOut(), result);
      } else if (!stdout) {
        spec.commandLine().getOut().printf("get %s: %s to %s in %.2f s%n", key,
            ByteSizes.format(bytes), file, seconds);
      }
    }
    return ExitCodes.OK;
  }

  /** stdout must stay open for whatever prints after the object. */
  private static OutputStream nonClosing(OutputStream out) {
    return new FilterOutputStream(out) {
      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        flush();
      }
    };
  }
}
