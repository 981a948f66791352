package io.eccache.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The splits that failed during one {@link SplitWriter} write (by slot, the position in its target
 * list), and how many may. Thread-safe.
 */
final class SplitFailures {
  private static final Logger LOG = LoggerFactory.getLogger(SplitFailures.class);
  private final Throwable[] causes;
  private final int tolerated;

  SplitFailures(int splits, int tolerated) {
    this.causes = new Throwable[splits];
    this.tolerated = tolerated;
  }

  synchronized void record(int slot, Throwable cause) {
    if (causes[slot] == null) {
      causes[slot] = cause;
      // Once per split: the PUT goes on and writes it elsewhere, so this is the only trace.
      LOG.warn("eccache: writing split slot {} failed: {}", slot, String.valueOf(cause));
    }
  }

  synchronized boolean failed(int slot) {
    return causes[slot] != null;
  }

  synchronized List<Integer> indexes() {
    List<Integer> failed = new ArrayList<>();
    for (int i = 0; i < causes.length; i++) {
      if (causes[i] != null) {
        failed.add(i);
      }
    }
    return failed;
  }

  /** Throws when more splits failed than can be rebuilt from the others. */
  synchronized void check() throws IOException {
    List<Integer> failed = indexes();
    if (failed.size() > tolerated) {
      // The first failure as it was (typed); the code could rebuild `tolerated` of them.
      IOException e = IoErrors.asIOException(causes[failed.get(0)]);
      for (int i = 1; i < failed.size(); i++) {
        e.addSuppressed(causes[failed.get(i)]);
      }
      throw e;
    }
  }
}
