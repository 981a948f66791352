package io.eccache.lognode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A node opened on a directory recovers what was flushed, reports per stripe the version it holds, and
 * never serves what it lost: its buffer (committed deltas not yet flushed, undecided ones, bases), torn
 * records at the end of what a crash interrupted, a merge cut short.
 */
class RecoveryTest {
  @TempDir
  Path dir;

  private final Random random = new Random(11);

  private LogNodeConfig config(LogScheme scheme) {
    return Fixture.config(dir, scheme).reservedBytes(1024).build();
  }

  @ParameterizedTest
  @EnumSource(LogScheme.class)
  void flushedStateSurvivesAndTheBufferIsReportedLost(LogScheme scheme) {
    LogNode node = LogNode.open(config(scheme));
    Fixture.Stripe s = new Fixture.Stripe(7, Fixture.randomData(random, Fixture.K, Fixture.UNIT), Fixture.R, 1);
    Fixture.Stripe never = new Fixture.Stripe(8, Fixture.randomData(random, Fixture.K, Fixture.UNIT), Fixture.R, 1);
    s.putBase(node);
    for (long u = 1; u <= 3; u++) {
      s.update(node, random, u);
    }
    node.flush();
    node.merge();
    s.update(node, random, 4);
    s.update(node, random, 5);
    byte[][] pending = s.append(node, random, 6, 2, 0, Fixture.UNIT);
    never.putBase(node);
    assertEquals(OptionalLong.of(5), node.version(7));
    node.abandon(); // a crash: the buffer is gone

    LogNode reopened = LogNode.open(config(scheme));
    RecoveryReport report = reopened.recovery();
    assertEquals(Map.of(7L, 3L), report.versions(), "version 3 was flushed, 4 and 5 and stripe 8 were not");
    assertTrue(report.damage().isEmpty(), report.toString());
    assertArrayEquals(s.parity(3), reopened.readParity(7, 3).parity());
    ParityRead behind = reopened.readParity(7, 5);
    assertEquals(ParityRead.Status.BEHIND, behind.status(), "stale, never wrong");
    assertEquals(3, behind.heldVersion());
    assertThrows(IllegalStateException.class, () -> reopened.readParity(8, 0), "never flushed: not held");
    // Outcomes still in flight for lost deltas: a commit past the held version is refused, an abort is a no-op.
    assertThrows(IllegalStateException.class, () -> reopened.commit(7, 6, 6));
    assertFalse(reopened.abort(7, 6));
    assertFalse(reopened.commit(7, 3, 3), "an outcome already in the held parity is a repeat");

    // The coordinator rebuilds at its version, and updates carry on from there.
    s.putBase(reopened);
    assertArrayEquals(s.parity(5), reopened.readParity(7, 5).parity());
    assertTrue(pending.length > 0);
    s.update(reopened, random, 7);
    reopened.close();
    LogNode third = LogNode.open(config(scheme));
    assertEquals(Map.of(7L, 6L), third.recovery().versions(), "close flushes");
    assertArrayEquals(s.parity(6), third.readParity(7, 6).parity());
    third.close();
  }

