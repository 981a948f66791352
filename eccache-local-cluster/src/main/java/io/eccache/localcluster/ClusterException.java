package io.eccache.localcluster;

/** A failed cluster command: one line for the user, and the exit status it ends with. */
public final class ClusterException extends Exception {
  private static final long serialVersionUID = 1L;
  private final int exitCode;

  ClusterException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  ClusterException(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  /** The command's exit status (see {@link LocalClusterCommand}). */
  public int exitCode() {
    return exitCode;
  }
}
