package io.eccache.client;

import alluxio.exception.AlluxioException;
import java.io.IOException;

/** Failures of work done on another thread, as the IOException the caller throws. */
final class IoErrors {
  private IoErrors() {}

  /** {@code cause} itself when it is an IOException (typed status exceptions stay typed). */
  static IOException asIOException(Throwable cause) {
    if (cause instanceof IOException) {
      return (IOException) cause;
    }
    if (cause instanceof AlluxioException) {
      return new IOException(cause.getMessage(), cause);
    }
    return new IOException("split I/O failed: " + cause, cause);
  }

  /**
   * Evidence for a wait that timed out: where {@code thread}, doing {@code what}, is now (its
   * stack), or that no thread had started it (every I/O thread busy), to attach to the timeout's
   * error as a suppressed exception.
   */
  static Exception whereStuck(String what, Thread thread) {
    if (thread == null) {
      return new Exception(what + " had not started (or had just ended): every eccache I/O"
          + " thread was busy (alluxio.user.eccache.io.threads)");
    }
    Exception stuck = new Exception(what + " is still waiting, on thread " + thread.getName()
        + " (" + thread.getState() + ")");
    stuck.setStackTrace(thread.getStackTrace());
    return stuck;
  }
}
