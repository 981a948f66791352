package io.eccache.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.common.ReadChoice;
import io.eccache.common.proto.Layout;
import io.eccache.common.proto.LookupResponse;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The adaptive read choice's signal: sampled at most every 100 ms, with hysteresis. */
class CpuLoadTest {
  private final FakeTicker clock = new FakeTicker();
  private double load;
  private final AtomicInteger samples = new AtomicInteger();
  private final CpuLoad cpu = new CpuLoad(() -> {
    samples.incrementAndGet();
    return load;
  }, clock);

  @Test
  void busyFrom90PercentAndAgainWithRoomOnlyBelow75() {
    load = 0.89;
    assertFalse(cpu.busy());
    load = 0.9;
    clock.advanceMs(CpuLoad.SAMPLE_MS);
    assertTrue(cpu.busy());
    load = 0.8; // between the lines: stays busy
    clock.advanceMs(CpuLoad.SAMPLE_MS);
    assertTrue(cpu.busy());
    load = 0.74;
    clock.advanceMs(CpuLoad.SAMPLE_MS);
    assertFalse(cpu.busy());
    load = 0.8; // between the lines: stays with room
    clock.advanceMs(CpuLoad.SAMPLE_MS);
    assertFalse(cpu.busy());
  }

  @Test
  void aSampleServesEveryGetFor100MsAndAnUnknownLoadChangesNothing() {
    load = 0.95;
    assertTrue(cpu.busy());
    load = 0.1;
    clock.advanceMs(CpuLoad.SAMPLE_MS - 1);
    for (int i = 0; i < 50; i++) {
      assertTrue(cpu.busy(), "the last sample stands for 100 ms");
    }
    assertEquals(1, samples.get());
    load = -1; // the operating system cannot say
    clock.advanceMs(1);
    assertTrue(cpu.busy(), "an unknown load keeps what was known");
    assertEquals(2, samples.get());
    CpuLoad unknown = new CpuLoad(() -> -1, clock);
    assertFalse(unknown.busy(), "never known: not busy (the paper's random choice)");
  }

  @Test
  void adaptiveReadsRandomWithRoomAndHedgedWhenBusy() {
    LookupResponse lookup = LookupResponse.newBuilder().setLayout(Layout.newBuilder()).build();
    assertSame(ReadStrategy.RANDOM,
        ReadStrategy.of(lookup, false, ReadChoice.ADAPTIVE, () -> false));
    assertSame(ReadStrategy.HEDGED,
        ReadStrategy.of(lookup, false, ReadChoice.ADAPTIVE, () -> true));
    assertSame(ReadStrategy.RANDOM, ReadStrategy.of(lookup, false, ReadChoice.RANDOM, () -> true),
        "only the adaptive choice goes by the load");
    assertSame(ReadStrategy.COPIES, ReadStrategy.of(lookup, true, ReadChoice.ADAPTIVE, () -> true));
  }
}
