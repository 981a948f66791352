package io.eccache.lognode;

import static io.eccache.lognode.DiskStats.Access.RANDOM_READ;
import static io.eccache.lognode.DiskStats.Access.RANDOM_WRITE;
import static io.eccache.lognode.DiskStats.Access.SEQUENTIAL_READ;
import static io.eccache.lognode.DiskStats.Access.SEQUENTIAL_WRITE;
import static io.eccache.lognode.DiskStats.Purpose.FLUSH;
import static io.eccache.lognode.DiskStats.Purpose.MERGE;
import static io.eccache.lognode.DiskStats.Purpose.READ;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Disk I/O per scheme, counted by hand on the paper's Fig. 9 scenario: a (2, 2) code, two stripes
 * (a, b) and (c, d) whose second parities a + 2b and c + 2d this node holds, then the updates a to a', c
 * to c', c' to c'', b to b', a' to a'', b' to b''. Flushed once at the end, the paper's counts come out:
 * PLR 8 writes (2 bases and 6 deltas), PLM 4 (one sequential write, one sequential read, one write per
 * stripe), PL 1. Flushed three times (after a'; after c', c'', b'; at the end), PLR-m merges as in the
 * paper's text into 5. Then what a repair reads, and PLM against PLR on a mixed workload.
 */
class DiskIoTest {
  private static final int UNIT = 64;
  /** One record of a whole-unit delta or base in the log or a reserved area. */
  private static final int RECORD = Records.HEADER + UNIT;

  @TempDir
  Path dir;

  /** The scenario's node, stripes and updates. */
  private final class Fig9 {
    final LogNode node;
    final Fixture.Stripe ab;
    final Fixture.Stripe cd;
    final Random random = new Random(9);
    long updateId = 1;

    Fig9(LogScheme scheme) {
      node = LogNode.open(LogNodeConfig.builder().directory(dir).code(2, 2).row(1).unitSize(UNIT).scheme(scheme)
          .fsync(false).reservedBytes(8 * RECORD).build());
      ab = new Fixture.Stripe(1, Fixture.randomData(random, 2, UNIT), 2, 1);
      cd = new Fixture.Stripe(2, Fixture.randomData(random, 2, UNIT), 2, 1);
      ab.putBase(node);
      cd.putBase(node);
    }

    /** Replaces a whole data unit: one delta covering the unit. */
    void update(Fixture.Stripe stripe, int unit) {
      stripe.update(node, random, updateId++, unit, 0, UNIT);
    }

    void checkParity() {
      for (Fixture.Stripe stripe : List.of(ab, cd)) {
        assertArrayEquals(stripe.parity(stripe.version()), node.readParity(stripe.id, stripe.version()).parity());
      }
    }

    /** The update I/O of the whole scenario, flushing after the given numbers of updates (and at the end). */
    DiskStats run(int... flushAfter) {
      int done = 0;
      int next = 0;
      int[][] updates = {{0, 0}, {1, 0}, {1, 0}, {0, 1}, {0, 0}, {0, 1}}; // stripe (0 = ab, 1 = cd), unit
      for (int[] u : updates) {
        update(u[0] == 0 ? ab : cd, u[1]);
        done++;
        if (next < flushAfter.length && flushAfter[next] == done) {
          node.flush();
          next++;
        }
      }
      node.flush();
      return node.diskStats();
    }
  }

  @ParameterizedTest
  @EnumSource(LogScheme.class)
  void oneFlushAtTheEndCountsAsInThePaper(LogScheme scheme) {
    Fig9 fig = new Fig9(scheme);
    DiskStats io = fig.run();
    switch (scheme) {
      case PL:
        assertEquals(1, io.updateIos(), io.toString());
        assertEquals(1, io.ios(FLUSH, SEQUENTIAL_WRITE));
        assertEquals(8 * RECORD, io.bytes(FLUSH, SEQUENTIAL_WRITE), "2 bases and 6 deltas, one record each");
        break;
      case PLR:
        assertEquals(8, io.updateIos(), io.toString());
        assertEquals(8, io.ios(FLUSH, RANDOM_WRITE), "one write per base and per delta");
        assertEquals(2 * (StripeFiles.HEADER + UNIT) + 6 * RECORD, io.bytes(FLUSH, RANDOM_WRITE));
        break;
      case PLR_M:
        assertEquals(2, io.updateIos(), io.toString());
        assertEquals(2, io.ios(FLUSH, RANDOM_WRITE), "one write per stripe: its base with its deltas merged in");
        break;
      case PLM:
        assertEquals(1, io.updateIos(), "before the merge: " + io);
        fig.node.merge();
        io = fig.node.diskStats();
        assertEquals(4, io.updateIos(), io.toString());
        assertEquals(1, io.ios(FLUSH, SEQUENTIAL_WRITE));
        assertEquals(1, io.ios(MERGE, SEQUENTIAL_READ), "the log read back once");
        assertEquals(8 * RECORD, io.bytes(MERGE, SEQUENTIAL_READ));
        assertEquals(2, io.ios(MERGE, RANDOM_WRITE), "one write per stripe");
        assertEquals(0, fig.node.logBytes(), "the merged log is deleted");
        break;
      default:
        throw new AssertionError(scheme);
    }
    assertEquals(0, io.reads() - io.ios(MERGE, SEQUENTIAL_READ), "no other reads while updating");
    fig.checkParity();
  }

  @ParameterizedTest
  @EnumSource(LogScheme.class)
  void threeFlushesCountAsInThePaper(LogScheme scheme) {
    Fig9 fig = new Fig9(scheme);
    DiskStats io = fig.run(1, 4);
    switch (scheme) {
      case PL:
        assertEquals(3, io.updateIos(), "one sequential write per flush: " + io);
        assertEquals(3, io.ios(FLUSH, SEQUENTIAL_WRITE));
        break;
      case PLR:
        assertEquals(8, io.updateIos(), "still one write per base and per delta: " + io);
        break;
      case PLR_M:
        // Flush 1: ab's base with a' merged in, cd's base (2). Flush 2: ab's b', cd's c' + c'' (2).
        // Flush 3: ab's a'' + b'' (1).
        assertEquals(5, io.updateIos(), io.toString());
        assertEquals(5, io.ios(FLUSH, RANDOM_WRITE));
        break;
      case PLM:
        fig.node.merge();
        io = fig.node.diskStats();
        assertEquals(3, io.ios(FLUSH, SEQUENTIAL_WRITE));
        assertEquals(1, io.ios(MERGE, SEQUENTIAL_READ), "the three flushes share one segment, read once");
        assertEquals(2, io.ios(MERGE, RANDOM_WRITE));
        assertEquals(6, io.updateIos(), io.toString());
        break;
      default:
        throw new AssertionError(scheme);
    }
    fig.checkParity();
  }

  @ParameterizedTest
  @EnumSource(LogScheme.class)
  void repairReadsPerScheme(LogScheme scheme) {
    Fig9 fig = new Fig9(scheme);
    DiskStats before = fig.node.diskStats();
    fig.checkParity();
    assertEquals(0, fig.node.diskStats().minus(before).ios(), "all in memory: no I/O");
    fig.run();
    before = fig.node.diskStats();
    fig.checkParity();
    DiskStats read = fig.node.diskStats().minus(before);
    // ab: base + 4 deltas, cd: base + 2 deltas.
    switch (scheme) {
      case PL:
      case PLM:
        assertEquals(5 + 3, read.ios(READ, RANDOM_READ), "one random read per record in the log: " + read);
        break;
      case PLR:
        assertEquals(2, read.ios(READ, RANDOM_READ), "one read per stripe: " + read);
        assertEquals(2 * (StripeFiles.HEADER + UNIT) + 6 * RECORD, read.bytes(READ, RANDOM_READ));
        break;
      case PLR_M:
        assertEquals(2, read.ios(READ, RANDOM_READ), "one read per stripe: " + read);
        assertEquals(2 * (StripeFiles.HEADER + UNIT), read.bytes(READ, RANDOM_READ), "bases merged");
        break;
      default:
        throw new AssertionError(scheme);
    }
    assertEquals(read.ios(), read.ios(READ, RANDOM_READ));
    if (scheme == LogScheme.PLM) {
      fig.node.merge();
      before = fig.node.diskStats();
      fig.checkParity();
      assertEquals(2, fig.node.diskStats().minus(before).ios(READ, RANDOM_READ), "after the merge, like PLR-m");
    }
  }

  @Test
  void aFullReservedAreaCompactsWithOneReadAndOneWrite() {
    LogNode node = LogNode.open(LogNodeConfig.builder().directory(dir).code(2, 2).row(1).unitSize(UNIT)
        .scheme(LogScheme.PLR).fsync(false).reservedBytes(2 * RECORD).build());
    Random random = new Random(3);
    Fixture.Stripe stripe = new Fixture.Stripe(5, Fixture.randomData(random, 2, UNIT), 2, 1);
    stripe.putBase(node);
    node.flush();
    for (int i = 1; i <= 3; i++) {
      stripe.update(node, random, i, i % 2, 0, UNIT);
      node.flush();
    }
    DiskStats io = node.diskStats();
    // Base, two deltas into the area, then the third folds base + area + itself into a new base.
    assertEquals(1, io.ios(FLUSH, RANDOM_READ), io.toString());
    assertEquals(2 * (StripeFiles.HEADER + UNIT) + 2 * RECORD, io.bytes(FLUSH, RANDOM_WRITE), io.toString());
    assertEquals(4, io.ios(FLUSH, RANDOM_WRITE), io.toString());
    assertArrayEquals(stripe.parity(3), node.readParity(5, 3).parity());
    assertEquals(StripeFiles.HEADER + UNIT, node.diskStats().minus(io).bytes(READ, RANDOM_READ),
        "the new base alone");
  }

  @Test
  void onAMixedWorkloadPlmDoesFewerUpdateIosThanPlrAndPlrM() {
    Map<LogScheme, DiskStats> io = new EnumMap<>(LogScheme.class);
    for (LogScheme scheme : LogScheme.values()) {
      io.put(scheme, mixedWorkload(dir.resolve(scheme.name()), scheme));
    }
    String all = io.toString();
    long pl = io.get(LogScheme.PL).updateIos();
    long plr = io.get(LogScheme.PLR).updateIos();
    long plrM = io.get(LogScheme.PLR_M).updateIos();
    long plm = io.get(LogScheme.PLM).updateIos();
    assertTrue(pl <= plm && plm <= plrM && plrM <= plr, "PL " + pl + " <= PLM " + plm + " <= PLR-m " + plrM
        + " <= PLR " + plr + ": " + all);
    assertTrue(plm < plr, all);
    DiskModel hdd = DiskModel.hdd();
    assertTrue(hdd.time(io.get(LogScheme.PLM), FLUSH, MERGE).compareTo(hdd.time(io.get(LogScheme.PLR), FLUSH, MERGE)) < 0,
        all);
  }

  /**
   * 30 stripes of (6, 3), 600 small updates with a hot set (half the updates on 5 stripes), a flush every
   * 25 updates and, under PLM, a merge whenever the log passes 16 KiB.
   */
  private DiskStats mixedWorkload(Path where, LogScheme scheme) {
    Random random = new Random(42);
    LogNode node = LogNode.open(LogNodeConfig.builder().directory(where).code(6, 3).row(2).unitSize(256)
        .scheme(scheme).fsync(false).mergeLogBytes(16 << 10).build());
    List<Fixture.Stripe> stripes = new ArrayList<>();
    for (int s = 0; s < 30; s++) {
      stripes.add(new Fixture.Stripe(s, Fixture.randomData(random, 6, 256), 3, 2));
      stripes.get(s).putBase(node);
    }
    node.flush();
    DiskStats seeded = node.diskStats();
    for (int u = 1; u <= 600; u++) {
      Fixture.Stripe stripe = stripes.get(random.nextBoolean() ? random.nextInt(5) : random.nextInt(30));
      int unit = random.nextInt(6);
      int offset = random.nextInt(200);
      byte[][] next = stripe.append(node, random, u, unit, offset, 1 + random.nextInt(56));
      stripe.versions.add(next);
      node.commit(stripe.id, u, stripe.version());
      if (u % 25 == 0) {
        node.flush();
      }
    }
    node.flush();
    node.merge();
    DiskStats io = node.diskStats().minus(seeded);
    for (Fixture.Stripe stripe : stripes) {
      assertArrayEquals(stripe.parity(stripe.version()), node.readParity(stripe.id, stripe.version()).parity(),
          scheme + " stripe " + stripe.id);
    }
    node.close();
    return io;
  }
}
