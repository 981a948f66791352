package io.eccache.benchmarks.report;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The kernel's count of the bytes each worker sent (tc) against the clients' own count: they should
 * agree, and a worker where the kernel saw noticeably more than the clients read means traffic the
 * clients did not ask for (or did not count) was on that link during the measurement, so the run is
 * flagged rather than trusted.
 *
 * <p>One kind of traffic the clients ask for but cannot place: a GET the cache cannot serve reads
 * S3's copy through a worker Alluxio picks without saying which. Those bytes are known only in
 * total ({@code unattributed}); they explain an excess up to their amount, spread over any workers.
 */
public final class ByteAgreement {
  /** Above this kernel/client ratio on any worker a run is flagged. */
  public static final double FLAG_ABOVE = 1.05;

  private ByteAgreement() {}

  /**
   * The largest per-worker ratio tc / client over the workers the clients read from (1.0: agree);
   * 0 when the clients read nothing.
   */
  public static double worstRatio(Map<String, Long> clientBytes, Map<String, Long> tcBytes) {
    Objects.requireNonNull(clientBytes, "clientBytes");
    Objects.requireNonNull(tcBytes, "tcBytes");
    double worst = 0;
    for (Map.Entry<String, Long> e : clientBytes.entrySet()) {
      if (e.getValue() != null && e.getValue() > 0) {
        worst = Math.max(worst, tcBytes.getOrDefault(e.getKey(), 0L) / (double) e.getValue());
      }
    }
    return worst;
  }

  /**
   * The bytes the kernel counted beyond {@link #FLAG_ABOVE} x the clients' count, summed over the
   * workers the clients read from, less {@code unattributed} (bytes the clients read through a
   * worker they cannot name); positive means traffic nobody accounts for.
   */
  public static long unexplainedBytes(Map<String, Long> clientBytes, Map<String, Long> tcBytes,
      long unattributed) {
    Objects.requireNonNull(clientBytes, "clientBytes");
    Objects.requireNonNull(tcBytes, "tcBytes");
    double excess = 0;
    for (Map.Entry<String, Long> e : clientBytes.entrySet()) {
      if (e.getValue() != null && e.getValue() > 0) {
        excess += Math.max(0, tcBytes.getOrDefault(e.getKey(), 0L) - FLAG_ABOVE * e.getValue());
      }
    }
    return Math.round(excess) - unattributed;
  }

  /** Whether {@code ratio} exceeds {@link #FLAG_ABOVE}. */
  public static boolean flagged(double ratio) {
    return ratio > FLAG_ABOVE;
  }

  /**
   * The workers whose ratio exceeds {@link #FLAG_ABOVE}, as "host 1.17x" separated by commas; ""
   * when none does.
   */
  public static String flaggedWorkers(Map<String, Long> clientBytes, Map<String, Long> tcBytes) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, Long> e : clientBytes.entrySet()) {
      if (e.getValue() != null && e.getValue() > 0) {
        double ratio = tcBytes.getOrDefault(e.getKey(), 0L) / (double) e.getValue();
        if (flagged(ratio)) {
          sb.append(sb.length() == 0 ? "" : ", ")
              .append(String.format(Locale.ROOT, "%s %.3fx", e.getKey(), ratio));
        }
      }
    }
    return sb.toString();
  }
}
