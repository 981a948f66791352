package io.eccache.policy.agar;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Agar's example deployment (ICDCS'17, Table I): read latency from Frankfurt to the six S3 regions. */
public final class AgarRegions {
  /** Region names in Table I's order, which is also the round-robin placement order used here. */
  public static final List<String> NAMES =
      List.of("Frankfurt", "Dublin", "N. Virginia", "Sao Paulo", "Tokyo", "Sydney");
  /** Table I's latencies in milliseconds, in {@link #NAMES}' order. */
  public static final List<Long> FRANKFURT_LATENCIES_MS = List.of(80L, 200L, 600L, 1400L, 3400L, 4600L);

  private AgarRegions() {}

  /**
   * Table I's regions with every latency multiplied by {@code scale} (rounded to the microsecond), e.g. 0.1
   * for quick runs: 8, 20, 60, 140, 340, 460 ms.
   *
   * @param scale a finite factor, greater than 0
   * @return the six regions in placement order
   * @throws IllegalArgumentException if the scale is not finite and positive
   */
  public static List<Region> fromFrankfurt(double scale) {
    if (!(scale > 0) || Double.isInfinite(scale)) {
      throw new IllegalArgumentException("scale must be finite and > 0 but was " + scale);
    }
    List<Region> regions = new ArrayList<>();
    for (int i = 0; i < NAMES.size(); i++) {
      long micros = Math.round(FRANKFURT_LATENCIES_MS.get(i) * 1000 * scale);
      regions.add(new Region(NAMES.get(i), Duration.ofNanos(micros * 1000)));
    }
    return List.copyOf(regions);
  }

  /**
   * Agar's deployment: RS(9,3) round-robin over Table I's regions (2 chunks each), cache reads free.
   *
   * @param scale the latency factor, see {@link #fromFrankfurt(double)}
   * @return the layout
   */
  public static ChunkLayout layout(double scale) {
    return new ChunkLayout(9, 3, fromFrankfurt(scale), Duration.ZERO);
  }
}