  @ParameterizedTest
  @EnumSource(LogScheme.class)
  void aTornLastRecordEndsRecoveryThereAndIsReported(LogScheme scheme) throws IOException {
    LogNode node = LogNode.open(config(scheme));
    Fixture.Stripe s = new Fixture.Stripe(3, Fixture.randomData(random, Fixture.K, Fixture.UNIT), Fixture.R, 1);
    s.putBase(node);
    node.flush();
    s.update(node, random, 1, 0, 0, 16);
    node.flush();
    s.update(node, random, 2, 1, 8, 16);
    node.flush();
    node.abandon();
    // Tear the last write: the newest record in the log, or the newest in the stripe's reserved area.
    Path file;
    long at;
    if (scheme.flushesToLog()) {
      file = only(dir.resolve("log"));
      at = Files.size(file) - 5;
    } else {
      file = dir.resolve("stripes").resolve("3.par");
      at = StripeFiles.HEADER + Fixture.UNIT + (Records.HEADER + 16) + Records.HEADER + 3;
    }
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.seek(at);
      int b = raf.read();
      raf.seek(at);
      raf.write(b ^ 0x40);
    }
    LogNode reopened = LogNode.open(config(scheme));
    assertEquals(Map.of(3L, 1L), reopened.recovery().versions(), reopened.recovery().toString());
    assertEquals(1, reopened.recovery().damage().size(), reopened.recovery().toString());
    assertArrayEquals(s.parity(1), reopened.readParity(3, 1).parity());
    // And it carries on: rebuilt, updated, flushed, recovered again.
    s.putBase(reopened);
    s.update(reopened, random, 3);
    reopened.close();
    LogNode third = LogNode.open(config(scheme));
    assertEquals(Map.of(3L, 3L), third.recovery().versions());
    assertArrayEquals(s.parity(3), third.readParity(3, 3).parity());
    third.close();
  }

  @ParameterizedTest
  @EnumSource(LogScheme.class)
  void aDamagedRecordBeforeGoodOnesEndsItsStripeThere(LogScheme scheme) throws IOException {
    // Small segments: every flush rolls to a new one, so later records of the stripe lie beyond the
    // damaged one in other segments (in the reserved area, they simply follow it).
    LogNodeConfig config = Fixture.config(dir, scheme).reservedBytes(1024).segmentBytes(1).build();
    LogNode node = LogNode.open(config);
    Fixture.Stripe s = new Fixture.Stripe(4, Fixture.randomData(random, Fixture.K, Fixture.UNIT), Fixture.R, 1);
    Fixture.Stripe other = new Fixture.Stripe(5, Fixture.randomData(random, Fixture.K, Fixture.UNIT), Fixture.R, 1);
    s.putBase(node);
    other.putBase(node);
    node.flush();
    for (long u = 1; u <= 3; u++) {
      s.update(node, random, u, 0, 0, 16);
      node.flush();
    }
    other.update(node, random, 4, 0, 0, 16);
    node.flush();
    node.abandon();
    // Damage version 2's record: in the log, the segment of the third flush; in the area, its second record.
    Path file;
    long at;
    if (scheme.flushesToLog()) {
      file = list(dir.resolve("log")).get(2);
      at = Records.HEADER + 3;
    } else {
      file = dir.resolve("stripes").resolve("4.par");
      at = StripeFiles.HEADER + Fixture.UNIT + (Records.HEADER + 16) + Records.HEADER + 3;
    }
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.seek(at);
      int b = raf.read();
      raf.seek(at);
      raf.write(b ^ 0x01);
    }
    LogNode reopened = LogNode.open(config);
    RecoveryReport report = reopened.recovery();
    assertEquals(Map.of(4L, 1L, 5L, 1L), report.versions(), "version 3 must not apply over the hole: " + report);
    assertEquals(1, report.damage().size(), report.toString());
    assertArrayEquals(s.parity(1), reopened.readParity(4, 1).parity());
    assertArrayEquals(other.parity(1), reopened.readParity(5, 1).parity());
    reopened.close();
  }

  @Test
  void aPlmMergeCutShortBeforeDeletingTheLogRecoversTheSame() throws IOException {
    LogNode node = LogNode.open(config(LogScheme.PLM));
    Fixture.Stripe a = new Fixture.Stripe(1, Fixture.randomData(random, Fixture.K, Fixture.UNIT), Fixture.R, 1);
    Fixture.Stripe b = new Fixture.Stripe(2, Fixture.randomData(random, Fixture.K, Fixture.UNIT), Fixture.R, 1);
    a.putBase(node);
    b.putBase(node);
    node.flush();
    node.merge();
    for (long u = 1; u <= 6; u++) {
      (u % 2 == 0 ? a : b).update(node, random, u);
    }
    a.putBase(node); // a new base of a at the same version, in the log with its deltas
    a.update(node, random, 7);
    node.flush();
    Path log = dir.resolve("log");
    Path saved = dir.resolve("saved-log");
    Files.createDirectories(saved);
    List<Path> segments = list(log);
    for (Path segment : segments) {
      Files.copy(segment, saved.resolve(segment.getFileName()));
    }
    node.merge();
    assertTrue(list(log).isEmpty());
    node.abandon();
    // Put the merged segments back, as if the crash came after the stripe files were written but before
    // the segments were deleted.
    for (Path segment : segments) {
      Files.copy(saved.resolve(segment.getFileName()), segment, StandardCopyOption.REPLACE_EXISTING);
    }
    LogNode reopened = LogNode.open(config(LogScheme.PLM));
    RecoveryReport report = reopened.recovery();
    assertEquals(Map.of(1L, a.version(), 2L, b.version()), report.versions(), report.toString());
    assertTrue(report.skippedRecords() > 0, "the log's records are already in the files: " + report);
    assertArrayEquals(a.parity(a.version()), reopened.readParity(1, a.version()).parity());
    assertArrayEquals(b.parity(b.version()), reopened.readParity(2, b.version()).parity());
    reopened.merge();
    assertArrayEquals(a.parity(a.version()), reopened.readParity(1, a.version()).parity());
    reopened.close();
  }

  @ParameterizedTest
  @EnumSource(LogScheme.class)
  void aFlushedDropStaysDroppedAndAnUnflushedOneComesBack(LogScheme scheme) {
    LogNode node = LogNode.open(config(scheme));
    Fixture.Stripe a = new Fixture.Stripe(1, Fixture.randomData(random, Fixture.K, Fixture.UNIT), Fixture.R, 1);
    Fixture.Stripe b = new Fixture.Stripe(2, Fixture.randomData(random, Fixture.K, Fixture.UNIT), Fixture.R, 1);
    a.putBase(node);
    b.putBase(node);
    a.update(node, random, 1);
    node.flush();
    assertTrue(node.dropStripe(1));
    assertFalse(node.dropStripe(1), "dropping twice");
    node.flush();
    assertTrue(node.dropStripe(2)); // not flushed
    node.abandon();
    LogNode reopened = LogNode.open(config(scheme));
    assertEquals(Map.of(2L, 0L), reopened.recovery().versions(), "a drop lost with the buffer is undone");
    assertTrue(reopened.dropStripe(2));
    // The same id can be used again after a drop: a new stripe, its own versions.
    Fixture.Stripe again = new Fixture.Stripe(1, Fixture.randomData(random, Fixture.K, Fixture.UNIT), Fixture.R, 1);
    again.putBase(reopened);
    reopened.close();
    LogNode third = LogNode.open(config(scheme));
    assertEquals(Map.of(1L, 0L), third.recovery().versions());
    assertArrayEquals(again.parity(0), third.readParity(1, 0).parity());
    third.close();
  }

  @Test
  void aDirectoryIsNeverReadWithOtherSettings() {
    LogNode.open(config(LogScheme.PLR)).close();
    IllegalArgumentException wrongScheme = assertThrows(IllegalArgumentException.class,
        () -> LogNode.open(config(LogScheme.PL)));
    assertTrue(wrongScheme.getMessage().contains("scheme=PLR"), wrongScheme.getMessage());
    IllegalArgumentException wrongRow = assertThrows(IllegalArgumentException.class,
        () -> LogNode.open(Fixture.config(dir, LogScheme.PLR).reservedBytes(1024).row(2).build()));
    assertTrue(wrongRow.getMessage().contains("row=1"), wrongRow.getMessage());
    // Limits that do not change the files' meaning may change.
    LogNode.open(Fixture.config(dir, LogScheme.PLR).reservedBytes(1024).bufferBytes(1 << 20).build()).close();
  }

  private static Path only(Path dir) throws IOException {
    List<Path> files = list(dir);
    assertEquals(1, files.size(), files.toString());
    return files.get(0);
  }

  private static List<Path> list(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.sorted().collect(Collectors.toList());
    }
  }
}
