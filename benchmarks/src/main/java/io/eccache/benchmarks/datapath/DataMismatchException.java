package io.eccache.benchmarks.datapath;

import java.io.IOException;

/**
 * A GET returned other bytes than were written: the run stops, since a fast wrong answer measures
 * nothing. The message names the variant, the object and the first byte that differs.
 */
public final class DataMismatchException extends IOException {
  private static final long serialVersionUID = 1L;

  /**
   * @param what the variant and object, e.g. "GET eccache of object 3 (8 MiB)"
   * @param expectedLength the bytes written
   * @param actualLength the bytes returned
   * @param firstDifference the index of the first byte that differs
   */
  public DataMismatchException(String what, long expectedLength, long actualLength,
      long firstDifference) {
    super(what + " returned other bytes than were written: " + actualLength + " bytes for "
        + expectedLength + ", first difference at byte " + firstDifference + "; the data path"
        + " is broken, so the run stops: rerun with -Deccache.debug=true and report it");
  }
}
