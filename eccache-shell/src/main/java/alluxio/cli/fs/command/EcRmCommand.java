package alluxio.cli.fs.command;

import alluxio.client.file.FileSystemContext;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.NotFoundException;
import java.io.IOException;
import org.apache.commons.cli.CommandLine;

/** {@code alluxio fs ecRm <key>}: removes an object from eccache (its S3 copy stays). */
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

  @Override
  public int run(CommandLine cl) throws IOException {
    String key = cl.getArgs()[0];
    if (!cache().delete(key)) {
      throw new NotFoundException("no eccache object '" + key + "'");
    }
    System.out.println("Removed " + key);
    return 0;
  }

  @Override
  public String getUsage() {
    return "ecRm <key>";
  }

  @Override
  public String getDescription() {
    return "Removes an object from eccache; its copy in the under store (S3), if any, stays.";
  }
}
