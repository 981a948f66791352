package io.eccache.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** λ and the Zipf sampler against hand-computed values. */
class ZipfSamplerTest {
  @Test
  void zipfProbabilitiesAreHandComputable() {
    // s = 1, n = 3: weights 1, 1/2, 1/3; sum 11/6 -> 6/11, 3/11, 2/11.
    ZipfSampler z = new ZipfSampler(3, 1.0);
    assertEquals(6.0 / 11, z.probability(0), 1e-12);
    assertEquals(3.0 / 11, z.probability(1), 1e-12);
    assertEquals(2.0 / 11, z.probability(2), 1e-12);
    // s = 0 is uniform.
    ZipfSampler uniform = new ZipfSampler(4, 0);
    assertEquals(0.25, uniform.probability(3), 1e-12);
  }

  @Test
  void zipfSamplesFollowTheDistribution() {
    ZipfSampler z = new ZipfSampler(10, 0.9);
    int[] counts = new int[10];
    Random random = new Random(7);
    int n = 200_000;
    for (int i = 0; i < n; i++) {
      counts[z.next(random)]++;
    }
    for (int i = 0; i < 10; i++) {
      double expected = z.probability(i) * n;
      assertTrue(Math.abs(counts[i] - expected) < 5 * Math.sqrt(expected),
          "rank " + i + ": " + counts[i] + " vs " + expected);
    }
    assertTrue(counts[0] > counts[9] * 5, "rank 0 is far more popular than rank 9");
  }
}
