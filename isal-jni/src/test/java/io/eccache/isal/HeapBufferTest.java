package io.eccache.isal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Heap buffers (arrays, slices of a larger array, mixed with direct buffers in one call) code to the
 * same bytes as the all-direct path, in the native coder (both ways of passing direct units) and the
 * Java twin; what may not be coded in place is refused before anything is written.
 */
class HeapBufferTest {
  private static final byte GARBAGE = 0x5a;

  /** How the units of one call are laid out. */
  enum Layout {
    /** Every unit a direct buffer (the reference). */
    DIRECT,
    /** Every unit a heap buffer over an array of its own (non-zero arrayOffset and position). */
    OWN_ARRAYS,
    /** Every unit, inputs and outputs, a slice of one shared array, with gaps between them. */
    ONE_ARRAY,
    /** Even units direct, odd units slices of one shared array. */
    MIXED
  }

  /** The coders under test: native with addresses read in Java, native via JNI lookups, Java. */
  static List<ErasureCoder> coders(int k, int r) {
    return List.of(new NativeReedSolomonCoder(k, r, true), new NativeReedSolomonCoder(k, r, false),
        new JavaReedSolomonCoder(k, r));
  }

  /** The units of one call and the shared array they may lie in (null if none). */
  private static final class Placed {
    final ByteBuffer[] buffers;
    final byte[] shared;
    final byte[] sharedBefore;

    Placed(ByteBuffer[] buffers, byte[] shared) {
      this.buffers = buffers;
      this.shared = shared;
      this.sharedBefore = shared == null ? null : shared.clone();
    }
  }

  /**
   * Lays out {@code content.length} units of {@code len} bytes; a null content is an output, filled
   * with garbage. Every buffer has a non-zero position; heap ones a non-zero arrayOffset.
   */
  private static Placed place(Layout layout, byte[][] content, int len, long seed) {
    Random random = new Random(seed);
    int n = content.length;
    byte[] shared = null;
    int[] at = new int[n];
    if (layout == Layout.ONE_ARRAY || layout == Layout.MIXED) {
      int size = 5;
      for (int i = 0; i < n; i++) {
        at[i] = size;
        size += len + 1 + random.nextInt(4); // a gap: writing past a unit's end shows
      }
      shared = new byte[size + 5];
      random.nextBytes(shared);
    }
    ByteBuffer[] buffers = new ByteBuffer[n];
    for (int i = 0; i < n; i++) {
      byte[] bytes = content[i] != null ? content[i] : filled(len);
      boolean direct = layout == Layout.DIRECT || layout == Layout.MIXED && i % 2 == 0;
      ByteBuffer b;
      if (direct) {
        int pad = 1 + random.nextInt(7);
        b = ByteBuffer.allocateDirect(len + 2 * pad);
        b.position(pad).mark();
        b.put(bytes).limit(pad + len).reset();
      } else if (shared != null) {
        // A slice starting 3 bytes before the unit (arrayOffset), positioned at the unit.
        System.arraycopy(bytes, 0, shared, at[i], len);
        b = ByteBuffer.wrap(shared, at[i] - 3, len + 3).slice().position(3);
      } else {
        int pad = 1 + random.nextInt(7);
        byte[] own = new byte[len + 4 * pad];
        random.nextBytes(own);
        System.arraycopy(bytes, 0, own, 2 * pad, len);
        b = ByteBuffer.wrap(own, pad, len + 2 * pad).slice().position(pad).limit(pad + len);
      }
      buffers[i] = b;
    }
    return new Placed(buffers, shared);
  }

  private static byte[] filled(int len) {
    byte[] b = new byte[len];
    Arrays.fill(b, GARBAGE);
    return b;
  }

  private static byte[][] randomUnits(int count, int len, long seed) {
    Random random = new Random(seed);
    byte[][] units = new byte[count][len];
    for (byte[] u : units) {
      random.nextBytes(u);
    }
    return units;
  }

