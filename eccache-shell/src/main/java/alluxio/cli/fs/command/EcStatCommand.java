package alluxio.cli.fs.command;

import alluxio.client.file.FileSystemContext;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.util.FormatUtils;
import io.eccache.client.ObjectStat;
import java.io.IOException;
import org.apache.commons.cli.CommandLine;

/** {@code alluxio fs ecStat <key>}: how an eccache object is stored (not counted as a read). */
public final class EcStatCommand extends EcCacheFsCommand {
  /** Made by Alluxio's shell, with its context. */
  public EcStatCommand(FileSystemContext context) {
    super(context);
  }

  @Override
  public String getCommandName() {
    return "ecStat";
  }

  @Override
  public void validateArgs(CommandLine cl) throws InvalidArgumentException {
    checkArgs(cl, 1);
  }

  @Override
  public int run(CommandLine cl) throws IOException {
    ObjectStat s = cache().stat(cl.getArgs()[0]);
    System.out.printf("%s: %s (%d bytes) as %s, %s, %d/%d splits live, %s, popularity %.2f%n",
        s.key(), FormatUtils.getSizeFromBytes(s.size()), s.size(), s.scheme().describe(),
        s.tuned() ? "tuned (target " + s.target().describe() + ")" : "fixed", s.liveSplits(),
        s.scheme().splits(),
        s.persisted() ? "in S3" : "cache only", s.popularity());
    System.out.println("sha256: " + s.sha256().map(h -> h + "  " + s.key())
        .orElse("not recorded (written before eccache kept checksums)"));
    return 0;
  }

  @Override
  public String getUsage() {
    return "ecStat <key>";
  }

  @Override
  public String getDescription() {
    return "Shows how an eccache object is stored: scheme, k and r, live splits, S3 copy, SHA-256.";
  }
}
