package io.eccache.benchmarks.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ByteAgreementTest {
  @Test
  void theWorstWorkerDecidesAndOnlyAbove105PercentIsFlagged() {
    Map<String, Long> client = Map.of("w1", 1000L, "w2", 2000L, "w3", 0L);
    Map<String, Long> tc = Map.of("w1", 1050L, "w2", 2380L, "w3", 500L);
    assertEquals(1.19, ByteAgreement.worstRatio(client, tc), 1e-12);
    assertTrue(ByteAgreement.flagged(1.19));
    assertEquals("w2 1.190x", ByteAgreement.flaggedWorkers(client, tc));
    // Exactly 1.05 is within; a worker the clients did not read from is not judged.
    assertFalse(ByteAgreement.flagged(1.05));
    assertEquals("", ByteAgreement.flaggedWorkers(Map.of("w1", 1000L), Map.of("w1", 1050L)));
    assertEquals(0, ByteAgreement.worstRatio(Map.of(), tc));
  }

  @Test
  void fallbackBytesExplainAnExcessUpToTheirAmountWhereverItFell() {
    // w2's 380 bytes above the clients' count: 280 beyond 1.05x; w3 was not read, so not judged.
    Map<String, Long> client = Map.of("w1", 1000L, "w2", 2000L, "w3", 0L);
    Map<String, Long> tc = Map.of("w1", 1050L, "w2", 2380L, "w3", 500L);
    assertEquals(280, ByteAgreement.unexplainedBytes(client, tc, 0));
    assertEquals(0, ByteAgreement.unexplainedBytes(client, tc, 280));
    assertEquals(-20, ByteAgreement.unexplainedBytes(client, tc, 300));
    // The failure run's shape: 19 fallbacks of 8 MiB, spread over workers, explain the excess.
    Map<String, Long> failureClient = Map.of("a", 100L << 20, "b", 100L << 20);
    Map<String, Long> failureTc = Map.of("a", 181L << 20, "b", 180L << 20);
    assertTrue(ByteAgreement.unexplainedBytes(failureClient, failureTc, 152L << 20) <= 0);
    assertTrue(ByteAgreement.unexplainedBytes(failureClient, failureTc, 8L << 20) > 0);
  }
}
