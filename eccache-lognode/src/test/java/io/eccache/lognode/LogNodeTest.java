package io.eccache.lognode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The rules of versions, outcomes, the buffer and time, one at a time. */
class LogNodeTest {
  @TempDir
  Path dir;

  private final Random random = new Random(1);
  private final Fixture.TestClock clock = new Fixture.TestClock();

  private LogNode open(LogScheme scheme) {
    return LogNode.open(Fixture.config(dir, scheme).clock(clock).build());
  }

  private Fixture.Stripe stripe(LogNode node, long id) {
    Fixture.Stripe s = new Fixture.Stripe(id, Fixture.randomData(random, Fixture.K, Fixture.UNIT), Fixture.R, 1);
    s.putBase(node);
    return s;
  }

  @Test
  void outOfOrderCommitsWaitForTheVersionsBefore() {
    LogNode node = open(LogScheme.PLM);
    Fixture.Stripe s = stripe(node, 1);
    byte[][] v1 = s.append(node, random, 10, 0, 4, 20);
    s.versions.add(v1);
    byte[][] v2 = s.append(node, random, 11, 3, 0, 64);
    s.versions.add(v2);
    assertTrue(node.commit(1, 11, 2));
    assertEquals(OptionalLong.of(0), node.version(1), "version 1's outcome has not arrived");
    node.flush(); // nothing of it may reach the disk yet
    assertEquals(ParityRead.Status.BEHIND, node.readParity(1, 2).status());
    assertArrayEquals(s.parity(0), node.readParity(1, 0).parity());
    assertTrue(node.commit(1, 10, 1));
    assertEquals(OptionalLong.of(2), node.version(1));
    assertArrayEquals(s.parity(2), node.readParity(1, 2).parity());
    ParityRead ahead = node.readParity(1, 1);
    assertEquals(ParityRead.Status.AHEAD, ahead.status());
    assertEquals(2, ahead.heldVersion());
    assertThrows(IllegalStateException.class, ahead::parity);
    assertFalse(node.commit(1, 10, 1), "a repeated outcome");
    assertFalse(node.commit(1, 11, 2), "a repeated outcome");
    node.flush();
    assertFalse(node.commit(1, 10, 1), "a repeated outcome after the flush");
    assertArrayEquals(s.parity(2), node.readParity(1, 2).parity());
  }

  @Test
  void abortedAndUndecidedDeltasNeverShow() {
    LogNode node = open(LogScheme.PLR_M);
    Fixture.Stripe s = stripe(node, 1);
    s.append(node, random, 1, 0, 0, 64);
    assertTrue(node.abort(1, 1));
    assertFalse(node.abort(1, 1), "aborting twice is a no-op");
    s.append(node, random, 2, 1, 0, 64); // never decided
    s.update(node, random, 3, 2, 10, 10); // a later update from the same base commits as version 1
    node.flush();
    node.merge();
    assertArrayEquals(s.parity(1), node.readParity(1, 1).parity());
    assertThrows(IllegalStateException.class, () -> node.commit(1, 2, 1), "version 1 is taken");
  }

  @Test
  void aBaseMakesOlderOpenUpdatesMootAndKeepsLaterOnes() {
    LogNode node = open(LogScheme.PL);
    Fixture.Stripe s = stripe(node, 1);
    s.append(node, random, 1, 0, 0, 8); // from version 0, undecided
    s.update(node, random, 2, 1, 0, 8); // version 1
    s.update(node, random, 3, 1, 8, 8); // version 2
    byte[][] next = s.append(node, random, 4, 2, 0, 8); // from version 2, undecided
    long before = node.bufferedBytes();
    // The coordinator rebuilt the parity at version 2 (e.g. after a repair elsewhere).
    s.putBase(node);
    assertTrue(node.bufferedBytes() < before, "the moot delta and the replaced chain were released");
    assertFalse(node.abort(1, 1), "update 1 started before the base: gone");
    s.versions.add(next);
    assertTrue(node.commit(1, 4, 3), "update 4 starts at the base: kept");
    assertArrayEquals(s.parity(3), node.readParity(1, 3).parity());
  }

  @Test
  void emptyDeltasCommitToo() {
    LogNode node = open(LogScheme.PLR);
    Fixture.Stripe s = stripe(node, 1);
    s.update(node, random, 1, 0, 64, 0);
    node.flush();
    assertEquals(OptionalLong.of(1), node.version(1));
    assertArrayEquals(s.parity(1), node.readParity(1, 1).parity());
    assertArrayEquals(s.parity(0), s.parity(1));
  }

