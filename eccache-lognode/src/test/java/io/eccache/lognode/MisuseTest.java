package io.eccache.lognode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Misuse gets a typed exception with a message that says what was wrong, and changes nothing: the held
 * versions, the buffer, the parity and the disk are as they were.
 */
class MisuseTest {
  @TempDir
  Path dir;

  private final Random random = new Random(5);
  private LogNode node;
  private Fixture.Stripe stripe;

  @BeforeEach
  void setUp() {
    node = LogNode.open(Fixture.config(dir, LogScheme.PLM).build());
    stripe = new Fixture.Stripe(1, Fixture.randomData(random, Fixture.K, Fixture.UNIT), Fixture.R, 1);
    stripe.putBase(node);
    stripe.update(node, random, 1);
    stripe.append(node, random, 2, 0, 0, 8); // undecided, base version 1
  }

  /** Runs {@code call}, expects {@code type} with {@code words} in the message, and no change at all. */
  private <T extends Throwable> void refused(Class<T> type, String words, Executable call) {
    Map<Long, Long> versions = node.versions();
    long held = versions.get(1L);
    byte[] parity = node.readParity(1, held).parity();
    long buffered = node.bufferedBytes();
    DiskStats io = node.diskStats();
    T thrown = assertThrows(type, call);
    assertTrue(thrown.getMessage().contains(words), "'" + thrown.getMessage() + "' should say '" + words + "'");
    assertEquals(versions, node.versions());
    assertEquals(buffered, node.bufferedBytes());
    assertEquals(io, node.diskStats(), "no I/O");
    assertArrayEquals(parity, node.readParity(1, held).parity());
  }

  private static ByteBuffer bytes(int n) {
    return ByteBuffer.allocate(n);
  }

  @Test
  void wrongSizesAndRanges() {
    refused(IllegalArgumentException.class, "64 bytes, not 63", () -> node.putBase(1, 1, 5, bytes(63)));
    refused(IllegalArgumentException.class, "not row 2", () -> node.putBase(1, 2, 5, bytes(64)));
    refused(IllegalArgumentException.class, "must not be negative", () -> node.putBase(1, 1, -1, bytes(64)));
    refused(IllegalArgumentException.class, "stripe ids are not negative", () -> node.putBase(-3, 1, 1, bytes(64)));
    refused(IllegalArgumentException.class, "not inside a unit",
        () -> node.appendDelta(1, 9, 1, 0, 60, bytes(5)));
    refused(IllegalArgumentException.class, "not inside a unit",
        () -> node.appendDelta(1, 9, 1, 0, -1, bytes(1)));
    refused(IllegalArgumentException.class, "data unit 4 is not in 0..3",
        () -> node.appendDelta(1, 9, 1, 4, 0, bytes(1)));
    refused(IllegalArgumentException.class, "must not be negative", () -> node.appendDelta(1, 9, -1, 0, 0, bytes(1)));
    refused(IllegalArgumentException.class, "must not be negative", () -> node.readParity(1, -1));
    refused(NullPointerException.class, "dataDelta", () -> node.appendDelta(1, 9, 1, 0, 0, null));
  }

  @Test
  void unknownStripe() {
    refused(IllegalStateException.class, "stripe 2 is not held", () -> node.appendDelta(2, 9, 0, 0, 0, bytes(1)));
    refused(IllegalStateException.class, "stripe 2 is not held", () -> node.commit(2, 9, 1));
    refused(IllegalStateException.class, "stripe 2 is not held", () -> node.abort(2, 9));
    refused(IllegalStateException.class, "stripe 2 is not held", () -> node.readParity(2, 0));
  }

  @Test
  void duplicateUpdateIds() {
    refused(IllegalStateException.class, "update 2 of stripe 1 was already appended",
        () -> node.appendDelta(1, 2, 1, 0, 0, bytes(4)));
    // Committed out of order (version 3 before 2), so still held by id.
    node.appendDelta(1, 3, 2, 1, 0, bytes(8));
    assertTrue(node.commit(1, 3, 3));
    refused(IllegalStateException.class, "update 3 of stripe 1 was already appended",
        () -> node.appendDelta(1, 3, 2, 0, 0, bytes(4)));
    // Committed into the chain: a replay of it starts behind the held version.
    refused(IllegalStateException.class, "starts from version 0 but the stripe is already at version 1",
        () -> node.appendDelta(1, 1, 0, 0, 0, bytes(4)));
  }

