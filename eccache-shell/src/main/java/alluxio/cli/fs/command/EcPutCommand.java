package alluxio.cli.fs.command;

import alluxio.client.file.FileSystemContext;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.util.FormatUtils;
import io.eccache.client.LocalInput;
import io.eccache.client.ObjectStat;
import io.eccache.client.PutOptions;
import io.eccache.client.WriteMode;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/** {@code alluxio fs ecPut [-s SCHEME] [-w MODE] <localFile> <key>}: stores a local file in eccache. */
public final class EcPutCommand extends EcCacheFsCommand {
  private static final Option SCHEME = Option.builder("s").longOpt("scheme").hasArg()
      .argName("scheme").desc("default, rs-K-R, replica-N or partition-K").build();
  private static final Option MODE = Option.builder("w").longOpt("write-mode").hasArg()
      .argName("mode").desc("CACHE_ONLY (default), THROUGH or ASYNC").build();

  /** Made by Alluxio's shell, with its context. */
  public EcPutCommand(FileSystemContext context) {
    super(context);
  }

  @Override
  public String getCommandName() {
    return "ecPut";
  }

  @Override
  public Options getOptions() {
    return new Options().addOption(SCHEME).addOption(MODE);
  }

  @Override
  public void validateArgs(CommandLine cl) throws InvalidArgumentException {
    checkArgs(cl, 2);
  }

  @Override
  public int run(CommandLine cl) throws IOException {
    String file = cl.getArgs()[0];
    String key = cl.getArgs()[1];
    if (!"-".equals(file) && !Files.exists(Path.of(file)) && Files.isRegularFile(Path.of(key))) {
      throw new InvalidArgumentException("the local file comes first, then the key: ecPut " + key
          + " " + file + " ('" + file + "' is no local file, '" + key + "' is)");
    }
    PutOptions options;
    try {
      options = PutOptions.parse(cl.getOptionValue(SCHEME.getOpt(), "default"))
          .writeMode(WriteMode.valueOf(cl.getOptionValue(MODE.getOpt(), "CACHE_ONLY")
              .toUpperCase(Locale.ROOT)))
          .sha256(true); // a file's SHA-256, for ecStat (API PUTs skip it by default)
    } catch (IllegalArgumentException e) {
      throw new InvalidArgumentException(e.getMessage() + ". Usage: " + getUsage());
    }
    // Checked and opened before the cluster is asked: bad input creates nothing there.
    LocalInput input = LocalInput.open(file);
    long started = System.nanoTime();
    try (InputStream in = new BufferedInputStream(input.stream(), 1 << 20)) {
      cache().put(key, in, input.length(), options);
    }
    ObjectStat stat = cache().stat(key);
    System.out.printf("Stored %s as %s (%s) in %.2f s%n", key, stat.scheme().describe(),
        FormatUtils.getSizeFromBytes(stat.size()), (System.nanoTime() - started) / 1e9);
    return 0;
  }

  @Override
  public String getUsage() {
    return "ecPut [-s default|rs-K-R|replica-N|partition-K] [-w CACHE_ONLY|THROUGH|ASYNC] "
        + "<localFile|-> <key>";
  }

  @Override
  public String getDescription() {
    return "Stores a local file in eccache under key: erasure-coded (or replicated, partitioned)"
        + " across workers.";
  }
}
