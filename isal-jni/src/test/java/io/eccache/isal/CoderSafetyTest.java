package io.eccache.isal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What the coder must refuse rather than code wrongly, and the decode-plan cache's bound. */
class CoderSafetyTest {
  private static final int LEN = 256;

  private static void rejects(Executable call, String mentions) {
    MisuseTest.rejects(call, mentions);
  }

  @ParameterizedTest
  @EnumSource(ReedSolomon.Implementation.class)
  void codesWhoseSizeOverflowsAnIntAreRefusedBeforeAnyAllocation(
      ReedSolomon.Implementation impl) {
    // k + r in int arithmetic once wrapped to a negative number and passed the check.
    rejects(() -> ReedSolomon.coder(Integer.MAX_VALUE, 1, impl), "k=" + Integer.MAX_VALUE);
    rejects(() -> ReedSolomon.coder(1, Integer.MAX_VALUE, impl), "r=" + Integer.MAX_VALUE);
    rejects(() -> ReedSolomon.coder(Integer.MAX_VALUE, Integer.MAX_VALUE, impl), "k + r <= 255");
    rejects(() -> ReedSolomon.coder(Integer.MAX_VALUE - 1, 2, impl), "k + r <= 255");
    rejects(() -> ReedSolomon.coder(200, 100, impl), "k + r <= 255");
    rejects(() -> ReedSolomon.coder(-1, Integer.MIN_VALUE, impl), "k=-1");
  }

  @ParameterizedTest
  @EnumSource(ReedSolomon.Implementation.class)
  void outputsSharingMemoryWithInputsOrEachOtherAreRefused(ReedSolomon.Implementation impl) {
    ErasureCoder coder = ReedSolomon.coder(4, 2, impl);
    ByteBuffer[] data = Stripes.random(4, LEN, 7);
    // The same buffer as an input.
    rejects(() -> coder.encode(data, new ByteBuffer[] {data[1], Stripes.empty(1, LEN)[0]}),
        "parity[0] shares memory with data[1]");
    // A duplicate() view of an input.
    rejects(() -> coder.encode(data, new ByteBuffer[] {Stripes.empty(1, LEN)[0],
        data[3].duplicate()}), "parity[1] shares memory with data[3]");
    // Two outputs overlapping by one byte within one big buffer.
    ByteBuffer big = ByteBuffer.allocateDirect(3 * LEN);
    ByteBuffer first = big.duplicate().position(0).limit(LEN).slice();
    ByteBuffer second = big.duplicate().position(LEN - 1).limit(2 * LEN - 1).slice();
    rejects(() -> coder.encode(data, new ByteBuffer[] {first, second}),
        "parity[1] and parity[0] share memory");
    // Decode: an output over a surviving unit.
    ByteBuffer[] units = new ByteBuffer[6];
    ByteBuffer[] parity = Stripes.empty(2, LEN);
    coder.encode(data, parity);
    units[1] = data[1];
    units[2] = data[2];
    units[3] = data[3];
    units[4] = parity[0];
    rejects(() -> coder.decode(units, new int[] {0}, new ByteBuffer[] {units[4]}),
        "outputs[0] shares memory with units[4]");
  }

  @Test
  void disjointSlicesOfOneBufferCodeTheSameInBothTwins() {
    ByteBuffer big = ByteBuffer.allocateDirect(6 * LEN);
    ByteBuffer[] source = Stripes.random(4, LEN, 11);
    ByteBuffer[] data = new ByteBuffer[4];
    for (int i = 0; i < 4; i++) {
      data[i] = big.duplicate().position(i * LEN).limit((i + 1) * LEN).slice();
      data[i].put(source[i].duplicate()).flip();
    }
    byte[][] parities = new byte[2][];
    for (ReedSolomon.Implementation impl : ReedSolomon.Implementation.values()) {
      ByteBuffer[] parity = {big.duplicate().position(4 * LEN).limit(5 * LEN).slice(),
          big.duplicate().position(5 * LEN).limit(6 * LEN).slice()};
      ReedSolomon.coder(4, 2, impl).encode(data, parity);
      byte[] both = new byte[2 * LEN];
      parity[0].duplicate().get(both, 0, LEN);
      parity[1].duplicate().get(both, LEN, LEN);
      parities[impl.ordinal()] = both;
    }
    assertArrayEquals(parities[0], parities[1]);
  }

  @ParameterizedTest
  @EnumSource(ReedSolomon.Implementation.class)
  void theDecodePlanCacheStaysBoundedAndCorrect(ReedSolomon.Implementation impl)
      throws Exception {
    // RS(10,4) has over a thousand erasure patterns of up to 4 units: cycle through 300 of them,
    // from 4 threads, checking every rebuilt unit against the data.
    int k = 10;
    int r = 4;
    ErasureCoder coder = new ReedSolomonFactory().fresh(k, r, impl);
    ByteBuffer[] data = Stripes.random(k, LEN, 5);
    ByteBuffer[] parity = Stripes.empty(r, LEN);
    coder.encode(data, parity);
    ByteBuffer[] all = new ByteBuffer[k + r];
    System.arraycopy(data, 0, all, 0, k);
    System.arraycopy(parity, 0, all, k, r);
    List<int[]> patterns = new ArrayList<>();
    for (int a = 0; a < k + r && patterns.size() < 300; a++) {
      for (int b = a + 1; b < k + r && patterns.size() < 300; b++) {
        for (int c = b + 1; c < k + r && patterns.size() < 300; c++) {
          patterns.add(new int[] {a, b, c});
        }
      }
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int offset = t * 37;
        done.add(pool.submit(() -> {
          for (int p = 0; p < patterns.size(); p++) {
            int[] erased = patterns.get((p + offset) % patterns.size());
            ByteBuffer[] units = new ByteBuffer[k + r];
            for (int i = 0; i < k + r; i++) {
              units[i] = all[i].duplicate();
            }
            for (int e : erased) {
              units[e] = null;
            }
            ByteBuffer[] out = Stripes.empty(erased.length, LEN);
            coder.decode(units, erased, out);
            for (int i = 0; i < erased.length; i++) {
              assertArrayEquals(Stripes.bytes(all[erased[i]]), Stripes.bytes(out[i]));
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    int cached = ((AbstractReedSolomonCoder<?>) coder).cachedDecodePlans();
    // Once 1,024 plans per coder, never evicted (about 0.5 GB at k + r = 255).
    assertTrue(cached <= 64, cached + " plans cached");
  }

  /** A coder of its own, not the shared one, so the cache count is this test's alone. */
  private static final class ReedSolomonFactory {
    ErasureCoder fresh(int k, int r, ReedSolomon.Implementation impl) {
      return impl == ReedSolomon.Implementation.NATIVE ? new NativeReedSolomonCoder(k, r)
          : new JavaReedSolomonCoder(k, r);
    }
  }
}
