package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** What a timed-out wait says of where the work it waited for is stuck. */
class IoErrorsTest {
  @Test
  void aStuckThreadsStackIsTheEvidence() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    Thread stuck = new Thread(() -> {
      try {
        never.await();
      } catch (InterruptedException ended) {
        // the test is over
      }
    }, "eccache-io-test");
    stuck.start();
    try {
      while (stuck.getState() != Thread.State.WAITING) {
        Thread.onSpinWait();
      }
      Exception evidence = IoErrors.whereStuck("opening /x", stuck);
      assertTrue(evidence.getMessage().contains("opening /x is still waiting, on thread"
          + " eccache-io-test (WAITING)"), evidence.getMessage());
      assertTrue(Arrays.stream(evidence.getStackTrace())
          .anyMatch(f -> f.getClassName().equals(CountDownLatch.class.getName())),
          Arrays.toString(evidence.getStackTrace()));
    } finally {
      stuck.interrupt();
      stuck.join();
    }
  }

  @Test
  void workNoThreadStartedSaysTheThreadsWereBusy() {
    assertTrue(IoErrors.whereStuck("opening /x", null).getMessage()
        .contains("every eccache I/O thread was busy"));
  }
}
