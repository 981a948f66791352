package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import alluxio.exception.status.DeadlineExceededException;
import alluxio.exception.status.UnavailableException;
import alluxio.grpc.FileInfo;
import alluxio.grpc.WorkerNetAddress;
import io.eccache.common.RedundancyScheme;
import io.eccache.common.SchemeProtos;
import io.eccache.common.StripeGeometry;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import io.eccache.common.proto.Split;
import io.eccache.isal.ReedSolomon;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
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

  private final byte[] object = new byte[OBJECT];
  private byte[][] splits;
  private Layout layout;
  private ExecutorService io;
  private DirectBufferPool pool;
  private FakeSource source;
  private LateBindingReader reader;
  private ReadStatistics statistics;

  @BeforeEach
  void encodeAnObject() {
    new Random(12).nextBytes(object);
    StripeGeometry g = new StripeGeometry(OBJECT, K, CELL);
    splits = new byte[K + R][(int) g.splitSize()];
    Integer[] crcs = new Integer[g.checksums(K + R)];
    for (int s = 0; s < g.stripes(); s++) {
      int cell = (int) g.cellLength(s);
      ByteBuffer[] data = new ByteBuffer[K];
      ByteBuffer[] parity = new ByteBuffer[R];
      for (int i = 0; i < K; i++) {
        data[i] = ReedSolomon.allocateAligned(cell);
        long from = g.objectOffset(s) + (long) i * cell;
        int len = (int) Math.max(0, Math.min(cell, OBJECT - from));
        data[i].put(object, (int) Math.min(from, OBJECT), len).clear(); // zero padded
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
        .setObjectSize(OBJECT).setCellSize(CELL).setSplitSize(g.splitSize())
        .addAllCrc32C(java.util.Arrays.asList(crcs)).build();
    assertEquals(2, g.stripes());
    io = Executors.newFixedThreadPool(8);
    pool = new DirectBufferPool(64L << 20);
    source = new FakeSource();
    statistics = new ReadStatistics();
    reader = new LateBindingReader(source, io, pool, statistics, TIMEOUT_MS);
  }

  @AfterEach
  void stop() throws Exception {
    source.slow.countDown();
    io.shutdown();
    assertTrue(io.awaitTermination(10, TimeUnit.SECONDS));
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
    source.behave(0, Behaviour.SLOW); // a data split: the k fastest include parities, so decode
    long began = System.nanoTime();
    assertArrayEquals(object, read(lookup(K + R), R)); // all five asked for
    long ms = (System.nanoTime() - began) / 1_000_000;
    assertTrue(ms < 5_000, "the read waited for the straggler: " + ms + " ms");
    assertTrue(source.slowStarted.await(10, TimeUnit.SECONDS), "the straggler was asked too");
    // The other extra read may still be finishing after the read returned; then only the
    // straggler's buffer is out.
    awaitOutstanding(1);
    assertEquals(1, pool.outstanding(), "the straggler holds its buffer while it reads");
    long discarded = statistics.discardedReads();
    source.slow.countDown(); // it finishes now, long after the window stopped wanting it
    assertAllBuffersBack();
    // Read whole and thrown away: counted as discarded by this reader (the JVM-wide counter may
    // also move with reads of other tests' clients still ending).
    assertEquals(discarded + 1, statistics.discardedReads());
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

  /** Reads the whole object as one window and copies it out, giving the window back. */
  private byte[] read(LookupResponse lookup, int delta) throws IOException {
    try (StripeWindow window = reader.read(lookup, delta, 0, 2)) {
      byte[] out = new byte[OBJECT];
      assertEquals(OBJECT, window.copyTo(0, out, 0));
      return out;
    }
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

  /** Waits up to 10 s for the pool to have {@code buffers} out (reads end asynchronously). */
  private void awaitOutstanding(int buffers) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (pool.outstanding() != buffers && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
  }

  private enum Behaviour { NORMAL, SLOW, FAIL, CORRUPT, SILENT }

  /** The splits from memory, each behaving as told. */
  private final class FakeSource implements SplitSource {
    final CountDownLatch slow = new CountDownLatch(1);
    final CountDownLatch slowStarted = new CountDownLatch(1);
    private final Map<Integer, Behaviour> behaviour = new ConcurrentHashMap<>();
    private final Map<Integer, AtomicInteger> opens = new ConcurrentHashMap<>();

    void behave(int index, Behaviour b) {
      behaviour.put(index, b);
    }

    int opened(int index) {
      return opens.getOrDefault(index, new AtomicInteger()).get();
    }

    @Override
    public SplitStream open(Split split, long offset) throws IOException {
      int index = split.getIndex();
      opens.computeIfAbsent(index, i -> new AtomicInteger()).incrementAndGet();
      Behaviour b = behaviour.getOrDefault(index, Behaviour.NORMAL);
      if (b == Behaviour.FAIL) {
        throw new IOException("worker-" + index + " refused");
      }
      byte[] bytes = splits[index];
      return new SplitStream() {
        private int position = (int) offset;

        @Override
        public void readFully(ByteBuffer dst, int at, int length, BooleanSupplier stop)
            throws IOException {
          if (b == Behaviour.SLOW) {
            slowStarted.countDown();
            awaitQuietly(slow); // deaf to stop: it finishes when it finishes
          } else if (b == Behaviour.SILENT) {
            while (!stop.getAsBoolean()) {
              sleepQuietly(5);
            }
            throw new IOException("cancelled");
          }
          dst.duplicate().position(at).put(bytes, position, length);
          if (b == Behaviour.CORRUPT && position > 0) {
            dst.put(at, (byte) (dst.get(at) ^ 0x5a)); // the second stripe's cell
          }
          position += length;
        }

        @Override
        public void close() {}
      };
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
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
