package io.eccache.cli;

import alluxio.exception.status.AlluxioStatusException;
import alluxio.exception.status.AlreadyExistsException;
import alluxio.exception.status.DeadlineExceededException;
import alluxio.exception.status.FailedPreconditionException;
import alluxio.exception.status.InvalidArgumentException;
import alluxio.exception.status.NotFoundException;
import alluxio.exception.status.OutOfRangeException;
import alluxio.exception.status.ResourceExhaustedException;
import alluxio.exception.status.UnavailableException;
import java.io.FileNotFoundException;
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
  /** No such key (or local file). */
  public static final int NOT_FOUND = 3;
  /** The cluster, enough of its workers, or S3 could not be reached: retry later. */
  public static final int UNAVAILABLE = 4;
  /** The cluster refused the request as given (bad key or code, k + r above the live workers). */
  public static final int REJECTED = 5;

  /** The status for a failure; see the constants. */
  static int of(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof NotFoundException || t instanceof NoSuchFileException
          || t instanceof FileNotFoundException) {
        return NOT_FOUND;
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

  @Override
  public int handleExecutionException(Exception e, CommandLine command, ParseResult parsed) {
    String message = e.getMessage() == null ? e.toString() : e.getMessage();
    command.getErr().println("eccache " + command.getCommandName() + ": " + message);
    if (Boolean.getBoolean("eccache.debug")) {
      e.printStackTrace(command.getErr());
    }
    return of(e);
  }
}