  /** The parity of {@code data} by the all-direct native path. */
  private static byte[][] referenceParity(int k, int r, byte[][] data) {
    int len = data[0].length;
    ByteBuffer[] in = place(Layout.DIRECT, data, len, 1).buffers;
    ByteBuffer[] out = place(Layout.DIRECT, new byte[r][], len, 2).buffers;
    ReedSolomon.coder(k, r, ReedSolomon.Implementation.NATIVE).encode(in, out);
    byte[][] parity = new byte[r][];
    for (int i = 0; i < r; i++) {
      parity[i] = Stripes.bytes(out[i]);
    }
    return parity;
  }

  /** Positions and limits as they were, inputs unchanged, the shared array changed only in outputs. */
  private static void checkUntouched(Placed placed, int[] positions, int[] limits, int inputs,
      byte[][] content) {
    for (int i = 0; i < placed.buffers.length; i++) {
      assertEquals(positions[i], placed.buffers[i].position(), "position of unit " + i);
      assertEquals(limits[i], placed.buffers[i].limit(), "limit of unit " + i);
      if (i < inputs && content[i] != null) {
        assertArrayEquals(content[i], Stripes.bytes(placed.buffers[i]), "input " + i + " changed");
      }
    }
    if (placed.shared == null) {
      return;
    }
    byte[] expected = placed.sharedBefore.clone();
    for (int i = inputs; i < placed.buffers.length; i++) {
      ByteBuffer b = placed.buffers[i];
      if (!b.isDirect()) {
        byte[] written = Stripes.bytes(b);
        System.arraycopy(written, 0, expected, b.arrayOffset() + b.position(), written.length);
      }
    }
    assertArrayEquals(expected, placed.shared, "bytes outside the outputs' ranges changed");
  }

  private static int[] positions(ByteBuffer[] buffers) {
    return Arrays.stream(buffers).mapToInt(b -> b == null ? -1 : b.position()).toArray();
  }

  private static int[] limits(ByteBuffer[] buffers) {
    return Arrays.stream(buffers).mapToInt(b -> b == null ? -1 : b.limit()).toArray();
  }

  static List<Arguments> codesAndLayouts() {
    List<Arguments> cases = new ArrayList<>();
    for (int[] code : new int[][] {{3, 2}, {10, 1}, {6, 3}}) {
      for (Layout layout : Layout.values()) {
        cases.add(Arguments.of(code[0], code[1], layout));
      }
    }
    return cases;
  }

  @ParameterizedTest(name = "RS({0},{1}) {2}")
  @MethodSource("codesAndLayouts")
  void encodeMatchesTheAllDirectPath(int k, int r, Layout layout) {
    for (int len : new int[] {1, 777, 4096 + 3}) {
      byte[][] data = randomUnits(k, len, 100L * k + r + len);
      byte[][] expected = referenceParity(k, r, data);
      for (ErasureCoder coder : coders(k, r)) {
        byte[][] content = Arrays.copyOf(data, k + r); // parities null: outputs
        Placed placed = place(layout, content, len, len);
        int[] positions = positions(placed.buffers);
        int[] limits = limits(placed.buffers);
        coder.encode(Arrays.copyOfRange(placed.buffers, 0, k),
            Arrays.copyOfRange(placed.buffers, k, k + r));
        for (int i = 0; i < r; i++) {
          assertArrayEquals(expected[i], Stripes.bytes(placed.buffers[k + i]),
              coder + " " + layout + " len " + len + " parity " + i);
        }
        checkUntouched(placed, positions, limits, k, content);
      }
    }
  }

