package io.eccache.lognode;

/**
 * How a log node lays its parity and parity deltas out on disk (LogECMem, SC'21, section 5 and
 * Fig. 9). Chosen per node, fixed for its directory. In every scheme the node first buffers in memory
 * and acks there (buffer logging); the schemes differ in what one flush writes where, and in what a
 * repair has to read back.
 */
public enum LogScheme {
  /**
   * Parity logging: every flush appends the whole buffer (bases and deltas, one record each) to an
   * append-only log with one sequential write. A repair reads the stripe's base and each of its deltas
   * from wherever they landed in the log: one random read per record.
   */
  PL(true, false, false),

  /**
   * Parity logging with reserved space (CodFS, FAST'14): one file per stripe holding the base parity
   * followed by a preallocated area its deltas are appended to. One random write per base and per
   * delta at flush; one read at repair.
   */
  PLR(false, true, false),

  /**
   * PLR with in-memory merging: at flush, a stripe's buffered deltas (and base, if it has one
   * buffered) are merged into one record first, so one random write per stripe per flush.
   */
  PLR_M(false, true, true),

  /**
   * Parity logging with merging: flushes go to a sequential log as in {@link #PL}; a later merge step
   * reads the log back once, merges each stripe's records and writes one record per stripe into its
   * reserved space as in {@link #PLR_M}, then deletes the log it merged.
   */
  PLM(true, true, true);

  private final boolean flushesToLog;
  private final boolean reservedSpace;
  private final boolean merges;

  LogScheme(boolean flushesToLog, boolean reservedSpace, boolean merges) {
    this.flushesToLog = flushesToLog;
    this.reservedSpace = reservedSpace;
    this.merges = merges;
  }

  /** Whether a flush appends to the sequential log (PL, PLM) rather than to stripe files. */
  public boolean flushesToLog() {
    return flushesToLog;
  }

  /** Whether stripes have a file with the base parity and a reserved delta area (PLR, PLR-m, PLM). */
  public boolean hasReservedSpace() {
    return reservedSpace;
  }

  /** Whether a stripe's deltas are merged into one record before they reach its reserved space. */
  public boolean mergesPerStripe() {
    return merges;
  }
}