  @Test
  void versionsGoingBackwardsOrNotFollowing() {
    refused(IllegalStateException.class, "would take it backwards",
        () -> node.putBase(1, 1, 0, ByteBuffer.wrap(stripe.parity(0))));
    refused(IllegalArgumentException.class, "commits as version 2, not 3", () -> node.commit(1, 2, 3));
    refused(IllegalArgumentException.class, "version 1 or later", () -> node.commit(1, 2, 0));
    // Two updates from the same base: only one commits.
    node.appendDelta(1, 4, 1, 2, 0, bytes(8));
    assertTrue(node.commit(1, 4, 2));
    refused(IllegalStateException.class, "version 2 of stripe 1 is already committed",
        () -> node.commit(1, 2, 2));
    refused(IllegalStateException.class, "is committed as version 2", () -> node.abort(1, 4));
    refused(IllegalStateException.class, "is committed as version 2, not 5", () -> node.commit(1, 4, 5));
    refused(IllegalStateException.class, "is unknown here", () -> node.commit(1, 77, 3));
  }

  @Test
  void aBufferFullOfUndecidedDeltasRefusesMore() {
    node.close();
    node = LogNode.open(Fixture.config(dir.resolve("small"), LogScheme.PLR).bufferBytes(600).build());
    stripe = new Fixture.Stripe(1, Fixture.randomData(random, Fixture.K, Fixture.UNIT), Fixture.R, 1);
    stripe.putBase(node);
    node.flush();
    stripe.update(node, random, 1, 0, 0, 8);
    for (long u = 2; u <= 9; u++) {
      stripe.append(node, random, u, 1, 0, 8); // undecided: (8 + 64) bytes each
    }
    // The committed delta is flushed to make room, then the undecided ones fill the buffer.
    refused(IllegalStateException.class, "buffer full", () -> node.appendDelta(1, 10, 1, 0, 0, bytes(8)));
    assertTrue(node.abort(1, 2));
    node.appendDelta(1, 10, 1, 0, 0, bytes(8));
  }

  @Test
  void closedNode() {
    node.close();
    for (Executable call : List.<Executable>of(() -> node.putBase(3, 1, 0, bytes(64)),
        () -> node.appendDelta(1, 9, 1, 0, 0, bytes(1)), () -> node.commit(1, 2, 2), () -> node.abort(1, 2),
        () -> node.readParity(1, 1), () -> node.dropStripe(1), () -> node.flush(), () -> node.merge(),
        () -> node.maintain())) {
      IllegalStateException thrown = assertThrows(IllegalStateException.class, call);
      assertTrue(thrown.getMessage().contains("closed"), thrown.getMessage());
    }
    node.close(); // twice is fine
  }

  @Test
  void badConfigurations() {
    LogNodeConfig.Builder ok = Fixture.config(dir, LogScheme.PL);
    ok.build();
    assertConfig("directory is required", LogNodeConfig.builder().code(4, 3).row(1).unitSize(64));
    assertConfig("need k >= 1, r >= 2", Fixture.config(dir, LogScheme.PL).code(4, 1));
    assertConfig("k + r <= 255", Fixture.config(dir, LogScheme.PL).code(250, 6));
    assertConfig("row 0 is not a log row", Fixture.config(dir, LogScheme.PL).row(0));
    assertConfig("row 3 is not a log row", Fixture.config(dir, LogScheme.PL).row(3));
    assertConfig("unitSize must be in", Fixture.config(dir, LogScheme.PL).unitSize(0));
    assertConfig("cannot hold one base", Fixture.config(dir, LogScheme.PL).bufferBytes(100));
    assertConfig("is above", Fixture.config(dir, LogScheme.PL).bufferBytes(2L << 30));
    assertConfig("reservedBytes must not be negative", Fixture.config(dir, LogScheme.PL).reservedBytes(-1));
    assertConfig("must be positive", Fixture.config(dir, LogScheme.PL).segmentBytes(0));
    assertConfig("flushInterval must not be negative",
        Fixture.config(dir, LogScheme.PL).flushInterval(Duration.ofSeconds(-1)));
  }

  private static void assertConfig(String words, LogNodeConfig.Builder builder) {
    IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, builder::build);
    assertTrue(thrown.getMessage().contains(words), "'" + thrown.getMessage() + "' should say '" + words + "'");
  }
}
