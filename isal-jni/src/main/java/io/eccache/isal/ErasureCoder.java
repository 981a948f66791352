package io.eccache.isal;

import java.nio.ByteBuffer;

/**
 * A systematic (k, r) Reed-Solomon erasure coder: k data units, r parity units, any k of the k + r
 * units rebuild the rest. Get one from {@link ReedSolomon#coder(int, int)} (or
 * {@link ReedSolomon#coder(int, int, CodeMatrix)}); instances are immutable apart from an internal
 * cache of decode plans and are safe to share between threads.
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
 * <p>Unit indices are {@code 0..k-1} for data and {@code k..k+r-1} for parity; parity row i is unit
 * {@code k + i}. Parity unit {@code k + i} depends only on k, i and the {@link #codeMatrix() matrix},
 * not on r: a coder for (k, r + 1) produces the same first r parities as one for (k, r).
 *
 * <h2>Parity updates</h2>
 * The code is linear: when data unit i changes from {@code old} to {@code new}, parity row j changes
 * by {@code c(j, i) x delta} with {@code delta = old XOR new} and {@code c(j, i)} its coefficient.
 * {@link #encodeDelta(int, ByteBuffer, int[], ByteBuffer[])} applies that to parity in place, so a
 * small write to one unit does not re-read the other k - 1; and since the update is bytewise, the
 * delta may cover any byte range of the unit, with the parity buffers covering the same range.
 * {@link #parityDelta} computes the change alone, for parity held elsewhere (which then applies it
 * by XOR).
 */
public interface ErasureCoder {
  /** The number of data units, k. */
  int dataUnits();

  /** The number of parity units, r. */
  int parityUnits();

  /** Which implementation does the arithmetic. */
  ReedSolomon.Implementation implementation();

  /** Which generator matrix the code uses. */
  CodeMatrix codeMatrix();

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

  /**
   * Updates all r parity units for a change of data unit {@code dataIndex}: the same as
   * {@link #encodeDelta(int, ByteBuffer, int[], ByteBuffer[])} with parity rows 0..r-1.
   *
   * @param parity exactly r writable buffers (direct or heap), parity row i at index i
   */
  void encodeDelta(int dataIndex, ByteBuffer delta, ByteBuffer[] parity);

  /**
   * Updates parity for a change of data unit {@code dataIndex}: for each n,
   * {@code parity[n] ^= c(parityRows[n], dataIndex) x delta} bytewise, which turns the parity of the
   * old data into the parity of the new data. Buffers follow the class's contract (positions not
   * moved, same length, no overlap), except that {@code parity} is read as well as written.
   *
   * <pre>{@code
   * // Data unit 3 changed in bytes [from, from + n): delta holds old XOR new of those n bytes.
   * ByteBuffer range = p0.duplicate().position(from).limit(from + n);   // the same bytes of parity 0
   * coder.encodeDelta(3, delta, new int[] {0}, new ByteBuffer[] {range});
   * }</pre>
   *
   * @param dataIndex the changed data unit, 0..k-1
   * @param delta the change, old XOR new, of the unit or of a byte range of it (direct or heap;
   *     read-only direct is fine)
   * @param parityRows the distinct parity rows to update, each 0..r-1 (row i is unit k + i), in any
   *     order; may be empty
   * @param parity one writable buffer (direct or heap) per entry of {@code parityRows}, in the same
   *     order, holding that parity over the same bytes as {@code delta}
   */
  void encodeDelta(int dataIndex, ByteBuffer delta, int[] parityRows, ByteBuffer[] parity);

  /**
   * Computes parity deltas for a change of data unit {@code dataIndex}:
   * {@code outputs[n] = c(parityRows[n], dataIndex) x delta} bytewise, overwriting the outputs (they
   * need not be zeroed). XORed into the matching parity, a delta has the effect of
   * {@link #encodeDelta(int, ByteBuffer, int[], ByteBuffer[]) encodeDelta}; deltas of one parity
   * row XOR together, so they can be logged and merged later.
   *
   * @param dataIndex the changed data unit, 0..k-1
   * @param delta the change, old XOR new (direct or heap; read-only direct is fine)
   * @param parityRows the distinct parity rows wanted, each 0..r-1, in any order; may be empty
   * @param outputs one writable buffer (direct or heap) per entry of {@code parityRows}, in the same
   *     order, overwritten
   */
  void parityDelta(int dataIndex, ByteBuffer delta, int[] parityRows, ByteBuffer[] outputs);
}
