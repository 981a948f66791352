package io.eccache.cli;

/**
 * The command line is wrong in a way only the command can tell (old argument order, binary to a
 * terminal): exit status {@link ExitCodes#USAGE}, the message says what to type instead.
 */
final class UsageException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  UsageException(String message) {
    super(message);
  }
}
