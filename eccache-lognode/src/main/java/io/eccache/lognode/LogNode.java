package io.eccache.lognode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A log node: holds one parity row (1..r-1; row 0, the XOR parity, lives in memory elsewhere) of many
 * packed stripes, LogECMem's hybrid parity logging. Bases arrive with {@link #putBase}; an update's data
 * delta arrives with {@link #appendDelta} and is acked as soon as its parity delta is in the memory
 * buffer; its outcome arrives later ({@link #commit} or {@link #abort}); {@link #readParity} rebuilds the
 * parity at an exact version for a repair. The buffer goes to disk on {@link #flush()} (or when it is
 * full, or from {@link #maintain()}) under the node's {@link LogScheme}. The package documentation has
 * the rules; {@code docs/lognode.md} the formats.
 *
 * <p><b>Versions.</b> An update starts from a base version v and commits as v + 1; a node holds a
 * stripe at the newest version up to which it knows every commit, and serves exactly that version.
 * Only committed deltas are merged into the parity, written to disk, or served.
 *
 * <p><b>Errors.</b> Misuse throws {@link IllegalArgumentException} (a bad argument: size, range, row,
 * version arithmetic) or {@link IllegalStateException} (wrong for the state: unknown stripe, duplicate
 * update id, a version going backwards, a full buffer) before anything changes. A disk failure throws
 * {@link UncheckedIOException}; what was buffered stays buffered and the next flush retries it.
 *
 * <p><b>Threads and locks.</b> Every method is thread-safe. Appends, commits and aborts lock only their
 * stripe, and compute the parity delta before taking it; they never wait for the disk unless the buffer
 * is full. One disk writer at a time (flush or merge) holds the disk lock and no stripe lock while it
 * writes; it takes each stripe's lock only to snapshot its chain and to swap written links in. Reads
 * take a shared layout lock while they read files, which file renames and segment deletions take
 * exclusively (metadata operations only), so a read never follows a stale position; the read's disk
 * I/O happens under the shared lock and no stripe lock. Lock order: membership, then layout, then
 * stripe.
 *
 * <p>Over 350 lines because it is the whole public API with its contracts written out; the work is in
 * small parts ({@link StripeState} the version rules, {@link Flusher} and {@link PlmMerger} the disk
 * writes, {@link ChainReader} the reads, {@link Recovery} the replay), and what is left here is argument
 * checks, buffer charges and locking.
 */
public final class LogNode implements AutoCloseable {
  private static final String LOG_DIR = "log";
  private static final String STRIPES_DIR = "stripes";

  private final LogNodeConfig config;
  private final Clock clock;
  private final DiskCounters counters;
  private final MemoryBudget budget;
  private final LogSegments segments;
  private final ChainReader reader;
  private final Flusher flusher;
  private final PlmMerger merger;
  private final RecoveryReport recovery;
  /** Stripes held, in id order (flushes write in that order). Changed only under {@code membership}. */
  private final ConcurrentSkipListMap<Long, StripeState> stripes = new ConcurrentSkipListMap<>();
  private final Object membership = new Object();
  /** Stripes dropped since the last flush, for it to delete or log. Guarded by {@code membership}. */
  private final List<Long> pendingDrops = new ArrayList<>();
  /**
   * Stripes that may have links in memory (a base put, a commit) since the last flush looked: a flush
   * visits only these, not every stripe the node holds.
   */
  private final ConcurrentSkipListSet<Long> dirty = new ConcurrentSkipListSet<>();
  private final ReentrantReadWriteLock layout = new ReentrantReadWriteLock();
  private final ReentrantLock diskWriter = new ReentrantLock();
  private volatile long lastFlushMillis;
  private volatile boolean closed;

  private LogNode(LogNodeConfig config) throws IOException {
    this.config = config;
    this.clock = config.clock();
    this.counters = new DiskCounters();
    this.budget = new MemoryBudget(config.bufferBytes());
    Files.createDirectories(config.directory());
    NodeIdentity.establish(config);
    StripeFiles files = new StripeFiles(config.directory().resolve(STRIPES_DIR), config.row(), config.unitSize(),
        config.reservedBytes(), config.fsync(), counters);
    files.createDirectory();
    this.segments = new LogSegments(config.directory().resolve(LOG_DIR), config.segmentBytes(), config.fsync(),
        counters);
    this.reader = new ChainReader(files, segments, config.unitSize());
    this.flusher = new Flusher(config.scheme(), config.unitSize(), files, segments, reader, layout.writeLock());
    this.merger = new PlmMerger(config.unitSize(), files, segments, reader, layout.writeLock());
    Recovery replay = new Recovery(config.unitSize(), config.reservedBytes(), files, segments);
    replay.run(config.scheme().hasReservedSpace(), config.scheme().flushesToLog());
    for (Map.Entry<Long, List<Part>> entry : replay.chains().entrySet()) {
      stripes.put(entry.getKey(), new StripeState(entry.getKey(), entry.getValue()));
    }
    this.recovery = replay.report();
    this.lastFlushMillis = clock.millis();
  }

  /**
   * Opens a log node on its directory (created if missing), recovering what an earlier node there had
   * flushed: see {@link #recovery()}.
   *
   * @throws IllegalArgumentException if the directory holds a node with another code, row, unit size,
   *     scheme or reserved size
   * @throws UncheckedIOException if the directory cannot be read or written
   */
  public static LogNode open(LogNodeConfig config) {
    Objects.requireNonNull(config, "config");
    try {
      return new LogNode(config);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the log node in " + config.directory(), e);
    }
  }

  /** The configuration. */
  public LogNodeConfig config() {
    return config;
  }

  /** What the node recovered from its directory when it opened (empty for a new directory). */
  public RecoveryReport recovery() {
    return recovery;
  }

  /**
   * Sets a stripe's parity at {@code version}: at seal time, or to rebuild a stale or lost one. Creates
   * the stripe if the node does not hold it. The base replaces the whole parity; open updates it makes
   * moot (undecided ones starting before {@code version}, commits up to it) are dropped, later ones kept.
   * Buffered like a delta (in memory until the next flush).
   *
   * @param row the parity row, which must be this node's ({@link LogNodeConfig#row()})
   * @param version the stripe's version, not below the one the node holds
   * @param parity exactly {@code unitSize} bytes between position and limit (not moved, copied)
   * @throws IllegalArgumentException on a wrong row, size or negative id or version
   * @throws IllegalStateException if the version is below the held one, or the buffer is full
   */
  public void putBase(long stripe, int row, long version, ByteBuffer parity) {
    ensureOpen();
    checkStripeId(stripe);
    if (row != config.row()) {
      throw new IllegalArgumentException("this log node holds parity row " + config.row() + ", not row " + row
          + " (stripe " + stripe + ")");
    }
    if (version < 0) {
      throw new IllegalArgumentException("version must not be negative, not " + version);
    }
    Objects.requireNonNull(parity, "parity");
    if (parity.remaining() != config.unitSize()) {
      throw new IllegalArgumentException("a base of stripe " + stripe + " is " + config.unitSize()
          + " bytes, not " + parity.remaining());
    }
    StripeState existing = stripes.get(stripe);
    if (existing != null && existing.version() > version) {
      existing.checkRebase(version);
    }
    byte[] copy = new byte[config.unitSize()];
    parity.duplicate().get(copy);
    long charge = MemoryBudget.charge(copy.length);
    reserve(charge, "base of stripe " + stripe);
    boolean kept = false;
    try {
      long released = 0;
      synchronized (membership) {
        StripeState state = stripes.get(stripe);
        if (state == null) {
          stripes.put(stripe, new StripeState(stripe, List.of(Part.base(version, copy))));
        } else {
          released = state.rebase(version, copy);
        }
      }
      kept = true;
      dirty.add(stripe);
      budget.release(released);
    } finally {
      if (!kept) {
        budget.release(charge);
      }
    }
  }

  /**
   * Buffers an update's data delta; when this returns, the update is acked by this node. The node
   * computes its parity delta ({@code c(row, dataIndex) x delta}) now, outside any lock, and keeps that
   * until the update's outcome arrives.
   *
   * @param updateId the update's id, unique within the stripe
   * @param baseVersion the version the update starts from; it commits as {@code baseVersion + 1}
   * @param dataIndex the data unit changed, 0..k-1
   * @param offset where in the unit the changed range starts
   * @param dataDelta old XOR new of the range, between position and limit (not moved, copied)
   * @throws IllegalArgumentException if the index or range is outside the unit, or a value negative
   * @throws IllegalStateException if the stripe is not held, the id was already appended, the base
   *     version is behind the held one (the update could never commit), or the buffer is full of
   *     undecided deltas
   */
  public void appendDelta(long stripe, long updateId, long baseVersion, int dataIndex, int offset,
      ByteBuffer dataDelta) {
    ensureOpen();
    checkStripeId(stripe);
    if (dataIndex < 0 || dataIndex >= config.dataUnits()) {
      throw new IllegalArgumentException("data unit " + dataIndex + " is not in 0.." + (config.dataUnits() - 1));
    }
    Objects.requireNonNull(dataDelta, "dataDelta");
    int length = dataDelta.remaining();
    if (offset < 0 || (long) offset + length > config.unitSize()) {
      throw new IllegalArgumentException("delta [" + offset + ", " + ((long) offset + length)
          + ") is not inside a unit of " + config.unitSize() + " bytes");
    }
    if (baseVersion < 0) {
      throw new IllegalArgumentException("baseVersion must not be negative, not " + baseVersion);
    }
    StripeState state = held(stripe);
    state.checkAppend(updateId, baseVersion);
    byte[] parityDelta = parityDelta(dataIndex, dataDelta);
    long charge = MemoryBudget.charge(length);
    reserve(charge, "delta of update " + updateId + " of stripe " + stripe);
    boolean kept = false;
    try {
      state.addUndecided(updateId, baseVersion, offset, parityDelta, clock.millis());
      kept = true;
    } finally {
      if (!kept) {
        budget.release(charge);
      }
    }
  }

  /**
   * The update committed as {@code newVersion}: its delta joins the parity once every version before it
   * has too. Repeating a commit is harmless.
   *
   * @return true if this call committed it, false if it already was
   * @throws IllegalArgumentException if {@code newVersion} is not the update's base version + 1
   * @throws IllegalStateException if the stripe is not held; the update is unknown and its version is
   *     beyond the held one (its delta never arrived or was lost in a restart: the stripe stays behind
   *     until rebuilt); or another update already committed as that version
   */
  public boolean commit(long stripe, long updateId, long newVersion) {
    ensureOpen();
    checkStripeId(stripe);
    if (newVersion < 1) {
      throw new IllegalArgumentException("a commit makes version 1 or later, not " + newVersion);
    }
    boolean committed = held(stripe).commit(updateId, newVersion);
    dirty.add(stripe);
    return committed;
  }

  /**
   * The update was aborted: its delta is dropped, never merged. Aborting an unknown update (never
   * arrived, lost in a restart, aborted already) does nothing.
   *
   * @return true if a buffered delta was dropped
   * @throws IllegalStateException if the stripe is not held, or the update is known to have committed
   */
  public boolean abort(long stripe, long updateId) {
    ensureOpen();
    checkStripeId(stripe);
    long released = held(stripe).abort(updateId);
    if (released < 0) {
      return false;
    }
    budget.release(released);
    return true;
  }

  /**
   * The parity at exactly {@code version}: the base plus every committed delta up to it, from memory
   * and disk alike; or, if the node holds another version, which one ({@link ParityRead}).
   *
   * @throws IllegalStateException if the stripe is not held
   * @throws UncheckedIOException if the disk cannot be read, or holds something other than expected
   */
  public ParityRead readParity(long stripe, long version) {
    ensureOpen();
    checkStripeId(stripe);
    if (version < 0) {
      throw new IllegalArgumentException("version must not be negative, not " + version);
    }
    StripeState state = held(stripe);
    layout.readLock().lock();
    try {
      StripeState.Held held = state.held(version);
      if (held.chain == null) {
        return ParityRead.notAt(version, held.version);
      }
      return ParityRead.at(version, reader.parity(stripe, held.chain, DiskStats.Purpose.READ));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the parity of stripe " + stripe + " at version " + version, e);
    } finally {
      layout.readLock().unlock();
    }
  }

  /**
   * Forgets a stripe: its buffered state at once, its files at the next flush. Until that flush a crash
   * can bring the stripe back (reported by {@link #recovery()}, to be dropped again).
   *
   * @return true if the node held the stripe
   */
  public boolean dropStripe(long stripe) {
    ensureOpen();
    checkStripeId(stripe);
    long released;
    synchronized (membership) {
      StripeState state = stripes.remove(stripe);
      if (state == null) {
        return false;
      }
      released = state.drop();
      pendingDrops.add(stripe);
    }
    budget.release(released);
    return true;
  }

  /** The version the node holds of a stripe, or empty if it does not hold it. */
  public OptionalLong version(long stripe) {
    StripeState state = stripes.get(stripe);
    long version = state == null ? -1 : state.version();
    return version < 0 ? OptionalLong.empty() : OptionalLong.of(version);
  }

  /** Every stripe held and its version, in stripe order. */
  public Map<Long, Long> versions() {
    Map<Long, Long> versions = new TreeMap<>();
    for (StripeState state : stripes.values()) {
      long version = state.version();
      if (version >= 0) {
        versions.put(state.id, version);
      }
    }
    return versions;
  }

  /** Updates buffered for at least {@code age} without an outcome: what to ask the coordinator about. */
  public List<UndecidedUpdate> undecidedOlderThan(Duration age) {
    long cutoff = clock.millis() - age.toMillis();
    List<UndecidedUpdate> old = new ArrayList<>();
    for (StripeState state : stripes.values()) {
      old.addAll(state.undecidedBefore(cutoff + 1));
    }
    return old;
  }

  /**
   * Writes every committed, in-order delta and every base in the buffer to disk under the node's
   * scheme, and the drops since the last flush; under PLM, goes on to {@link #merge()} if the log has
   * reached {@link LogNodeConfig#mergeLogBytes()}. Undecided and out-of-order deltas stay in memory.
   *
   * @throws UncheckedIOException if a write fails (what was not written stays buffered)
   */
  public void flush() {
    ensureOpen();
    diskWriter.lock();
    try {
      flushLocked();
      if (config.scheme() == LogScheme.PLM && segments.totalBytes() >= config.mergeLogBytes()) {
        budget.release(merger.merge(stripes.values()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("log node flush failed in " + config.directory(), e);
    } finally {
      diskWriter.unlock();
    }
  }

  /**
   * PLM: merges the whole log into the stripes' reserved spaces now, then deletes it. Does nothing
   * under the other schemes.
   *
   * @throws UncheckedIOException if a read or write fails (the log is then kept)
   */
  public void merge() {
    ensureOpen();
    if (config.scheme() != LogScheme.PLM) {
      return;
    }
    diskWriter.lock();
    try {
      budget.release(merger.merge(stripes.values()));
    } catch (IOException e) {
      throw new UncheckedIOException("log node merge failed in " + config.directory(), e);
    } finally {
      diskWriter.unlock();
    }
  }

  /**
   * The periodic step a host calls (from a timer; nothing here starts threads): flushes if the buffer is
   * half full or {@link LogNodeConfig#flushInterval()} has passed on the node's clock since the last
   * flush, and under PLM merges if the log has grown past {@link LogNodeConfig#mergeLogBytes()}.
   */
  public void maintain() {
    ensureOpen();
    long now = clock.millis();
    if (budget.used() * 2 >= budget.capacity() || now - lastFlushMillis >= config.flushInterval().toMillis()) {
      flush();
    } else if (config.scheme() == LogScheme.PLM && segments.totalBytes() >= config.mergeLogBytes()) {
      merge();
    }
  }

  /** Bytes the buffer holds now, charged as {@link LogNodeConfig#bufferBytes()} counts them. */
  public long bufferedBytes() {
    return budget.used();
  }

  /** Bytes in the log's segments on disk (PL, PLM). */
  public long logBytes() {
    return segments.totalBytes();
  }

  /** The disk I/O done so far. */
  public DiskStats diskStats() {
    return counters.snapshot();
  }

  /** Flushes, then closes. Further calls throw {@link IllegalStateException}. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    try {
      flush();
    } finally {
      closed = true;
      closeFiles();
    }
  }

  /** Stops using the directory without flushing: what a crash leaves behind (tests). */
  void abandon() {
    closed = true;
    closeFiles();
  }

  private void closeFiles() {
    diskWriter.lock();
    try {
      segments.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      diskWriter.unlock();
    }
  }

  private void flushLocked() throws IOException {
    List<Long> drops;
    List<Flusher.Batch> batches = new ArrayList<>();
    // One snapshot of drops and chains: a drop and a new stripe of the same id after it land in
    // the same flush in that order, or in a later one.
    synchronized (membership) {
      drops = new ArrayList<>(pendingDrops);
      pendingDrops.clear();
      // Taken out of the set before the chains are looked at: a commit after this marks it again.
      List<Long> marked = new ArrayList<>(dirty);
      dirty.removeAll(marked);
      for (long stripe : marked) {
        StripeState state = stripes.get(stripe);
        List<Part> chain = state == null ? null : state.flushable();
        if (chain != null) {
          batches.add(new Flusher.Batch(state, chain));
        }
      }
    }
    boolean done = false;
    try {
      budget.release(flusher.flush(drops, batches));
      done = true;
    } finally {
      if (!done) {
        synchronized (membership) {
          pendingDrops.addAll(0, drops);
        }
        for (Flusher.Batch batch : batches) {
          dirty.add(batch.state.id);
        }
      }
    }
    lastFlushMillis = clock.millis();
  }

  /** The most flushes one reservation makes while other appends keep filling what it freed. */
  private static final int MAX_FLUSHES_PER_RESERVE = 64;

  /**
   * Takes buffer room, flushing while it is short. Throws only when what cannot be flushed
   * (undecided and out-of-order deltas) leaves no room: a full buffer of committed deltas is
   * flushed, and flushed again if other appends filled it between that flush and this
   * reservation (a thread descheduled on a busy machine saw that happen).
   */
  private void reserve(long charge, String what) {
    for (int flushes = 0; !budget.tryReserve(charge); flushes++) {
      long[] held = heldCharges();
      if (held[0] + held[1] + charge > budget.capacity()
          || flushes == MAX_FLUSHES_PER_RESERVE) {
        throw new IllegalStateException("log node buffer full: " + budget.used() + " of "
            + budget.capacity() + " bytes (" + held[0] + " undecided, " + held[1]
            + " out of order, " + held[2] + " committed and not yet on disk" + (flushes > 0
                ? ", after " + flushes + " flushes" : "") + "), no room for the " + what
            + "; send the outcomes of open updates, or give the node a larger buffer");
      }
      flush();
    }
  }

  /** What the stripes hold in the buffer: {undecided, out of order, committed in memory}. */
  private long[] heldCharges() {
    long[] held = new long[3];
    for (StripeState state : stripes.values()) {
      long[] c = state.charges();
      for (int i = 0; i < held.length; i++) {
        held[i] += c[i];
      }
    }
    return held;
  }

  private byte[] parityDelta(int dataIndex, ByteBuffer dataDelta) {
    byte[] in = new byte[dataDelta.remaining()];
    dataDelta.duplicate().get(in);
    byte[] out = new byte[in.length];
    if (in.length > 0) {
      config.coder().parityDelta(dataIndex, ByteBuffer.wrap(in), new int[] {config.row()},
          new ByteBuffer[] {ByteBuffer.wrap(out)});
    }
    return out;
  }

  private StripeState held(long stripe) {
    StripeState state = stripes.get(stripe);
    if (state == null) {
      throw new IllegalStateException("stripe " + stripe + " is not held by this log node (never put, dropped,"
          + " or lost from the buffer in a restart: put its base again)");
    }
    return state;
  }

  private static void checkStripeId(long stripe) {
    if (stripe < 0) {
      throw new IllegalArgumentException("stripe ids are not negative, not " + stripe);
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("log node in " + config.directory() + " is closed");
    }
  }
}
