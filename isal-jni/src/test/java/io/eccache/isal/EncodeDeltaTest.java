package io.eccache.isal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Parity updates: any sequence of changes to random data units and byte ranges, applied to parity
 * through {@code encodeDelta} (all rows, or rows in random groups and orders) and
 * {@code parityDelta}, leaves exactly the parity a fresh encode of the final data computes; for both
 * matrices, the native coder (both ways of passing direct units) and the Java twin, with direct, heap
 * and mixed buffers. Every coder meets the same reference, so native and Java agree byte for byte.
 */
class EncodeDeltaTest {
  /** Where the parity units and the delta lie. */
  enum Layout {
    /** Every unit a direct buffer. */
    DIRECT,
    /** Every unit a heap buffer over an array of its own (non-zero arrayOffset and position). */
    HEAP,
    /** The parities and the delta slices of one shared array, with gaps between them. */
    ONE_ARRAY,
    /** Even slots direct, odd slots slices of one shared array; the delta alternates. */
    MIXED
  }

  @BeforeAll
  static void nativeLoaded() {
    assertTrue(IsalLibrary.isAvailable(), () -> "native library: " + IsalLibrary.loadingFailureReason());
  }

  static List<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    for (CodeMatrix matrix : CodeMatrix.values()) {
      for (Layout layout : Layout.values()) {
        for (int[] code : new int[][] {{1, 1}, {3, 2}, {6, 3}, {10, 4}, {8, 10}}) {
          cases.add(Arguments.of(matrix, layout, code[0], code[1]));
        }
      }
    }
    return cases;
  }

  @ParameterizedTest(name = "{0} {1} RS({2},{3})")
  @MethodSource("cases")
  void randomDeltasLeaveTheParityOfAFreshEncode(CodeMatrix matrix, Layout layout, int k, int r) {
    for (ErasureCoder coder : Deltas.coders(k, r, matrix)) {
      runSequence(coder, layout, 1000, 40, 31L * k + r + layout.ordinal());
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Layout.class)
  void deltasAcrossPinnedChunksAndWideCodes(Layout layout) {
    // Ranges crossing the native coder's 256 KiB chunks, and a wide code at XOR-first.
    for (ErasureCoder coder : Deltas.coders(3, 2, CodeMatrix.XOR_FIRST_CAUCHY)) {
      runSequence(coder, layout, 2 * 256 * 1024 + 77, 6, 5);
    }
    for (ErasureCoder coder : Deltas.coders(128, 4, CodeMatrix.XOR_FIRST_CAUCHY)) {
      runSequence(coder, layout, 300, 30, 6);
    }
  }

  /**
   * Encodes random data, applies {@code steps} random changes through the coder, and checks the
   * parity against a fresh encode of the final data.
   */
  private static void runSequence(ErasureCoder coder, Layout layout, int len, int steps,
      long seed) {
    int k = coder.dataUnits();
    int r = coder.parityUnits();
    CodeMatrix matrix = coder.codeMatrix();
    Random random = new Random(seed);
    byte[][] data = new byte[k][len];
    for (byte[] unit : data) {
      random.nextBytes(unit);
    }
    Slots slots = new Slots(layout, r + 2, len, random);
    byte[][] parity = Deltas.encode(k, r, matrix, data);
    for (int i = 0; i < r; i++) {
      slots.buffers[i].duplicate().put(parity[i]);
    }
    for (int step = 0; step < steps; step++) {
      int unit = random.nextInt(k);
      int from = random.nextInt(len);
      int n = 1 + random.nextInt(len - from);
      if (step % 5 == 0) { // short ranges take ISA-L's byte-at-a-time path
        n = 1 + random.nextInt(Math.min(70, len - from));
      } else if (step % 7 == 1) {
        from = 0;
        n = len;
      }
      byte[] change = new byte[n];
      random.nextBytes(change);
      byte[] delta = new byte[n];
      for (int b = 0; b < n; b++) {
        delta[b] = (byte) (data[unit][from + b] ^ change[b]);
        data[unit][from + b] = change[b];
      }
      ByteBuffer deltaSlot = slots.buffers[r + step % 2];
      deltaSlot.duplicate().put(delta);
      ByteBuffer deltaBuffer = Deltas.range(deltaSlot, 0, n);
      String where = coder + " " + layout + " step " + step;
      applyDelta(coder, unit, deltaBuffer, slots, from, n, random, where);
      assertEquals(deltaSlot.position(), deltaBuffer.position(), where + ": delta position moved");
      assertEquals(deltaSlot.position() + n, deltaBuffer.limit(), where + ": delta limit moved");
    }
    byte[][] expected = Deltas.encode(k, r, matrix, data);
    for (int i = 0; i < r; i++) {
      assertArrayEquals(expected[i], Stripes.bytes(slots.buffers[i]),
          coder + " " + layout + ": parity " + i + " after " + steps + " deltas");
    }
    slots.checkGapsUntouched();
  }

  /** Applies one change to every parity row, one of three ways, chosen at random. */
  private static void applyDelta(ErasureCoder coder, int unit, ByteBuffer delta, Slots slots,
      int from, int n, Random random, String where) {
    int r = coder.parityUnits();
    int way = random.nextInt(3);
    if (way == 0) {
      ByteBuffer[] all = new ByteBuffer[r];
      for (int i = 0; i < r; i++) {
        all[i] = Deltas.range(slots.buffers[i], from, n);
      }
      coder.encodeDelta(unit, delta, all);
      checkNotMoved(all, n, where);
      return;
    }
    // The rows shuffled and split into groups, one call per group; with way 2, the first group
    // through parityDelta, XORed in here as a node holding that parity would.
    List<Integer> rows = new ArrayList<>();
    for (int i = 0; i < r; i++) {
      rows.add(i);
    }
    Collections.shuffle(rows, random);
    int start = 0;
    boolean first = true;
    while (start < r) {
      int end = start + 1 + random.nextInt(r - start);
      int[] group = rows.subList(start, end).stream().mapToInt(Integer::intValue).toArray();
      ByteBuffer[] targets = new ByteBuffer[group.length];
      for (int g = 0; g < group.length; g++) {
        targets[g] = Deltas.range(slots.buffers[group[g]], from, n);
      }
      if (way == 2 && first) {
        ByteBuffer[] outputs = random.nextBoolean() ? Stripes.empty(group.length, n)
            : Deltas.heapGarbage(group.length, n);
        coder.parityDelta(unit, delta, group, outputs);
        for (int g = 0; g < group.length; g++) {
          byte[] d = Stripes.bytes(outputs[g]);
          byte c = Deltas.coefficient(coder, group[g], unit);
          assertArrayEquals(Deltas.times(c, Stripes.bytes(delta)), d,
              where + ": parity delta of row " + group[g]);
          byte[] p = Stripes.bytes(targets[g]);
          for (int b = 0; b < n; b++) {
            p[b] ^= d[b];
          }
          targets[g].duplicate().put(p);
        }
      } else {
        coder.encodeDelta(unit, delta, group, targets);
        checkNotMoved(targets, n, where);
      }
      first = false;
      start = end;
    }
  }

  private static void checkNotMoved(ByteBuffer[] views, int n, String where) {
    for (ByteBuffer v : views) {
      assertEquals(n, v.remaining(), where + ": a parity view moved");
    }
  }

  @ParameterizedTest
  @EnumSource(ReedSolomon.Implementation.class)
  void threadsSharingOneCoderUpdateTheirOwnStripes(ReedSolomon.Implementation impl)
      throws Exception {
    int k = 6;
    int r = 3;
    ErasureCoder shared = ReedSolomon.coder(k, r, CodeMatrix.XOR_FIRST_CAUCHY, impl);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        long seed = t;
        done.add(pool.submit(() -> {
          runSequence(shared, Layout.values()[(int) seed], 3000, 25, seed);
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(2, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** {@code count} units of {@code len} bytes laid out per a {@link Layout}, contents random. */
  private static final class Slots {
    final ByteBuffer[] buffers;
    final byte[] shared;
    final byte[] sharedBefore;
    final int len;

    Slots(Layout layout, int count, int len, Random random) {
      this.len = len;
      boolean sharing = layout == Layout.ONE_ARRAY || layout == Layout.MIXED;
      int[] at = new int[count];
      int size = 5;
      for (int i = 0; i < count; i++) {
        at[i] = size;
        size += len + 1 + random.nextInt(4); // a gap: writing past a unit's end shows
      }
      shared = sharing ? new byte[size + 5] : null;
      buffers = new ByteBuffer[count];
      for (int i = 0; i < count; i++) {
        boolean direct = layout == Layout.DIRECT || layout == Layout.MIXED && i % 2 == 0;
        int pad = 1 + random.nextInt(7);
        if (direct) {
          ByteBuffer b = ByteBuffer.allocateDirect(len + 2 * pad);
          buffers[i] = b.position(pad).limit(pad + len);
        } else if (sharing) {
          // A slice starting 3 bytes before the unit (arrayOffset), positioned at the unit.
          buffers[i] = ByteBuffer.wrap(shared, at[i] - 3, len + 3).slice().position(3);
        } else {
          byte[] own = new byte[len + 4 * pad];
          buffers[i] = ByteBuffer.wrap(own, pad, len + 2 * pad).slice().position(pad)
              .limit(pad + len);
        }
      }
      if (shared != null) {
        random.nextBytes(shared);
      }
      sharedBefore = shared == null ? null : shared.clone();
    }

    /** The shared array's bytes outside every slot are as they were. */
    void checkGapsUntouched() {
      if (shared == null) {
        return;
      }
      boolean[] owned = new boolean[shared.length];
      for (ByteBuffer b : buffers) {
        if (!b.isDirect()) {
          Arrays.fill(owned, b.arrayOffset() + b.position(), b.arrayOffset() + b.position() + len,
              true);
        }
      }
      for (int i = 0; i < shared.length; i++) {
        if (!owned[i]) {
          assertEquals(sharedBefore[i], shared[i], "byte " + i + " outside every unit changed");
        }
      }
    }
  }
}
