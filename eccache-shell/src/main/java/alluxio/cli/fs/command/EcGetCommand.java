package alluxio.cli.fs.command;

import alluxio.client.file.FileSystemContext;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.util.FormatUtils;
import io.eccache.client.LocalOutput;
import java.io.IOException;
import java.io.InputStream;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/**
 * {@code alluxio fs ecGet [-d DELTA] <key> <localFile>}: reads an object with late binding into a
 * local file by {@link LocalOutput}'s rules (a regular file written beside it and renamed when
 * complete; special files streamed into, never replaced).
 */
public final class EcGetCommand extends EcCacheFsCommand {
  private static final Option DELTA = Option.builder("d").longOpt("delta").hasArg()
      .argName("n").desc("extra splits to read beyond k (default 1)").build();

  /** Made by Alluxio's shell, with its context. */
  public EcGetCommand(FileSystemContext context) {
    super(context);
  }

  @Override
  public String getCommandName() {
    return "ecGet";
  }

  @Override
  public Options getOptions() {
    return new Options().addOption(DELTA);
  }

  @Override
  public void validateArgs(CommandLine cl) throws InvalidArgumentException {
    checkArgs(cl, 2);
    try {
      if (Integer.parseInt(cl.getOptionValue(DELTA.getOpt(), "1")) < 0) {
        throw new NumberFormatException();
      }
    } catch (NumberFormatException e) {
      throw new InvalidArgumentException("-d takes a number of extra splits >= 0. Usage: "
          + getUsage());
    }
  }

  @Override
  public int run(CommandLine cl) throws IOException {
    String key = cl.getArgs()[0];
    int delta = Integer.parseInt(cl.getOptionValue(DELTA.getOpt(), "1"));
    long started = System.nanoTime();
    long bytes;
    // eccache get's rules (LocalOutput): devices and FIFOs streamed into, links written through, a
    // directory gets DIR/<last key segment>, a regular file replaced by rename; the local side is
    // checked before the cluster is asked, and a failure leaves no part file.
    try (LocalOutput target = LocalOutput.open(cl.getArgs()[1], key)) {
      try (InputStream in = cache().openStream(key, delta)) {
        bytes = in.transferTo(target.stream());
      }
      target.commit();
      System.out.printf("Read %s (%s) to %s in %.2f s%n", key, FormatUtils.getSizeFromBytes(bytes),
          target.target() == null ? "stdout" : target.target(),
          (System.nanoTime() - started) / 1e9);
    }
    return 0;
  }

  @Override
  public String getUsage() {
    return "ecGet [-d <delta>] <key> <localFile|localDir/|->";
  }

  @Override
  public String getDescription() {
    return "Reads the eccache object under key into a local file (a directory gets"
        + " <dir>/<last key segment>; devices and FIFOs are written into, never replaced), from the"
        + " first k of k + delta splits.";
  }
}
