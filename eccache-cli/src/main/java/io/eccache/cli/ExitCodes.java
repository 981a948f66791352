package io.eccache.cli;

import alluxio.exception.AccessControlException;
import alluxio.exception.status.AlluxioStatusException;
import alluxio.exception.status.AlreadyExistsException;
import alluxio.exception.status.DeadlineExceededException;
import alluxio.exception.status.FailedPreconditionException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.NotFoundException;
import alluxio.exception.status.OutOfRangeException;
import alluxio.exception.status.PermissionDeniedException;
import alluxio.exception.status.ResourceExhaustedException;
import alluxio.exception.status.UnavailableException;
import io.eccache.client.LocalOutput.LocalFileException;
import java.io.FileNotFoundException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * What an {@code eccache} exit status means, so scripts can branch on it; and the handler that turns
 * a failed command into one line on stderr (the message says what to do) and its status.
 */
public final class ExitCodes implements IExecutionExceptionHandler {
  /** Done. */
  public static final int OK = 0;
  /** Failed for another reason (the message says why). */
  public static final int FAILED = 1;
  /** Bad command line (picocli's own usage status). */
  public static final int USAGE = CommandLine.ExitCode.USAGE;
  /** No such key. */
  public static final int NOT_FOUND = 3;
  /** The cluster, enough of its workers, or S3 could not be reached: retry later. */
  public static final int UNAVAILABLE = 4;
  /** The cluster refused the request as given (bad key or code, k + r above the live workers). */
  public static final int REJECTED = 5;
  /** A local file or directory could not be read or written (missing, permission, a directory). */
  public static final int LOCAL_FILE = 6;
  /**
   * Alluxio's permissions refuse this user the key or the operation (the message names the user,
   * the path that governs the key, its owner and mode), as {@code alluxio fs} would refuse it.
   */
  public static final int PERMISSION_DENIED = 7;

  /** The status for a failure; see the constants. */
  static int of(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof LocalFileException || t instanceof NoSuchFileException
          || t instanceof FileNotFoundException || t instanceof AccessDeniedException) {
        return LOCAL_FILE;
      }
      if (t instanceof UsageException) {
        return USAGE;
      }
      if (t instanceof NotFoundException) {
        return NOT_FOUND;
      }
      if (t instanceof PermissionDeniedException || t instanceof AccessControlException) {
        return PERMISSION_DENIED;
      }
      if (masterUnreachable(t)) {
        return UNAVAILABLE;
      }
      if (t instanceof UnavailableException || t instanceof DeadlineExceededException
          || t instanceof ResourceExhaustedException) {
        return UNAVAILABLE;
      }
      if (t instanceof InvalidArgumentException || t instanceof FailedPreconditionException
          || t instanceof AlreadyExistsException || t instanceof OutOfRangeException
          || t instanceof IllegalArgumentException) {
        return REJECTED;
      }
      if (t instanceof AlluxioStatusException) {
        return FAILED;
      }
    }
    return FAILED;
  }

  /**
   * Whether the master could not be reached at all (wrong host or port, not running, unknown host):
   * Alluxio says so in long messages that name the attempts, not the cure.
   */
  static boolean masterUnreachable(Throwable t) {
    String m = String.valueOf(t.getMessage());
    return t instanceof UnknownHostException || t instanceof ConnectException
        || (t instanceof AlluxioStatusException || t instanceof io.grpc.StatusRuntimeException)
            && (m.contains("Failed to connect to master") || m.contains("handshake with master")
                || m.contains("Failed to determine primary master")
                || m.contains("UnresolvedAddressException") || m.contains("UnknownHost"));
  }

  @Override
  public int handleExecutionException(Exception e, CommandLine command, ParseResult parsed) {
    String message = e.getMessage() == null ? e.toString() : e.getMessage();
    Object user = command.getCommand();
    ClusterOptions cluster = user instanceof ClusterCommand ? ((ClusterCommand) user).cluster()
        : null;
    if (cluster != null) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (masterUnreachable(t)) {
          message = "cannot reach " + cluster.masterDescription() + " within "
              + cluster.timeoutDescription() + ": check that it runs there, or name it with"
              + " --master HOST[:PORT] or alluxio.master.hostname in alluxio-site.properties"
              + " ($ALLUXIO_CONF_DIR)";
          break;
        }
      }
    }
    command.getErr().println("eccache " + command.getCommandName() + ": " + message);
    if (Boolean.getBoolean("eccache.debug")) {
      e.printStackTrace(command.getErr());
    }
    return of(e);
  }
}
