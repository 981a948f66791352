package io.eccache.testkit;

import java.util.Random;

/** Test data every module's tests share. */
public final class TestData {
  private TestData() {}

  /** {@code n} pseudo-random bytes, the same for the same seed: a failure can be replayed. */
  public static byte[] randomBytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }
}
