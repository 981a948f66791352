package io.eccache.benchmarks.sim;

/**
 * What happens to an EC read's extra splits (the Δ beyond k) once the k-th has arrived.
 *
 * <p>The client ({@code AlluxioSplitSource}) reads each split in 1 MiB slices and stops reading
 * between slices once k splits have arrived; a split no larger than a slice is read whole. But
 * Alluxio's block stream sends ahead of the reader, so a stopped split's rest crosses the link
 * anyway: the cluster benchmark's kernel counters show every extra split sent whole (k = 2 and 5,
 * where the client stops reading part-way: the links carried Δ/k more, to within protocol bytes).
 * On the links the client is {@link #WHOLE}, the paper's model too (its overhead is Δ/k;
 * cancellation is its future work).
 */
public enum LateBinding {
  /**
   * What the links carry, the default: every extra split is sent to its end, using its link's
   * bandwidth after the read has completed; extra bytes are Δ/k.
   */
  WHOLE,
  /**
   * Cancellation between slices on the link, which the client's stopping would give if the
   * worker did not send ahead: an extra split stops at the end of the slice it is in when the k-th
   * split arrives (see {@link SimulationConfig#cancelSliceBytes()}).
   */
  SLICE,
  /**
   * Ideal fine-grained cancellation, not what the client does: the extra splits stop at the k-th
   * arrival and count only the bytes they moved by then.
   */
  INSTANT
}
