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
}
