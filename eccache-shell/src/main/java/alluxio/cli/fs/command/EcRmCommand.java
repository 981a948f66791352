package alluxio.cli.fs.command;

import alluxio.client.file.FileSystemContext;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.NotFoundException;
import java.io.IOException;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/**
 * {@code alluxio fs ecRm [--cache-only] <key>}: deletes an object from eccache and from the under
 * store, as {@code alluxio fs rm} does; {@code --cache-only} evicts it from eccache only.
 */
public final class EcRmCommand extends EcCacheFsCommand {
  /** Made by Alluxio's shell, with its context. */
  public EcRmCommand(FileSystemContext context) {
    super(context);
  }

  @Override
  public String getCommandName() {
    return "ecRm";
  }

  @Override
  public void validateArgs(CommandLine cl) throws InvalidArgumentException {
    checkArgs(cl, 1);
  }

  private static final Option CACHE_ONLY = Option.builder().longOpt("cache-only")
      .desc("evict from eccache only; keep the copy in the under store").build();

  @Override
  public Options getOptions() {
    return new Options().addOption(CACHE_ONLY);
  }

  @Override
  public int run(CommandLine cl) throws IOException {
    String key = cl.getArgs()[0];
    boolean cacheOnly = cl.hasOption(CACHE_ONLY.getLongOpt());
    if (!(cacheOnly ? cache().evict(key) : cache().delete(key))) {
      throw new NotFoundException("no eccache object '" + key + "'");
    }
    System.out.println("Removed " + key);
    return 0;
  }

  @Override
  public String getUsage() {
    return "ecRm [--cache-only] <key>";
  }

  @Override
  public String getDescription() {
    return "Deletes an object from eccache and from the under store (S3); with --cache-only,"
        + " evicts it from eccache and keeps the under store's copy.";
  }
}
