/**
 * The log node of packed stripes: LogECMem's (SC'21) hybrid parity logging, host-agnostic. A log node
 * holds parity row j (1..r-1) of many stripes of a (k, r) code with the
 * {@link io.eccache.isal.CodeMatrix#XOR_FIRST_CAUCHY XOR-first} matrix; row 0, the XOR parity P1, and the
 * data units live in memory elsewhere and are updated in place. {@link io.eccache.lognode.LogNode} is
 * the whole API; a wire service and an Alluxio worker plugin are to host it.
 *
 * <h2>Rules</h2>
 * <ul>
 *   <li><b>Versions.</b> Every stripe has a version. {@code putBase(stripe, row, v, parity)} sets the
 *       parity at v. An update appended with base version v commits as exactly v + 1, so the committed
 *       versions of a stripe follow each other without gaps. The node holds a stripe at the newest
 *       version up to which it knows every commit, and {@code readParity(stripe, v)} answers for that
 *       version only: asked for another, it says which one it holds (behind: outcomes it has not seen
 *       yet, or a copy gone stale in a restart; ahead: the reader's lookup is out of date). Older
 *       versions are not kept: merging deltas (PLR-m, PLM) erases them, and a repair wants the newest.</li>
 *   <li><b>Outcomes.</b> A delta is acked once it is in the memory buffer. It joins the parity only
 *       when committed and every version before it has too; commits that arrive out of order wait in
 *       memory. An aborted delta is dropped; an undecided one stays in memory until decided (or until a
 *       base makes it moot), is never flushed, never merged, never served, and
 *       {@code undecidedOlderThan} lists the old ones for the host to ask about. A repeated commit is
 *       a no-op; aborting an unknown update is a no-op; a commit of an update the node never got, beyond
 *       its held version, is refused (the stripe stays behind until rebuilt).</li>
 *   <li><b>Parity deltas.</b> The node turns a data delta into its parity delta at append time
 *       ({@code ErasureCoder.parityDelta} for its row), outside any lock, so the ack pays a few
 *       microseconds of coding and the buffer holds parity deltas ready to XOR. Deltas of a stripe
 *       commute; only their versions order them.</li>
 *   <li><b>Buffer.</b> Bounded by {@code bufferBytes} (payload plus 64 bytes per entry). When an append
 *       or base does not fit, the node flushes first; if undecided or out-of-order deltas still fill it,
 *       the call is refused with {@link java.lang.IllegalStateException}.</li>
 *   <li><b>Disk.</b> A flush writes committed deltas and bases by the {@link io.eccache.lognode.LogScheme}:
 *       PL appends to a log, PLR writes each to its stripe's reserved space, PLR-m one merged record per
 *       stripe, PLM appends to a log that a later merge moves into the reserved spaces.
 *       {@link io.eccache.lognode.DiskStats} counts every I/O, {@link io.eccache.lognode.DiskModel}
 *       prices them as an HDD would.</li>
 *   <li><b>Crashes.</b> A node opened on a directory recovers what was flushed and reports each
 *       stripe's version ({@link io.eccache.lognode.RecoveryReport}); what was only in the buffer is
 *       lost, as in the paper's buffer logging, so the caller compares versions with the coordinator's
 *       and rebuilds stale stripes with {@code putBase}. A stale stripe answers "behind", never wrong
 *       bytes: records carry checksums, and a torn one ends its sequence.</li>
 *   <li><b>Time.</b> Only {@code maintain()} (flush interval) and {@code undecidedOlderThan} look at
 *       time, through the configured {@link java.time.Clock}; nothing sleeps or starts threads.</li>
 * </ul>
 *
 * <p>Locking is described on {@link io.eccache.lognode.LogNode}; the on-disk formats on
 * {@code Records}, {@code StripeFiles} and {@code LogSegments}, and in {@code docs/lognode.md}.
 */
package io.eccache.lognode;
