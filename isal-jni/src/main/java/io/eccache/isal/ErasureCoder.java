package io.eccache.isal;

import java.nio.ByteBuffer;

/**
 * A systematic (k, r) Reed-Solomon erasure coder: k data units, r parity units, any k of the k + r
 * units rebuild the rest. Get one from {@link ReedSolomon#coder(int, int)}; instances are immutable
 * apart from an internal cache of decode plans and are safe to share between threads.
 *
 * <h2>Buffer contract</h2>
 * <ul>
 *   <li>Every buffer is either direct or a heap buffer with an accessible array
 *       ({@link ByteBuffer#hasArray()}: from {@code ByteBuffer.wrap} or {@code allocate}, not
 *       read-only), and the two kinds may be mixed freely in one call. Heap units are read and
 *       written in place (the native coder pins their arrays for the call, it does not copy them);
 *       a unit may be any range of an array, e.g. a slice of a larger one. Output buffers must be
 *       writable.</li>
 *   <li>A unit is the bytes between a buffer's position and its limit; all buffers in one call must
 *       have the same {@link ByteBuffer#remaining() remaining()} (the unit length). A zero length is
 *       allowed and writes nothing.</li>
 *   <li>Positions and limits are not changed, so the same buffers can be reused for the next call.</li>
 *   <li>Outputs are fully overwritten: they need not be zeroed. Outputs must not overlap inputs or
 *       each other, even within one array: views of the same array whose ranges overlap are
 *       rejected.</li>
 * </ul>
 * Anything else (a read-only heap buffer, a wrong count, unequal lengths, overlapping units, a null)
 * is rejected with an {@link IllegalArgumentException} that says what was wrong, before any byte is
 * written. Calls on heap units should be kept to cells, not whole objects at once: while the native
 * coder holds an array pinned, a garbage collection may have to wait for it (it codes in chunks of
 * 256 KiB per unit and lets go in between).
 *
 * <p>Unit indices are {@code 0..k-1} for data and {@code k..k+r-1} for parity. Parity unit
 * {@code k + i} depends only on k and i, not on r: a coder for (k, r + 1) produces the same first r
 * parities as one for (k, r).
 */
public interface ErasureCoder {
  /** The number of data units, k. */
  int dataUnits();

  /** The number of parity units, r. */
  int parityUnits();

  /** Which implementation does the arithmetic. */
  ReedSolomon.Implementation implementation();

  /**
   * Computes the r parity units of k data units.
   *
   * @param data exactly k buffers (direct or heap), read between position and limit
   * @param parity exactly r writable buffers (direct or heap), overwritten between position and
   *     limit
   */
  void encode(ByteBuffer[] data, ByteBuffer[] parity);

  /**
   * Rebuilds lost units from surviving ones.
   *
   * @param units k + r entries indexed by unit; {@code null} for a unit that is not available. At
   *     least k must be non-null; the k lowest-indexed ones are read (choose which by passing
   *     {@code null} for the others), the rest are ignored.
   * @param erased the distinct indices of the units to rebuild, data or parity, each {@code null} in
   *     {@code units}
   * @param outputs one writable buffer (direct or heap) per entry of {@code erased}, in the same
   *     order
   */
  void decode(ByteBuffer[] units, int[] erased, ByteBuffer[] outputs);
}
