package alluxio.cli.fs.command;

import alluxio.client.file.FileSystemContext;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.util.FormatUtils;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/**
 * {@code alluxio fs ecGet [-d DELTA] <key> <localFile>}: reads an object with late binding into a
 * local file, written beside it and renamed when complete.
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
    Path target = Path.of(cl.getArgs()[1]).toAbsolutePath();
    int delta = Integer.parseInt(cl.getOptionValue(DELTA.getOpt(), "1"));
    long started = System.nanoTime();
    // Beside the target (same file system, so the rename is atomic), with the usual permissions.
    Path partial = target.resolveSibling(
        "." + target.getFileName() + "." + ProcessHandle.current().pid() + ".part");
    long bytes;
    try (InputStream in = cache().openStream(key, delta);
        OutputStream out = Files.newOutputStream(partial, StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE)) {
      bytes = in.transferTo(out);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(partial);
      throw e;
    }
    Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
    System.out.printf("Read %s (%s) to %s in %.2f s%n", key, FormatUtils.getSizeFromBytes(bytes),
        target, (System.nanoTime() - started) / 1e9);
    return 0;
  }

  @Override
  public String getUsage() {
    return "ecGet [-d <delta>] <key> <localFile>";
  }

  @Override
  public String getDescription() {
    return "Reads the eccache object under key into a local file, from the first k of k + delta"
        + " splits.";
  }
}
