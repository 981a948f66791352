package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.exception.status.DeadlineExceededException;
import alluxio.exception.status.UnavailableException;
import alluxio.grpc.FileInfo;
import alluxio.grpc.WorkerNetAddress;
import com.google.common.base.Ticker;
import io.eccache.common.ReadChoice;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import io.eccache.isal.ReedSolomon;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The late-binding reader against fake split sources: a real (3, 2) Reed-Solomon object of two
 * stripes, its five splits served from memory, some of them slow, failing, corrupt or silent. Every
 * case checks the bytes that come back and that every pooled buffer returns to the pool.
 */
class LateBindingReaderTest {
  private static final int K = 3;
  private static final int R = 2;
  private static final long CELL = 64 << 10;
  private static final int OBJECT = 300_000; // one full stripe of 3 x 64 KiB, one short one
  private static final long TIMEOUT_MS = 200;
  /**
   * The fake streams' chunk: not a multiple of a cell, so a cell is read partly through the
   * reader's slice (a chunk's first bytes, {@link #WAITING_READ}) and partly straight into the
   * array (a chunk's rest).
   */
  private static final int CHUNK = 40 << 10;
  /** What a fake stream's read that waits for its chunk asks for, as Alluxio's asks for 4 KiB. */
  private static final int WAITING_READ = 1000;

  /** These cases read the same splits again and again: no worker is avoided after a failure. */
  private static final WorkerHealth NO_BREAKER = new WorkerHealth(Ticker.systemTicker(), 0);

  private final byte[] object = new byte[OBJECT];
  private byte[][] splits;
  private Layout layout;
  private ExecutorService io;
  private ReadWatchdog watchdog;
  private DirectBufferPool pool;
  private FakeSource source;
  private LateBindingReader reader;
  private ReadStatistics statistics;

  @BeforeEach
  void encodeAnObject() {
    new Random(12).nextBytes(object);
    encode(object, CELL);
    assertEquals(2, StripeGeometry.of(layout).stripes());
    io = Executors.newFixedThreadPool(8);
    watchdog = new ReadWatchdog(ReadWatchdog.tickFor(TIMEOUT_MS), ReadWatchdog.quietFor(TIMEOUT_MS));
    pool = new DirectBufferPool(64L << 20);
    source = new FakeSource();
    statistics = new ReadStatistics();
    reader = reader(ReadChoice.RANDOM);
  }

  /** Codes {@code bytes} as the writer does (padding zero) into {@link #splits} and the layout. */
  private void encode(byte[] bytes, long cellSize) {
    StripeGeometry g = new StripeGeometry(bytes.length, K, cellSize);
    splits = new byte[K + R][(int) g.splitSize()];
    Integer[] crcs = new Integer[g.checksums(K + R)];
    for (int s = 0; s < g.stripes(); s++) {
      int cell = (int) g.cellLength(s);
      ByteBuffer[] data = new ByteBuffer[K];
      ByteBuffer[] parity = new ByteBuffer[R];
      for (int i = 0; i < K; i++) {
        data[i] = ReedSolomon.allocateAligned(cell);
        long from = g.objectOffset(s) + (long) i * cell;
        int len = (int) Math.max(0, Math.min(cell, bytes.length - from));
        data[i].put(bytes, (int) Math.min(from, bytes.length), len).clear(); // zero padded
      }
      for (int i = 0; i < R; i++) {
        parity[i] = ReedSolomon.allocateAligned(cell);
      }
      ReedSolomon.coder(K, R).encode(data, parity);
      for (int i = 0; i < K + R; i++) {
        ByteBuffer unit = (i < K ? data[i] : parity[i - K]).duplicate();
        crcs[g.checksumIndex(i, s)] = SplitWriter.crc32c(unit);
        unit.get(splits[i], (int) g.splitOffset(s), cell);
      }
    }
    layout = Layout.newBuilder().setKey("fake").setWriteId("w1").setDirectory("/fake/w1")
        .setScheme(SchemeProtos.toProto(RedundancyScheme.erasureCoded(K, R)))
        .setObjectSize(bytes.length).setCellSize(cellSize).setSplitSize(g.splitSize())
        .addAllCrc32C(java.util.Arrays.asList(crcs)).build();
  }

  private LateBindingReader reader(ReadChoice choice) {
    return reader(choice, TimeUnit.MILLISECONDS.toNanos(1));
  }

  /** Data-first waits at least {@code graceNanos} for a data split once k splits arrived. */
  private LateBindingReader reader(ReadChoice choice, long graceNanos) {
    return new LateBindingReader(source, io, watchdog, pool, statistics, TIMEOUT_MS, choice,
        graceNanos, Ticker.systemTicker(), NO_BREAKER);
  }

