package io.eccache.cli;

import java.io.PrintWriter;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A one-line progress bar on stderr for a PUT or GET: bytes moved (of the total when known), percent,
 * rate and time left, redrawn twice a second; a final line when done. Silent when disabled (not a
 * terminal, {@code --quiet}), so piped output and scripts stay clean.
 */
final class TransferProgress implements AutoCloseable {
  private static final int BAR = 30;

  private final String label;
  private final long total;
  private final LongSupplier moved;
  private final PrintWriter err;
  private final long startNanos = System.nanoTime();
  private final ScheduledExecutorService ticker;

  /**
   * @param total bytes to move, or -1 when not known
   * @param moved bytes moved so far (read from another thread)
   */
  TransferProgress(String label, long total, LongSupplier moved, PrintWriter err, boolean enabled) {
    this.label = label;
    this.total = total;
    this.moved = moved;
    this.err = err;
    if (enabled) {
      ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "eccache-progress");
        t.setDaemon(true);
        return t;
      });
      ticker.scheduleAtFixedRate(() -> {
        err.print("\r" + line(false));
        err.flush();
      }, 500, 500,
          TimeUnit.MILLISECONDS);
    } else {
      ticker = null;
    }
  }

  /** The bar as it stands; {@code done} marks the final line. */
  String line(boolean done) {
    long bytes = moved.getAsLong();
    double seconds = Math.max(1e-9, (System.nanoTime() - startNanos) / 1e9);
    double rate = bytes / seconds;
    StringBuilder s = new StringBuilder(label).append(' ');
    if (total > 0) {
      int filled = (int) Math.min(BAR, BAR * bytes / total);
      s.append('[').append("=".repeat(filled)).append(" ".repeat(BAR - filled)).append("] ")
          .append(String.format("%3d%% ", Math.min(100, 100 * bytes / total)));
    }
    s.append(ByteSizes.format(bytes));
    if (total >= 0) {
      s.append(" / ").append(ByteSizes.format(total));
    }
    s.append(String.format("  %s/s", ByteSizes.format((long) rate)));
    if (done) {
      s.append(String.format("  in %.1f s", seconds));
    } else if (total > 0 && rate > 0) {
      s.append(String.format("  %.0f s left", Math.max(0, (total - bytes) / rate)));
    }
    return s.toString();
  }

  @Override
  public void close() {
    if (ticker != null) {
      ticker.shutdownNow();
      err.println("\r" + line(true) + "   ");
    }
  }
}
