package io.eccache.benchmarks.sim;

/**
 * What happens to an EC read's extra splits (the Δ beyond k) once the k-th has arrived.
 *
 * <p>The client ({@code AlluxioSplitSource}) reads each split in 1 MiB slices and checks between slices
 * whether the read is still needed, so a split no larger than a slice is always read whole: the extra
 * bytes are then exactly Δ/k of the bytes the read needed, as in the EC-Cache paper (which leaves
 * cancellation to future work).
 */
public enum LateBinding {
  /**
   * The paper's model: every extra split is read to its end, using its link's bandwidth after the read
   * has completed; extra bytes are Δ/k.
   */
  WHOLE,
  /**
   * The client's model, the default: an extra split stops at the end of the slice it is in when the
   * k-th split arrives (see {@link SimulationConfig#cancelSliceBytes()}); a split no larger than a
   * slice is read whole, as in {@link #WHOLE}.
   */
  SLICE,
  /**
   * Ideal fine-grained cancellation, not what the client does: the extra splits stop at the k-th
   * arrival and count only the bytes they moved by then.
   */
  INSTANT
}