  @AfterEach
  void stop() throws Exception {
    source.slow.countDown();
    io.shutdown();
    watchdog.close();
    assertTrue(io.awaitTermination(10, TimeUnit.SECONDS));
  }

  /** Codes {@code bytes} as {@code copies} whole copies (k = 1, no padding) into the splits. */
  private void encodeCopies(byte[] bytes, int copies) {
    StripeGeometry g = new StripeGeometry(bytes.length, 1, CELL);
    splits = new byte[copies][];
    Integer[] crcs = new Integer[g.checksums(copies)];
    for (int i = 0; i < copies; i++) {
      splits[i] = bytes.clone();
      for (int s = 0; s < g.stripes(); s++) {
        crcs[g.checksumIndex(i, s)] = SplitWriter.crc32c(
            ByteBuffer.wrap(bytes, (int) g.objectOffset(s), (int) g.cellLength(s)));
      }
    }
    layout = Layout.newBuilder().setKey("copies").setWriteId("w1").setDirectory("/fake/w1")
        .setScheme(SchemeProtos.toProto(RedundancyScheme.replicated(copies)))
        .setObjectSize(bytes.length).setCellSize(CELL).setSplitSize(g.splitSize())
        .addAllCrc32C(java.util.Arrays.asList(crcs)).build();
  }

  /** A replicated object's lookup: every copy live. */
  private LookupResponse copiesLookup() {
    LookupResponse.Builder b = LookupResponse.newBuilder().setLayout(layout);
    RedundancyScheme scheme = SchemeProtos.of(layout);
    for (int i = 0; i < scheme.splits(); i++) {
      b.addSplits(Split.newBuilder().setIndex(i)
          .setPath(layout.getDirectory() + "/" + scheme.splitName(i))
          .setWorker(WorkerNetAddress.newBuilder().setHost("worker-" + i))
          .setLive(true).setStatus(FileInfo.getDefaultInstance()));
    }
    return b.build();
  }

  /** Reads a replicated object whole, as a GET does (Δ = 0: one copy). */
  private byte[] readCopies() throws IOException {
    byte[] out = new byte[OBJECT];
    reader.read(copiesLookup(), 0, 0, StripeGeometry.of(layout).stripes(), out, 0);
    return out;
  }

  @Test
  void aCopyIsReadOnTheCallersThreadAndNoOtherIsAsked() throws Exception {
    encodeCopies(object, 3);
    for (int i = 0; i < 6; i++) {
      assertArrayEquals(object, readCopies());
    }
    assertEquals(Set.of(Thread.currentThread().getName()), source.openingThreads,
        "a GET that needs one read hands it to no other thread");
    assertEquals(6, source.opened(0) + source.opened(1) + source.opened(2), "one copy per GET");
    assertAllBuffersBack();
  }

