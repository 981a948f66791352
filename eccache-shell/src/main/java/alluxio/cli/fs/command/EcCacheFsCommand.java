package alluxio.cli.fs.command;

import alluxio.client.file.FileSystemContext;
import alluxio.exception.status.InvalidArgumentException;
import io.eccache.client.EcCacheClient;
import java.io.IOException;
import org.apache.commons.cli.CommandLine;

/**
 * What eccache's {@code alluxio fs} commands share: one {@link EcCacheClient} on the shell's own
 * {@link FileSystemContext}, made on first use (the shell builds every command at start-up).
 *
 * <p>Why this package: Alluxio 2.9's {@code FileSystemShell} finds its commands by scanning the
 * classpath for non-abstract {@code alluxio.cli.Command}s in {@code alluxio.cli.fs.command} that take
 * a {@code FileSystemContext}; it has no ServiceLoader or configuration hook. Living in that package
 * (in our own jar, on {@code ALLUXIO_CLASSPATH}) is the only way in that needs no change to Alluxio;
 * the commands use only the public {@code Command} interface and {@link AbstractFileSystemCommand}'s
 * constructor, which have been stable since Alluxio 2.0.
 */
abstract class EcCacheFsCommand extends AbstractFileSystemCommand {
  private EcCacheClient client;

  EcCacheFsCommand(FileSystemContext context) {
    super(context);
  }

  /** The eccache client of this shell. */
  synchronized EcCacheClient cache() {
    if (client == null) {
      client = EcCacheClient.create(mFsContext);
    }
    return client;
  }

  /** Checks the number of arguments, saying what the command wants. */
  void checkArgs(CommandLine cl, int count) throws InvalidArgumentException {
    if (cl.getArgs().length != count) {
      throw new InvalidArgumentException(getCommandName() + " takes " + count + " argument"
          + (count == 1 ? "" : "s") + ", not " + cl.getArgs().length + ". Usage: " + getUsage());
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (client != null) {
      client.close();
      client = null;
    }
  }
}
