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
}