  @Test
  void aCopyThatNeverAnswersIsGivenUpAtTheTimeoutAndLeavesNoInterruptBehind() throws Exception {
    encodeCopies(object, 3);
    source.behave(0, Behaviour.SILENT_UNTIL_INTERRUPTED); // as Alluxio's block stream waits
    long slowest = 0;
    for (int i = 0; i < 40 && source.opened(0) < 2; i++) {
      long began = System.nanoTime();
      assertArrayEquals(object, readCopies());
      slowest = Math.max(slowest, System.nanoTime() - began);
      assertFalse(Thread.currentThread().isInterrupted(), "the watchdog's interrupt was left");
    }
    assertTrue(source.opened(0) >= 2, "the silent copy was never the one read");
    assertTrue(slowest >= TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS),
        "a GET that read the silent copy gave it the I/O timeout: " + slowest + " ns");
    assertTrue(slowest < TimeUnit.SECONDS.toNanos(5),
        "the silent read was not ended at the timeout: " + slowest + " ns");
    assertAllBuffersBack();
  }

  @Test
  void anInterruptOfTheCallersOwnIsKept() throws Exception {
    encodeCopies(object, 2);
    Thread.currentThread().interrupt();
    byte[] out;
    try {
      out = readCopies(); // the fake reads from memory, deaf to interrupts
    } finally {
      assertTrue(Thread.interrupted(), "the caller's own interrupt was cleared");
    }
    assertArrayEquals(object, out);
  }

  @Test
  void readsTheObjectFromAnyKSplits() throws Exception {
    for (int delta = 0; delta <= R; delta++) {
      assertArrayEquals(object, read(lookup(K + R), delta), "delta " + delta);
    }
    assertAllBuffersBack();
  }

  @Test
  void aStragglerDoesNotHoldTheReadUpAndGivesItsBufferBack() throws Exception {
    // Both parities straggle (each staged in a pooled buffer), so the three data splits come
    // first however the machine schedules the reads.
    source.behave(3, Behaviour.SLOW);
    source.behave(4, Behaviour.SLOW);
    // ... once one was asked: else, on a busy machine, k arrive before any straggler's read
    // begins, and a read not begun when its GET is done is not made at all.
    source.othersWaitForTheMisbehaving = true;
    reader = reader(ReadChoice.DATA_FIRST);
    long began = System.nanoTime();
    assertArrayEquals(object, read(lookup(K + R), R)); // all five asked for
    long ms = (System.nanoTime() - began) / 1_000_000;
    assertTrue(ms < 5_000, "the read waited for the stragglers: " + ms + " ms");
    assertTrue(source.slowStarted.await(10, TimeUnit.SECONDS), "a straggler was asked too");
    // A parity whose read had not begun when the read returned is never made; each begun holds
    // its buffer while it waits. A read may take its buffer just as the GET returns and open its
    // stream just after, so wait for the two counts to meet rather than sample them once.
    awaitUpTo10s(() -> pool.outstanding() == source.opened(3) + source.opened(4));
    assertEquals(source.opened(3) + source.opened(4), pool.outstanding(),
        "the stragglers hold their buffers while they read");
    source.slow.countDown(); // they go on now, long after the window stopped wanting them
    assertAllBuffersBack();
    assertEquals(0, statistics.decodes(), "the three data splits came first: nothing decoded");
  }

  @Test
  void aStragglerCopyingIntoTheArrayStopsWhenTheReadReturns() throws Exception {
    // A data split, read straight into the caller's array, answers only after the read returned,
    // and with bad bytes: whatever it does then, the array must keep the decoded object.
    source.behave(0, Behaviour.SLOW_CORRUPT);
    source.othersWaitForTheMisbehaving = true; // asked before the others can make the k
    byte[] out = read(lookup(K + R), R);
    assertArrayEquals(object, out);
    assertEquals(1, statistics.decodes(), "data split 0 was rebuilt from a parity");
    assertTrue(source.slowStarted.await(10, TimeUnit.SECONDS), "the straggler was asked too");
    source.slow.countDown();
    awaitStreamsClosed();
    assertArrayEquals(object, out, "a read that ended after the GET changed its bytes");
    assertTrue(statistics.unreadBytesByWorker().getOrDefault("worker-0", 0L) > 0,
        "the straggler was stopped part-way: " + statistics.unreadBytesByWorker());
    assertAllBuffersBack();
  }

  @Test
  void dataFirstDecodesOnlyWhenADataSplitIsMissing() throws Exception {
    // A grace long enough that a healthy data split always comes before it ends.
    reader = reader(ReadChoice.DATA_FIRST, TimeUnit.SECONDS.toNanos(10));
    for (int i = 0; i < 20; i++) {
      assertArrayEquals(object, read(lookup(K + R), 1));
    }
    assertEquals(0, statistics.decodes(), "healthy data-first reads never decode");
    source.behave(1, Behaviour.FAIL);
    assertArrayEquals(object, read(lookup(K + R), 1));
    assertEquals(1, statistics.decodes(), "a failed data split is rebuilt from a parity");
    source.reset();
    source.behave(2, Behaviour.SLOW);
    reader = reader(ReadChoice.DATA_FIRST, TimeUnit.MILLISECONDS.toNanos(20));
    assertArrayEquals(object, read(lookup(K + R), 1));
    assertEquals(2, statistics.decodes(), "a data split late past its grace is rebuilt too");
    source.slow.countDown();
    assertAllBuffersBack();
  }

  @Test
  void hedgedReadsAParityOnlyWhenADataSplitIsLate() throws Exception {
    // A grace long enough that a healthy data split always comes before it ends.
    reader = reader(ReadChoice.HEDGED, TimeUnit.SECONDS.toNanos(10));
    for (int i = 0; i < 20; i++) {
      assertArrayEquals(object, read(lookup(K + R), 1));
    }
    assertEquals(0, source.opened(K) + source.opened(K + 1), "a healthy read asks no parity");
    assertEquals(0, statistics.hedges());
    assertEquals(0, statistics.decodes());
    source.behave(2, Behaviour.SLOW);
    reader = reader(ReadChoice.HEDGED, TimeUnit.MILLISECONDS.toNanos(20));
    assertArrayEquals(object, read(lookup(K + R), 1));
    assertEquals(1, statistics.hedges(), "the late data split started the extra read");
    assertEquals(1, source.opened(K) + source.opened(K + 1), "delta = 1: one parity asked for");
    assertEquals(1, statistics.decodes(), "the late data split was rebuilt from the parity");
    source.slow.countDown();
    assertAllBuffersBack();
  }

  @Test
  void aHealthyReadCopiesOnlyEachChunksFirstBytesTwice() throws Exception {
    // Of each chunk a data split's stream receives, only the read that waits for it goes through
    // the reader's slice, and it asks for a chunk's first bytes only; the rest goes straight in.
    reader = reader(ReadChoice.HEDGED, TimeUnit.SECONDS.toNanos(10));
    assertArrayEquals(object, read(lookup(K + R), 1));
    long splitBytes = 2 * CELL; // two stripes
    long chunks = (splitBytes + CHUNK - 1) / CHUNK;
    for (int i = 0; i < K; i++) {
      long waited = source.waitedBytes(i);
      assertTrue(waited > 0 && waited <= chunks * WAITING_READ, "split " + i + ": " + waited
          + " bytes read by reads that waited for a chunk; at most " + chunks * WAITING_READ);
    }
  }

  @Test
  void hedgedReplacesAFailedDataSplitAtOnce() throws Exception {
    source.behave(0, Behaviour.FAIL);
    reader = reader(ReadChoice.HEDGED, TimeUnit.SECONDS.toNanos(10));
    assertArrayEquals(object, read(lookup(K + R), 0)); // delta 0: a failure still has a stand-in
    assertEquals(1, statistics.decodes());
    assertEquals(0, statistics.hedges(), "a failure is replaced without waiting for a hedge");
    assertAllBuffersBack();
  }

  @Test
  void hundredsOfReadsWithFailuresLeaveNoBufferOut() throws Exception {
    // Late binding with delta = 1 on every choice, a split failing, one corrupt, one slow: every
    // buffer a read takes comes back, and the pool stops growing once it holds what is in flight.
    Random random = new Random(7);
    Behaviour[] trouble = {Behaviour.FAIL, Behaviour.CORRUPT, Behaviour.NORMAL};
    long grownBy = 0;
    for (int i = 0; i < 300; i++) {
      source.behave(random.nextInt(K + R), trouble[i % trouble.length]);
      reader = reader(ReadChoice.values()[i % ReadChoice.values().length]);
      assertArrayEquals(object, read(lookup(K + R), 1), "read " + i);
      source.reset();
      if (i == 99) {
        grownBy = pool.allocations();
      }
    }
    assertAllBuffersBack();
    assertTrue(pool.allocations() - grownBy <= 4, "the pool kept allocating after 100 reads: "
        + grownBy + " then " + pool.allocations());
  }

  @Test
  void aLastStripeWithAWholeCellOfPaddingReadsAndDecodes() throws Exception {
    // 3 full stripes of 3 x 4 bytes, then 1 byte: a last stripe of 1-byte cells, two all padding.
    byte[] small = new byte[37];
    new Random(5).nextBytes(small);
    encode(small, 4);
    StripeGeometry g = StripeGeometry.of(layout);
    for (int delta = 0; delta <= R; delta++) {
      for (int failed = -1; failed < K; failed++) {
        source.reset();
        if (failed >= 0) {
          source.behave(failed, Behaviour.FAIL);
        }
        for (int from = 0; from < g.stripes(); from++) {
          int to = Math.min(g.stripes(), from + 2);
          long start = g.objectOffset(from);
          byte[] out = new byte[(int) (Math.min(small.length, g.objectOffset(to)) - start)];
          reader.read(lookup(K + R), delta, from, to, out, 0);
          assertArrayEquals(java.util.Arrays.copyOfRange(small, (int) start, (int) start
              + out.length), out, "stripes " + from + "-" + to + ", split " + failed + " failed");
        }
      }
    }
    assertAllBuffersBack();
  }

  @Test
  void aDecodeTakesNoPooledCellsForDataCellsWhollyInsideTheObject() throws Exception {
    // A pool that keeps nothing allocates on every acquire, so its allocations count acquires.
    // Delta = 0 and a failed data split: every read launched has ended when read() returns, and
    // a decode always runs. Only the staged parities may take pooled buffers, plus (37-byte
    // object) the last stripe's cells that are padding: data positions 1 and 2, in or rebuilt.
    byte[] small = new byte[37];
    new Random(6).nextBytes(small);
    for (boolean padding : new boolean[] {false, true}) {
      if (padding) {
        encode(small, 4); // a last stripe of 1-byte cells, two all padding
      }
      byte[] expected = padding ? small : object;
      int paddingCells = padding ? 2 : 0;
      assertEquals(padding, K * StripeGeometry.of(layout).splitSize() > expected.length,
          "whether the last stripe has padding");
      for (int trial = 0; trial < 20; trial++) {
        source = new FakeSource();
        source.behave(trial % K, Behaviour.FAIL);
        pool = new DirectBufferPool(0);
        reader = reader(ReadChoice.RANDOM);
        long decodes = statistics.decodes();
        byte[] out = new byte[expected.length];
        reader.read(lookup(K + R), 0, 0, StripeGeometry.of(layout).stripes(), out, 0);
        assertArrayEquals(expected, out, "trial " + trial);
        assertEquals(decodes + 1, statistics.decodes(), "a data split failed: decoded");
        int parityReads = source.opened(K) + source.opened(K + 1);
        assertTrue(parityReads >= 1, "a parity was read");
        assertEquals(parityReads + paddingCells, pool.allocations(),
            "pooled buffers: one per parity read" + (padding ? " and per padding cell" : ""));
        assertEquals(0, pool.outstanding(), "buffers not given back to the pool");
      }
    }
  }

  @Test
  void aFailingSplitIsReplacedByAnother() throws Exception {
    source.behave(0, Behaviour.FAIL);
    source.behave(3, Behaviour.FAIL);
    for (int i = 0; i < 5; i++) {
      assertArrayEquals(object, read(lookup(K + R), 0)); // d01, d02 and p01 are left
    }
    assertAllBuffersBack();
  }

  @Test
  void fewerThanKReadableSplitsIsUnavailable() throws Exception {
    source.behave(0, Behaviour.FAIL);
    source.behave(1, Behaviour.FAIL);
    source.behave(4, Behaviour.FAIL);
    UnavailableException e = assertThrows(UnavailableException.class,
        () -> read(lookup(K + R), 1));
    assertTrue(e.getMessage().contains("could read only 2"), e.getMessage());
    assertAllBuffersBack();
  }

  @Test
  void aCorruptSplitCountsAsFailed() throws Exception {
    source.behave(1, Behaviour.CORRUPT);
    source.behave(4, Behaviour.CORRUPT);
    for (int i = 0; i < 5; i++) {
      assertArrayEquals(object, read(lookup(K + R), 0));
    }
    source.behave(2, Behaviour.CORRUPT);
    UnavailableException e = assertThrows(UnavailableException.class,
        () -> read(lookup(K + R), 2));
    assertTrue(e.getMessage().contains("corrupt"), e.getMessage());
    assertAllBuffersBack();
  }

  /** A watchdog for a 10 s I/O timeout (1 s quiet), and {@link #reader} bounded by it. */
  private ReadWatchdog tenSecondReads() {
    long timeoutMs = 10_000;
    ReadWatchdog reads = new ReadWatchdog(ReadWatchdog.tickFor(timeoutMs),
        ReadWatchdog.quietFor(timeoutMs));
    reader = new LateBindingReader(source, io, reads, pool, statistics, timeoutMs,
        ReadChoice.RANDOM, TimeUnit.MILLISECONDS.toNanos(1), Ticker.systemTicker(), NO_BREAKER);
    return reads;
  }

  @Test
  void anExtraReadOfASilentWorkerIsEndedSoonAfterTheReadNotAtTheTimeout() throws Exception {
    // A 10 s I/O timeout: the silent worker's read must end long before it.
    try (ReadWatchdog reads = tenSecondReads()) {
      source.behave(4, Behaviour.SILENT_UNTIL_INTERRUPTED); // a parity: k arrive without it
      // ... but only once it was asked: else, on a busy machine, k can arrive before its read
      // starts, and a read that starts after its GET is done is not made at all.
      source.othersWaitForTheMisbehaving = true;
      long began = System.nanoTime();
      assertArrayEquals(object, read(lookup(K + R), R)); // all five asked for
      assertEquals(1, source.opened(4), "the silent split was asked for");
      awaitUpTo10s(() -> reads.running() == 0);
      long endedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
      assertEquals(0, reads.running(), "split reads still running after 10 s");
      assertEquals(1, reads.abandoned(), "the silent read was not ended as no longer wanted");
      assertTrue(endedMs < 5_000, "the silent read held its thread " + endedMs + " ms");
      assertAllBuffersBack();
    }
  }

  @Test
  void anExtraReadWaitingForItsWorkerIsCancelledWhenTheReadHasItsK() throws Exception {
    // A 10 s I/O timeout (1 s quiet): only the cancel can end the silent read this soon.
    try (ReadWatchdog reads = tenSecondReads()) {
      source.behave(4, Behaviour.SILENT_UNTIL_CANCELLED);
      source.othersWaitForTheMisbehaving = true; // it is open before k can arrive
      assertArrayEquals(object, read(lookup(K + R), R)); // all five asked for
      long returned = System.nanoTime();
      awaitStreamsClosed();
      long closedAfterMs = (System.nanoTime() - returned) / 1_000_000;
      assertTrue(source.cancelled.get() >= 1, "the silent read's stream was not cancelled");
      assertTrue(closedAfterMs < 900, "its stream closed " + closedAfterMs + " ms after the read"
          + " returned: not by the cancel");
      assertEquals(0, reads.abandoned(), "the watchdog had nothing left to end");
      assertAllBuffersBack();
    }
  }

  @Test
  void anExtraReadStillReceivingIsLeftToStopAtItsNextSlice() throws Exception {
    try (ReadWatchdog reads = tenSecondReads()) {
      for (int i = 0; i < 20; i++) {
        assertArrayEquals(object, read(lookup(K + R), R));
      }
      awaitStreamsClosed();
      // Every GET opened its k; a read queued until its GET had them was not made at all.
      assertTrue(source.streams.get() >= 20 * K, "streams opened: " + source.streams.get());
      assertEquals(0, reads.abandoned(), "a read that was receiving bytes was interrupted");
      assertAllBuffersBack();
    }
  }

  @Test
  void aReadIntoTheArrayStillCopyingHoldsTheGetUntilItEndsAndNothingWritesAfter() throws Exception {
    source.behave(0, Behaviour.LATE_IN_CHUNK); // a data split, read into its place
    source.othersWaitForTheMisbehaving = true; // k arrive while it copies
    byte[] out = new byte[OBJECT];
    reader.read(lookup(K + R), R, 0, 2, out, 0);
    byte[] returned = out.clone();
    assertTrue(source.lateWritten.await(10, TimeUnit.SECONDS), "the late read never wrote");
    Thread.sleep(50);
    assertArrayEquals(object, returned, "the late read's garbage was not rebuilt over");
    assertArrayEquals(returned, out, "a read wrote into the array after the GET returned");
    assertAllBuffersBack();
  }

  @Test
  void aReadIntoTheArrayThatWaitsForItsWorkerAfterAllIsEndedByTheWatchdog() throws Exception {
    try (ReadWatchdog reads = tenSecondReads()) {
      source.behave(0, Behaviour.SILENT_IN_CHUNK); // the stream said it held what it waits for
      source.othersWaitForTheMisbehaving = true;
      long began = System.nanoTime();
      assertArrayEquals(object, read(lookup(K + R), R));
      long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
      // The silent read is ended as unwanted; the GET's extra read may be too, when it came to
      // copy into its window behind the completing GET (which waits for the silent read).
      long abandoned = reads.abandoned();
      assertTrue(abandoned == 1 || abandoned == 2, "the waiting read was not ended as unwanted: "
          + abandoned + " reads were");
      assertTrue(tookMs < 5_000, "the GET waited " + tookMs + " ms for a silent worker");
      assertAllBuffersBack();
    }
  }

  @Test
  void aSilentSplitIsReplacedAfterTheTimeout() throws Exception {
    source.behave(1, Behaviour.SILENT);
    // Four live splits, three asked for at a time: the silent one is among them 3 times in 4.
    for (int i = 0; i < 8; i++) {
      assertArrayEquals(object, read(lookup(4), 0));
    }
    assertTrue(source.opened(1) > 0, "the silent split was never asked for");
    assertAllBuffersBack();
  }

  @Test
  void aSilentSplitWithNoneLeftToTryExceedsTheDeadline() throws Exception {
    source.behave(2, Behaviour.SILENT);
    long began = System.nanoTime();
    DeadlineExceededException e = assertThrows(DeadlineExceededException.class,
        () -> read(lookup(K), 0)); // only k splits live: nothing can replace it
    assertTrue(e.getMessage().contains("no other split is left"), e.getMessage());
    assertTrue(System.nanoTime() - began >= TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS));
    assertAllBuffersBack();
  }

  /** Reads the whole object (two stripes, one window) into a new array. */
  private byte[] read(LookupResponse lookup, int delta) throws IOException {
    byte[] out = new byte[OBJECT];
    reader.read(lookup, delta, 0, 2, out, 0);
    return out;
  }

  /** A lookup in which the first {@code live} splits are on live workers. */
  private LookupResponse lookup(int live) {
    LookupResponse.Builder b = LookupResponse.newBuilder().setLayout(layout);
    RedundancyScheme scheme = SchemeProtos.of(layout);
    for (int i = 0; i < K + R; i++) {
      b.addSplits(Split.newBuilder().setIndex(i)
          .setPath(layout.getDirectory() + "/" + scheme.splitName(i))
          .setWorker(WorkerNetAddress.newBuilder().setHost("worker-" + i))
          .setLive(i < live).setStatus(FileInfo.getDefaultInstance()));
    }
    return b.build();
  }

  /** Reads that outlived their window (a straggler, a silent one) end by themselves: wait. */
  private void assertAllBuffersBack() throws InterruptedException {
    awaitOutstanding(0);
    assertEquals(0, pool.outstanding(), "buffers not given back to the pool");
  }

  /** Waits up to 10 s for every split stream opened to be closed. */
  private void awaitStreamsClosed() throws InterruptedException {
    awaitUpTo10s(() -> source.closed.get() == source.streams.get());
    assertEquals(source.streams.get(), source.closed.get(), "split reads still running");
  }

  /** Waits up to 10 s for the pool to have {@code buffers} out (reads end asynchronously). */
  private void awaitOutstanding(int buffers) throws InterruptedException {
    awaitUpTo10s(() -> pool.outstanding() == buffers);
  }

  /** Polls {@code done} every 10 ms for up to 10 s; the caller asserts what it waited for. */
  private static void awaitUpTo10s(java.util.function.BooleanSupplier done)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!done.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
  }

  /** The behaviours the others wait for with {@link FakeSource#othersWaitForTheMisbehaving}. */
  private static final Set<Behaviour> MISBEHAVING = EnumSet.of(Behaviour.SILENT_UNTIL_CANCELLED,
      Behaviour.SLOW,
      Behaviour.SLOW_CORRUPT, Behaviour.LATE_IN_CHUNK, Behaviour.SILENT_IN_CHUNK,
      Behaviour.SILENT_UNTIL_INTERRUPTED);

  private enum Behaviour {
    NORMAL, SLOW, SLOW_CORRUPT, FAIL, CORRUPT, SILENT,
    /**
     * Waits 30 s for an answer unless interrupted, then fails, as Alluxio's block stream waits
     * for a hung worker; in open, so the read is stuck before it could see its window done.
     */
    SILENT_UNTIL_INTERRUPTED,
    /**
     * A read of bytes the stream said it held (a chunk's rest) takes 300 ms, deaf to interrupts,
     * then writes garbage where it was told to: a copy that outlives its window unless the reader
     * waits for it.
     */
    LATE_IN_CHUNK,
    /** A read of bytes the stream said it held waits 30 s for its worker unless interrupted. */
    SILENT_IN_CHUNK,
    /** A read waits 30 s for its worker unless its stream is cancelled, then fails at once. */
    SILENT_UNTIL_CANCELLED
  }

  /** The splits from memory, each behaving as told. */
  private final class FakeSource implements SplitSource {
    final CountDownLatch slow = new CountDownLatch(1);
    final CountDownLatch slowStarted = new CountDownLatch(1);
    private final Map<Integer, Behaviour> behaviours = new ConcurrentHashMap<>();
    /** Streams opened or being opened (an open that fails is none). */
    final AtomicInteger streams = new AtomicInteger();
    /** Streams closed: every read ends by closing its stream. */
    final AtomicInteger closed = new AtomicInteger();
    private final Map<Integer, AtomicInteger> opens = new ConcurrentHashMap<>();
    private final Map<Integer, AtomicLong> waited = new ConcurrentHashMap<>();
    /** The names of the threads that opened split streams. */
    final Set<String> openingThreads = ConcurrentHashMap.newKeySet();
    /**
     * Counted down when a read of a chunk's rest starts to misbehave (LATE_IN_CHUNK,
     * SILENT_IN_CHUNK) or a SLOW, SLOW_CORRUPT or SILENT_UNTIL_INTERRUPTED split is opened; with
     * {@link #othersWaitForTheMisbehaving} the other splits are not opened before it.
     */
    final CountDownLatch misbehaving = new CountDownLatch(1);
    volatile boolean othersWaitForTheMisbehaving;
    /** Counted down once LATE_IN_CHUNK's late write is done. */
    final CountDownLatch lateWritten = new CountDownLatch(1);
    /** Streams cancelled (the reader no longer needed them). */
    final AtomicInteger cancelled = new AtomicInteger();

    void behave(int index, Behaviour b) {
      behaviours.put(index, b);
    }

    void reset() {
      behaviours.clear();
    }

    int opened(int index) {
      return opens.getOrDefault(index, new AtomicInteger()).get();
    }

    /** Bytes of split {@code index} returned by reads made when its stream held none. */
    long waitedBytes(int index) {
      return waited.getOrDefault(index, new AtomicLong()).get();
    }

    @Override
    public SplitStream open(Split split, long offset) throws IOException {
      int index = split.getIndex();
      opens.computeIfAbsent(index, i -> new AtomicInteger()).incrementAndGet();
      openingThreads.add(Thread.currentThread().getName());
      Behaviour behaviour = behaviours.getOrDefault(index, Behaviour.NORMAL);
      if (behaviour != Behaviour.FAIL && behaviour != Behaviour.SILENT_UNTIL_INTERRUPTED) {
        streams.incrementAndGet(); // counted before a slow open waits, so a close is awaited
      }
      if (othersWaitForTheMisbehaving && !MISBEHAVING.contains(behaviour)) {
        awaitQuietly(misbehaving);
      }
      if (behaviour == Behaviour.SLOW || behaviour == Behaviour.SLOW_CORRUPT) {
        slowStarted.countDown();
        misbehaving.countDown();
        awaitQuietly(slow); // deaf to the reader: it answers when it answers
      }
      if (behaviour == Behaviour.FAIL) {
        throw new IOException("worker-" + index + " refused");
      }
      if (behaviour == Behaviour.SILENT_UNTIL_INTERRUPTED) {
        misbehaving.countDown();
        try {
          Thread.sleep(30_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt(); // as Alluxio's receive does
          throw new IOException("worker-" + index + ": interrupted while waiting", e);
        }
        throw new IOException("worker-" + index + " timed out after 30 s");
      }
      byte[] bytes = splits[index];
      CountDownLatch cancel = new CountDownLatch(1);
      if (behaviour == Behaviour.SILENT_UNTIL_CANCELLED) {
        misbehaving.countDown(); // open: the others may go on
      }
      return new SplitStream() {
        private int position = (int) offset;

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
          if (behaviour == Behaviour.SILENT_UNTIL_CANCELLED) {
            awaitQuietly(cancel);
            throw new IOException("worker-" + index + ": the read was cancelled");
          }
          if (behaviour == Behaviour.SILENT) {
            // No answer past the reader's timeout, then Alluxio's own stream timeout ends it.
            sleepQuietly(2 * TIMEOUT_MS);
            throw new IOException("worker-" + index + " timed out");
          }
          if (position == bytes.length) {
            return -1;
          }
          // At most the rest of a chunk, as Alluxio's block stream receives them from offset on.
          int n = Math.min(len, chunkLeft());
          if (buffered() > 0 && (behaviour == Behaviour.LATE_IN_CHUNK
              || behaviour == Behaviour.SILENT_IN_CHUNK)) {
            misbehaving.countDown();
            if (behaviour == Behaviour.SILENT_IN_CHUNK) {
              try {
                Thread.sleep(30_000);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("worker-" + index + ": interrupted while waiting", e);
              }
            }
            sleepDeaf(300);
            for (int i = 0; i < n; i++) {
              b[off + i] = (byte) ~bytes[position + i];
            }
            lateWritten.countDown();
            position += n;
            return n;
          }
          if (buffered() == 0) {
            waited.computeIfAbsent(index, i -> new AtomicLong()).addAndGet(n);
          }
          System.arraycopy(bytes, position, b, off, n);
          boolean corrupt = behaviour == Behaviour.SLOW_CORRUPT
              || behaviour == Behaviour.CORRUPT && position >= CELL; // the second stripe's cell
          if (corrupt) {
            b[off] ^= 0x5a;
          }
          position += n;
          return n;
        }

        private int chunkLeft() {
          return Math.min(CHUNK - (position - (int) offset) % CHUNK, bytes.length - position);
        }

        @Override
        public int buffered() {
          return position == offset || (position - offset) % CHUNK == 0 ? 0 : chunkLeft();
        }

        @Override
        public int waitingReadLength(int wanted) {
          return Math.min(wanted, WAITING_READ);
        }

        @Override
        public void cancel() {
          cancelled.incrementAndGet();
          cancel.countDown();
        }

        @Override
        public void close() {
          closed.incrementAndGet();
        }
      };
    }
  }

  /** Waits for {@code latch} (30 s at most) through interrupts too, keeping them. */
  private static void awaitQuietly(CountDownLatch latch) {
    boolean interrupted = false;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (latch.getCount() > 0 && System.nanoTime() < deadline) {
      try {
        latch.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Sleeps {@code ms} whatever interrupts come, keeping them. */
  private static void sleepDeaf(long ms) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
    boolean interrupted = false;
    for (long left; (left = deadline - System.nanoTime()) > 0; ) {
      try {
        TimeUnit.NANOSECONDS.sleep(left);
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static void sleepQuietly(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
