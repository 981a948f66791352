package io.eccache.lognode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The counters' snapshot arithmetic and the modelled HDD time. */
class DiskModelTest {
  @Test
  void statsAddUpByPurposeAndAccess() {
    DiskCounters counters = new DiskCounters();
    counters.count(DiskStats.Purpose.FLUSH, DiskStats.Access.SEQUENTIAL_WRITE, 1000);
    counters.count(DiskStats.Purpose.MERGE, DiskStats.Access.SEQUENTIAL_READ, 1000);
    counters.count(DiskStats.Purpose.MERGE, DiskStats.Access.RANDOM_WRITE, 100);
    counters.count(DiskStats.Purpose.MERGE, DiskStats.Access.RANDOM_WRITE, 100);
    DiskStats before = counters.snapshot();
    counters.count(DiskStats.Purpose.READ, DiskStats.Access.RANDOM_READ, 300);
    DiskStats after = counters.snapshot();
    assertEquals(4, before.updateIos());
    assertEquals(3, before.writes());
    assertEquals(1, before.reads());
    assertEquals(1200, before.bytesWritten());
    assertEquals(2, after.ios(DiskStats.Access.RANDOM_WRITE));
    assertEquals(3, after.ios(DiskStats.Purpose.MERGE));
    assertEquals(1300, after.bytesRead());
    DiskStats delta = after.minus(before);
    assertEquals(1, delta.ios());
    assertEquals(300, delta.bytes(DiskStats.Purpose.READ));
    assertEquals(after, before.plus(delta));
    assertEquals("DiskStats{READ RANDOM_READ 1 (300 B)}", delta.toString());
  }

  @Test
  void eachIoCostsASeekPlusItsBytesOverTheBandwidth() {
    DiskCounters counters = new DiskCounters();
    counters.count(DiskStats.Purpose.FLUSH, DiskStats.Access.SEQUENTIAL_WRITE, 1_500_000);
    counters.count(DiskStats.Purpose.READ, DiskStats.Access.RANDOM_READ, 150);
    counters.count(DiskStats.Purpose.READ, DiskStats.Access.RANDOM_READ, 150);
    DiskStats stats = counters.snapshot();
    DiskModel hdd = DiskModel.hdd();
    // Flush: 4 ms + 1.5 MB / 150 MB/s = 14 ms. Reads: 2 x 4 ms + 300 B / 150 MB/s = 8 ms + 2 us.
    assertEquals(Duration.ofMillis(14), hdd.time(stats, DiskStats.Purpose.FLUSH));
    assertEquals(Duration.ofMillis(8).plusNanos(2000), hdd.time(stats, DiskStats.Purpose.READ));
    assertEquals(Duration.ofMillis(22).plusNanos(2000), hdd.time(stats));
    assertEquals(Duration.ZERO, hdd.time(stats, DiskStats.Purpose.MERGE));
  }

  @Test
  void largeByteCountsDoNotOverflow() {
    DiskCounters counters = new DiskCounters();
    counters.count(DiskStats.Purpose.FLUSH, DiskStats.Access.SEQUENTIAL_WRITE, 3_000_000_000_000L);
    counters.count(DiskStats.Purpose.FLUSH, DiskStats.Access.SEQUENTIAL_WRITE, 1);
    // 4 ms x 2 + 3e12 B / 1.5e8 B/s = 20000 s, plus one byte: 6.67 ns, rounded up to 7.
    assertEquals(Duration.ofSeconds(20000).plusMillis(8).plusNanos(7), DiskModel.hdd().time(counters.snapshot()));
  }

  @Test
  void badModels() {
    assertThrows(IllegalArgumentException.class, () -> new DiskModel(Duration.ofMillis(-1), 1));
    assertThrows(IllegalArgumentException.class, () -> new DiskModel(Duration.ZERO, 0));
  }
}