  @Test
  void theNodeComputesItsOwnRowsParityDelta() {
    // Parity row 2 of (3, 3); one byte of unit 1 changes by 0x01: the parity changes by exactly the
    // coefficient c(2, 1) in that byte, nothing elsewhere.
    LogNode node = LogNode.open(LogNodeConfig.builder().directory(dir).code(3, 3).row(2).unitSize(16)
        .scheme(LogScheme.PLR).fsync(false).build());
    node.putBase(9, 2, 0, ByteBuffer.allocate(16));
    ByteBuffer delta = ByteBuffer.wrap(new byte[] {1});
    node.appendDelta(9, 1, 0, 1, 5, delta);
    node.commit(9, 1, 1);
    byte[] parity = node.readParity(9, 1).parity();
    byte[][] unitOne = new byte[3][16];
    unitOne[1][5] = 1;
    assertArrayEquals(Fixture.parity(unitOne, 3, 2), parity);
    assertTrue(parity[5] != 0 && parity[5] != 1, "row 2 is not the XOR row");
    assertEquals(0, delta.position(), "the caller's buffer is not moved");
  }

  @Test
  void aFullBufferFlushesDecidedDeltasByItself() {
    LogNode node = LogNode.open(Fixture.config(dir, LogScheme.PL).bufferBytes(1000).clock(clock).build());
    Fixture.Stripe s = stripe(node, 1);
    for (long u = 1; u <= 10; u++) {
      s.update(node, random, u, 0, 0, 64); // 128 bytes each with the overhead
      assertTrue(node.bufferedBytes() <= 1000);
    }
    assertTrue(node.diskStats().ios(DiskStats.Purpose.FLUSH, DiskStats.Access.SEQUENTIAL_WRITE) >= 1,
        "flushed when full, without being asked");
    assertArrayEquals(s.parity(10), node.readParity(1, 10).parity());
  }

  @Test
  void maintainFlushesOnTheIntervalOrWhenHalfFull() {
    LogNode node = LogNode.open(Fixture.config(dir, LogScheme.PLR).bufferBytes(4096).clock(clock)
        .flushInterval(Duration.ofSeconds(2)).build());
    Fixture.Stripe s = stripe(node, 1);
    s.update(node, random, 1);
    clock.advance(Duration.ofMillis(1999));
    node.maintain();
    assertEquals(0, node.diskStats().ios(), "not yet");
    clock.advance(Duration.ofMillis(1));
    node.maintain();
    assertEquals(2, node.diskStats().ios(), "the base and the delta");
    assertEquals(0, node.bufferedBytes());
    for (long u = 2; u <= 17; u++) {
      s.update(node, random, u, 0, 0, 64);
    }
    assertTrue(node.bufferedBytes() >= 2048);
    node.maintain();
    assertEquals(0, node.bufferedBytes(), "half full: flushed before the interval");
  }

  @Test
  void maintainMergesAPlmLogPastItsSize() {
    LogNode node = LogNode.open(Fixture.config(dir, LogScheme.PLM).clock(clock).mergeLogBytes(1000).build());
    Fixture.Stripe s = stripe(node, 1);
    node.flush();
    s.update(node, random, 1, 0, 0, 64);
    node.flush();
    assertTrue(node.logBytes() > 0);
    for (long u = 2; u <= 10; u++) {
      s.update(node, random, u, 0, 0, 64);
    }
    clock.advance(Duration.ofSeconds(5));
    node.maintain(); // flushes, which takes the log past 1000 bytes and merges it
    assertEquals(0, node.logBytes());
    assertTrue(node.diskStats().ios(DiskStats.Purpose.MERGE, DiskStats.Access.SEQUENTIAL_READ) == 1);
    assertArrayEquals(s.parity(10), node.readParity(1, 10).parity());
  }

  @Test
  void undecidedUpdatesAreListedByAgeOnTheNodesClock() {
    LogNode node = open(LogScheme.PLM);
    Fixture.Stripe s = stripe(node, 1);
    s.append(node, random, 1, 0, 0, 4);
    clock.advance(Duration.ofSeconds(10));
    Fixture.Stripe t = stripe(node, 2);
    t.append(node, random, 2, 0, 0, 4);
    assertEquals(List.of(), node.undecidedOlderThan(Duration.ofSeconds(11)));
    List<UndecidedUpdate> old = node.undecidedOlderThan(Duration.ofSeconds(10));
    assertEquals(1, old.size(), old.toString());
    assertEquals(1, old.get(0).stripe());
    assertEquals(1, old.get(0).updateId());
    assertEquals(0, old.get(0).baseVersion());
    assertEquals(2, node.undecidedOlderThan(Duration.ZERO).size());
    node.abort(1, 1);
    assertEquals(1, node.undecidedOlderThan(Duration.ZERO).size());
  }

  @ParameterizedTest
  @EnumSource(LogScheme.class)
  void withFsyncOnToo(LogScheme scheme) {
    LogNodeConfig config = Fixture.config(dir, scheme).fsync(true).reservedBytes(200).build();
    LogNode node = LogNode.open(config);
    Fixture.Stripe s = stripe(node, 1);
    for (long u = 1; u <= 4; u++) {
      s.update(node, random, u);
      node.flush();
    }
    node.merge();
    assertTrue(node.dropStripe(1));
    Fixture.Stripe t = stripe(node, 2);
    t.update(node, random, 5);
    node.close();
    LogNode reopened = LogNode.open(config);
    assertEquals(java.util.Map.of(2L, 1L), reopened.recovery().versions());
    assertArrayEquals(t.parity(1), reopened.readParity(2, 1).parity());
    reopened.close();
  }
}