  @ParameterizedTest(name = "RS({0},{1}) {2}")
  @MethodSource("codesAndLayouts")
  void decodeOfEveryErasurePatternMatchesTheAllDirectPath(int k, int r, Layout layout) {
    int len = 333;
    byte[][] all = new byte[k + r][];
    byte[][] data = randomUnits(k, len, 7L * k + r);
    System.arraycopy(data, 0, all, 0, k);
    System.arraycopy(referenceParity(k, r, data), 0, all, k, r);
    List<int[]> subsets = Stripes.subsets(k + r, k);
    for (ErasureCoder coder : coders(k, r)) {
      for (int[] survivors : subsets) {
        boolean[] survives = new boolean[k + r];
        for (int s : survivors) {
          survives[s] = true;
        }
        int[] erased = new int[r];
        int e = 0;
        for (int i = k + r - 1; i >= 0; i--) { // reversed: outputs follow erased, not unit order
          if (!survives[i]) {
            erased[e++] = i;
          }
        }
        // Units 0..n-1 (the erased ones placed as garbage, then passed as null), then the outputs.
        byte[][] content = new byte[2 * (k + r) - k][];
        for (int i = 0; i < k + r; i++) {
          content[i] = survives[i] ? all[i] : filled(len);
        }
        Placed placed = place(layout, content, len, Arrays.hashCode(survivors));
        ByteBuffer[] units = Arrays.copyOf(placed.buffers, k + r);
        for (int x : erased) {
          units[x] = null;
        }
        ByteBuffer[] outputs = Arrays.copyOfRange(placed.buffers, k + r, placed.buffers.length);
        int[] positions = positions(placed.buffers);
        int[] limits = limits(placed.buffers);
        coder.decode(units, erased, outputs);
        for (int i = 0; i < erased.length; i++) {
          assertArrayEquals(all[erased[i]], Stripes.bytes(outputs[i]),
              coder + " " + layout + " survivors " + Arrays.toString(survivors));
        }
        checkUntouched(placed, positions, limits, k + r, content);
      }
    }
  }

  @Test
  void unitsLongerThanOnePinnedChunkCodeWhole() {
    // The native coder lets go of pinned arrays every 256 KiB per unit: the seams must not show.
    int k = 3;
    int r = 2;
    int len = 2 * 256 * 1024 + 13;
    byte[][] data = randomUnits(k, len, 99);
    byte[][] expected = referenceParity(k, r, data);
    for (Layout layout : new Layout[] {Layout.ONE_ARRAY, Layout.MIXED}) {
      for (ErasureCoder coder : List.of(new NativeReedSolomonCoder(k, r, true),
          new NativeReedSolomonCoder(k, r, false))) {
        Placed placed = place(layout, Arrays.copyOf(data, k + r), len, 5);
        coder.encode(Arrays.copyOfRange(placed.buffers, 0, k),
            Arrays.copyOfRange(placed.buffers, k, k + r));
        for (int i = 0; i < r; i++) {
          assertArrayEquals(expected[i], Stripes.bytes(placed.buffers[k + i]), layout + " " + i);
        }
        // And back: rebuild data unit 1 from units 0, 2 and parity 0 into the shared array.
        ByteBuffer[] units = new ByteBuffer[k + r];
        units[0] = placed.buffers[0];
        units[2] = placed.buffers[2];
        units[3] = placed.buffers[3];
        ByteBuffer out = placed.buffers[4]; // parity 1's place, overwritten
        coder.decode(units, new int[] {1}, new ByteBuffer[] {out});
        assertArrayEquals(data[1], Stripes.bytes(out), layout + " decode");
      }
    }
  }

