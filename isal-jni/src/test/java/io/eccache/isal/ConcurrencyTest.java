package io.eccache.isal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** One shared coder, many threads, each encoding and decoding its own stripes: all results correct. */
class ConcurrencyTest {
  private static final int THREADS = 8;
  private static final int ROUNDS = 40;

  @ParameterizedTest
  @EnumSource(ReedSolomon.Implementation.class)
  void threadsSharingOneCoderGetCorrectResults(ReedSolomon.Implementation impl) throws Exception {
    int k = 10;
    int r = 4;
    ErasureCoder shared = ReedSolomon.coder(k, r, impl);
    assertSame(shared, ReedSolomon.coder(k, r, impl), "coders are cached per (k, r)");
    ErasureCoder reference = ReedSolomon.coder(k, r,
        impl == ReedSolomon.Implementation.JAVA
            ? ReedSolomon.Implementation.NATIVE : ReedSolomon.Implementation.JAVA);

    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> results = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        final int thread = t;
        results.add(pool.submit(() -> {
          for (int round = 0; round < ROUNDS; round++) {
            int len = 1 + (thread * 997 + round * 131) % 20000;
            ByteBuffer[] data = Stripes.random(k, len, thread * 1000L + round);
            ByteBuffer[] parity = Stripes.empty(r, len);
            ByteBuffer[] expected = Stripes.empty(r, len);
            shared.encode(data, parity);
            reference.encode(data, expected);
            for (int i = 0; i < r; i++) {
              assertArrayEquals(Stripes.bytes(expected[i]), Stripes.bytes(parity[i]));
            }
            // Lose a thread-dependent data unit and rebuild it through the shared plan cache.
            int lost = (thread + round) % k;
            ByteBuffer[] units = new ByteBuffer[k + r];
            System.arraycopy(data, 0, units, 0, k);
            System.arraycopy(parity, 0, units, k, r);
            units[lost] = null;
            ByteBuffer[] out = Stripes.empty(1, len);
            shared.decode(units, new int[] {lost}, out);
            assertArrayEquals(Stripes.bytes(data[lost]), Stripes.bytes(out[0]));
          }
          return null;
        }));
      }
      for (Future<?> f : results) {
        f.get(2, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