  @Test
  void zeroLengthHeapUnitsWriteNothing() {
    for (ErasureCoder coder : coders(3, 2)) {
      byte[] array = filled(20);
      ByteBuffer[] data = {ByteBuffer.wrap(array, 1, 0), ByteBuffer.wrap(array, 2, 0),
          ByteBuffer.allocateDirect(0)};
      ByteBuffer[] parity = {ByteBuffer.wrap(array, 3, 0).slice(), ByteBuffer.allocate(0)};
      coder.encode(data, parity);
      ByteBuffer[] units = {null, data[1], data[2], parity[0], null};
      coder.decode(units, new int[] {0}, new ByteBuffer[] {ByteBuffer.wrap(array, 1, 0)});
      assertArrayEquals(filled(20), array, coder.toString());
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"NATIVE", "JAVA"})
  void outputsOverlappingInputsInOneArrayAreRefusedBeforeAnyWrite(
      ReedSolomon.Implementation impl) {
    int len = 100;
    ErasureCoder coder = ReedSolomon.coder(3, 2, impl);
    byte[] array = new byte[6 * len];
    new Random(3).nextBytes(array);
    byte[] before = array.clone();
    ByteBuffer[] data = {ByteBuffer.wrap(array, 0, len), ByteBuffer.wrap(array, len, len),
        ByteBuffer.wrap(array, 2 * len, len)};
    ByteBuffer free = ByteBuffer.wrap(array, 4 * len, len);
    // An output sharing one byte with data[2], through a slice with its own arrayOffset.
    ByteBuffer overlapping = ByteBuffer.wrap(array, 3 * len - 1, len + 1).slice().limit(len);
    MisuseTest.rejects(() -> coder.encode(data, new ByteBuffer[] {free, overlapping}),
        "parity[1] shares memory with data[2]: an output must not overlap any input (the same"
            + " array, overlapping ranges)");
    // Two outputs overlapping each other.
    ByteBuffer second = ByteBuffer.wrap(array, 4 * len + 50, len);
    MisuseTest.rejects(() -> coder.encode(data, new ByteBuffer[] {free, second}),
        "parity[1] and parity[0] share memory");
    // Decode: an output over a survivor in the same array.
    ByteBuffer[] units = {null, data[1], data[2], ByteBuffer.wrap(array, 3 * len, len), null};
    MisuseTest.rejects(() -> coder.decode(units, new int[] {0},
        new ByteBuffer[] {ByteBuffer.wrap(array, len + 10, len)}),
        "outputs[0] shares memory with units[1]");
    assertArrayEquals(before, array, "a refused call wrote");
    // Adjacent ranges of one array do not overlap: accepted.
    coder.encode(data, new ByteBuffer[] {ByteBuffer.wrap(array, 3 * len, len), free});
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"NATIVE", "JAVA"})
  void readOnlyHeapBuffersAreRefused(ReedSolomon.Implementation impl) {
    ErasureCoder coder = ReedSolomon.coder(3, 2, impl);
    ByteBuffer[] data = {ByteBuffer.allocate(8), ByteBuffer.allocate(8).asReadOnlyBuffer(),
        ByteBuffer.allocateDirect(8)};
    ByteBuffer[] parity = {ByteBuffer.allocate(8), ByteBuffer.allocate(8)};
    MisuseTest.rejects(() -> coder.encode(data, parity),
        "data[1] is a read-only heap buffer; the coder takes heap buffers with an accessible array");
    data[1] = ByteBuffer.allocate(8);
    parity[0] = ByteBuffer.allocate(8).asReadOnlyBuffer();
    MisuseTest.rejects(() -> coder.encode(data, parity), "parity[0] is a read-only heap buffer");
    // A read-only direct input is fine: it is only read.
    parity[0] = ByteBuffer.allocate(8);
    data[2] = ByteBuffer.allocateDirect(8).asReadOnlyBuffer();
    coder.encode(data, parity);
  }

  @Test
  void theNativeEntryGuardsAgainstWhatWouldCrash() {
    ByteBuffer tables = ByteBuffer.allocateDirect(32 * 2);
    IsalNative.initTables(2, 1, new byte[] {1, 1}, tables);
    byte[] array = new byte[16];
    int[] inArray = {0, 0, 0};
    assertThrows(IllegalArgumentException.class, () -> IsalNative.encodeMixed(tables, 2, 1, 8,
        null, new long[] {0, 8, 9}, inArray, new byte[][] {array}), "a unit past the array's end");
    assertThrows(IllegalArgumentException.class, () -> IsalNative.encodeMixed(tables, 2, 1, 8,
        null, new long[] {0, -1, 8}, inArray, new byte[][] {array}), "a negative offset");
    assertThrows(IllegalArgumentException.class, () -> IsalNative.encodeMixed(tables, 2, 1, 8,
        null, new long[] {0, 8, 0}, new int[] {0, 1, 0}, new byte[][] {array}), "no array 1");
    assertThrows(IllegalArgumentException.class, () -> IsalNative.encodeMixed(tables, 2, 1, 8,
        null, new long[3], inArray, new byte[][] {null}), "a null array");
    assertThrows(IllegalArgumentException.class, () -> IsalNative.encodeMixed(tables, 2, 1, 8,
        null, new long[] {0, 8, 0}, new int[] {0, 0, -1}, new byte[][] {array}), "address 0");
    assertThrows(IllegalArgumentException.class, () -> IsalNative.encodeMixed(tables, 2, 1, 8,
        new ByteBuffer[] {null, null, ByteBuffer.allocate(8)}, new long[3], new int[] {0, 0, -1},
        new byte[][] {array}), "a heap buffer where a direct one is expected");
  }
}
