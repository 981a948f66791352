package io.eccache.lognode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.isal.ReedSolomon;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Property test: random sequences of updates (random units and byte ranges), commits, aborts,
 * abandoned updates, outcomes delivered out of order, flushes, merges, maintenance, rebuilds, drops and
 * crashes, on every scheme and coder. After every step, each stripe's parity at the version the node
 * holds equals a fresh encode of the data at that version; the node holds exactly the version the model
 * predicts (the newest one up to which every commit reached it), and answers behind and ahead
 * correctly. Aborted and undecided deltas never show, since the fresh encode never contains them.
 */
class RandomUpdatesTest {
  private static final int STEPS = 600;

  /** Per scheme, the disk I/O and the events of every run: to check that the runs reach every path. */
  private static final Map<LogScheme, DiskStats> COVERAGE = new ConcurrentHashMap<>();
  private static final Map<LogScheme, Map<String, Integer>> EVENTS = new ConcurrentHashMap<>();

  @TempDir
  Path dir;

  @AfterAll
  static void theRunsReachedEveryPath() {
    for (LogScheme scheme : LogScheme.values()) {
      DiskStats io = COVERAGE.get(scheme);
      Map<String, Integer> events = EVENTS.get(scheme);
      String what = scheme + ": " + io + " " + events;
      assertTrue(events.containsKey("out-of-order commit") && events.containsKey("restart"), what);
      assertTrue(io.ios(DiskStats.Purpose.READ, DiskStats.Access.RANDOM_READ) > 0, what);
      if (scheme.flushesToLog()) {
        assertTrue(io.ios(DiskStats.Purpose.FLUSH, DiskStats.Access.SEQUENTIAL_WRITE) > 0, what);
      } else {
        assertTrue(io.ios(DiskStats.Purpose.FLUSH, DiskStats.Access.RANDOM_READ) > 0, what + ": no compaction");
      }
      if (scheme == LogScheme.PLM) {
        assertTrue(io.ios(DiskStats.Purpose.MERGE, DiskStats.Access.SEQUENTIAL_READ) > 0, what);
        assertTrue(io.ios(DiskStats.Purpose.MERGE, DiskStats.Access.RANDOM_WRITE) > 0, what);
      }
    }
  }

  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    for (LogScheme scheme : LogScheme.values()) {
      for (ReedSolomon.Implementation implementation : Fixture.implementations()) {
        for (long seed = 1; seed <= 3; seed++) {
          cases.add(Arguments.of(scheme, implementation, seed));
        }
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} {1} seed {2}")
  @MethodSource("cases")
  void parityAlwaysEqualsAFreshEncodeAtTheHeldVersion(LogScheme scheme, ReedSolomon.Implementation implementation,
      long seed) {
    new Run(scheme, implementation, seed).go();
  }

  /** One random run against a model of what the node must hold. */
  private final class Run {
    private final Random random;
    private final Fixture.TestClock clock = new Fixture.TestClock();
    private final LogNodeConfig config;
    private final int row;
    private final List<Sim> sims = new ArrayList<>();
    private final List<Outcome> queue = new ArrayList<>();
    private final List<Long> dropped = new ArrayList<>();
    private LogNode node;
    private long nextUpdateId = 1;
    private long nextStripeId = 100;
    private int abandons;
    private String step = "start";
    private DiskStats total = DiskCounters.zero();
    private final Map<String, Integer> events = new HashMap<>();

    private void event(String name) {
      events.merge(name, 1, Integer::sum);
    }

    Run(LogScheme scheme, ReedSolomon.Implementation implementation, long seed) {
      this.random = new Random(seed * 31 + scheme.ordinal());
      this.row = 1 + random.nextInt(Fixture.R - 1);
      // Small everything, so that buffer-full flushes, full reserved areas, segment rolls and merges
      // all happen within a few hundred steps.
      this.config = Fixture.config(dir, scheme).row(row).implementation(implementation).clock(clock)
          .bufferBytes(4096).reservedBytes(240).segmentBytes(1024).mergeLogBytes(3000)
          .flushInterval(Duration.ofSeconds(1)).build();
      this.node = LogNode.open(config);
    }

    /** A stripe: the coordinator's truth and what the node should hold. */
    private final class Sim {
      final Fixture.Stripe truth;
      long nodeVersion;
      /** Version the disk holds at least (set at an explicit flush), or -1 if unknown. */
      long floor = -1;
      /** Leased update not decided yet. */
      long leaseId = -1;
      byte[][] leaseData;
      /** Update ids whose deltas the node holds undecided, with their base versions. */
      final Map<Long, Long> undecided = new HashMap<>();
      /** Commits delivered beyond a gap. */
      final TreeSet<Long> ahead = new TreeSet<>();

      Sim(long id) {
        truth = new Fixture.Stripe(id, Fixture.randomData(random, Fixture.K, Fixture.UNIT), Fixture.R, row);
        truth.putBase(node);
      }

      void rebase(long version) {
        nodeVersion = version;
        undecided.values().removeIf(base -> base < version);
        ahead.headSet(version, true).clear();
        advance();
        floor = -1;
      }

      void advance() {
        while (ahead.remove(nodeVersion + 1)) {
          nodeVersion++;
        }
      }
    }

    private final class Outcome {
      final Sim sim;
      final long updateId;
      final boolean commit;
      final long version;

      Outcome(Sim sim, long updateId, boolean commit, long version) {
        this.sim = sim;
        this.updateId = updateId;
        this.commit = commit;
        this.version = version;
      }
    }

    void go() {
      for (int i = 0; i < 3; i++) {
        sims.add(new Sim(nextStripeId++));
      }
      for (int n = 0; n < STEPS; n++) {
        int dice = random.nextInt(100);
        if (dice < 30) {
          startUpdate();
        } else if (dice < 52) {
          decide();
        } else if (dice < 75) {
          deliver();
        } else if (dice < 81) {
          step = "flush";
          node.flush();
          markFlushed();
        } else if (dice < 85) {
          step = "merge";
          node.merge();
        } else if (dice < 89) {
          step = "maintain";
          clock.advance(Duration.ofMillis(random.nextInt(1500)));
          node.maintain();
        } else if (dice < 93) {
          rebuild(sims.get(random.nextInt(sims.size())));
        } else if (dice < 94) {
          dropAndReplace();
        } else if (dice < 96) {
          restart(random.nextBoolean());
        } else {
          startUpdate();
        }
        check();
      }
      // Everything decided and flushed survives a restart exactly.
      restart(true);
      check();
      total = total.plus(node.diskStats());
      COVERAGE.merge(config.scheme(), total, DiskStats::plus);
      EVENTS.computeIfAbsent(config.scheme(), s -> new ConcurrentHashMap<>()).putAll(events);
      node.close();
    }

    private void startUpdate() {
      if (queue.size() > 8) {
        deliver();
        return;
      }
      Sim sim = sims.get(random.nextInt(sims.size()));
      if (sim.leaseId >= 0) {
        return;
      }
      long id = nextUpdateId++;
      int unit = random.nextInt(Fixture.K);
      int offset = random.nextInt(Fixture.UNIT);
      int length = random.nextInt(Fixture.UNIT - offset + 1);
      step = "append " + id + " to " + sim.truth.id + " unit " + unit + " [" + offset + "+" + length + ")";
      sim.leaseData = sim.truth.append(node, random, id, unit, offset, length);
      sim.leaseId = id;
      sim.undecided.put(id, sim.truth.version());
    }

    private void decide() {
      List<Sim> leased = new ArrayList<>();
      for (Sim sim : sims) {
        if (sim.leaseId >= 0) {
          leased.add(sim);
        }
      }
      if (leased.isEmpty()) {
        return;
      }
      Sim sim = leased.get(random.nextInt(leased.size()));
      int dice = random.nextInt(100);
      step = "decide " + sim.leaseId;
      if (dice < 70) {
        sim.truth.versions.add(sim.leaseData);
        queue.add(new Outcome(sim, sim.leaseId, true, sim.truth.version()));
      } else if (dice < 95 || abandons >= 3) {
        queue.add(new Outcome(sim, sim.leaseId, false, -1));
      } else {
        abandons++; // never decided: the node must never show it
      }
      sim.leaseId = -1;
      sim.leaseData = null;
    }

    private void deliver() {
      if (queue.isEmpty()) {
        return;
      }
      Outcome outcome = queue.remove(random.nextInt(queue.size()));
      deliver(outcome);
    }

    private void deliver(Outcome outcome) {
      Sim sim = outcome.sim;
      step = (outcome.commit ? "commit " : "abort ") + outcome.updateId + " of " + sim.truth.id
          + (outcome.commit ? " as " + outcome.version : "");
      if (!sims.contains(sim)) {
        return; // the stripe was dropped: the coordinator sends nothing for it any more
      }
      if (sim.nodeVersion < 0) {
        // Lost with the buffer in a restart: the node does not know the stripe at all.
        assertThrows(IllegalStateException.class, () -> {
          if (outcome.commit) {
            node.commit(sim.truth.id, outcome.updateId, outcome.version);
          } else {
            node.abort(sim.truth.id, outcome.updateId);
          }
        }, step);
        return;
      }
      boolean held = sim.undecided.remove(outcome.updateId) != null;
      if (!outcome.commit) {
        assertEquals(held, node.abort(sim.truth.id, outcome.updateId), step);
        return;
      }
      if (held) {
        assertTrue(node.commit(sim.truth.id, outcome.updateId, outcome.version), step);
        if (outcome.version != sim.nodeVersion + 1) {
          event("out-of-order commit");
        }
        sim.ahead.add(outcome.version);
        sim.advance();
      } else if (outcome.version <= sim.nodeVersion) {
        assertFalse(node.commit(sim.truth.id, outcome.updateId, outcome.version), step);
      } else {
        assertThrows(IllegalStateException.class,
            () -> node.commit(sim.truth.id, outcome.updateId, outcome.version), step);
      }
    }

    private void rebuild(Sim sim) {
      step = "rebuild " + sim.truth.id + " at " + sim.truth.version();
      sim.truth.putBase(node);
      sim.rebase(sim.truth.version());
    }

    private void dropAndReplace() {
      Sim old = sims.remove(random.nextInt(sims.size()));
      step = "drop " + old.truth.id;
      assertTrue(node.dropStripe(old.truth.id), step);
      assertEquals(OptionalLong.empty(), node.version(old.truth.id), step);
      assertThrows(IllegalStateException.class, () -> node.readParity(old.truth.id, old.nodeVersion), step);
      dropped.add(old.truth.id);
      sims.add(new Sim(nextStripeId++));
    }

    private void markFlushed() {
      for (Sim sim : sims) {
        sim.floor = sim.nodeVersion;
      }
    }

    private void restart(boolean flushFirst) {
      step = "restart" + (flushFirst ? " after a flush" : " without a flush");
      if (flushFirst) {
        node.flush();
        markFlushed();
      }
      total = total.plus(node.diskStats());
      event("restart");
      node.abandon();
      node = LogNode.open(config);
      Map<Long, Long> recovered = node.recovery().versions();
      assertTrue(node.recovery().damage().isEmpty(), node.recovery().toString());
      for (Sim sim : sims) {
        Long version = recovered.get(sim.truth.id);
        String where = step + ", stripe " + sim.truth.id + " " + node.recovery();
        if (flushFirst) {
          assertEquals(sim.nodeVersion, version, where);
        } else if (version == null) {
          assertEquals(-1, sim.floor, where + ": flushed state lost");
        } else {
          assertTrue(version >= sim.floor && version <= sim.nodeVersion, where + ": recovered " + version
              + ", model " + sim.floor + ".." + sim.nodeVersion);
        }
        if (version != null) {
          // Whatever version it recovered, its parity is exactly that version's.
          assertArrayEquals(sim.truth.parity(version), node.readParity(sim.truth.id, version).parity(), where);
        }
        sim.undecided.clear();
        sim.ahead.clear();
        sim.leaseId = -1;
        sim.leaseData = null;
        sim.nodeVersion = version == null ? -1 : version;
      }
      // The coordinator's outcome notices still in flight: the node lost those deltas.
      for (Outcome outcome : new ArrayList<>(queue)) {
        deliver(outcome);
      }
      queue.clear();
      // The coordinator compares versions and rebuilds what is stale or missing, and drops again
      // what it had dropped.
      for (Sim sim : sims) {
        if (sim.nodeVersion != sim.truth.version()) {
          rebuild(sim);
        }
      }
      for (long id : dropped) {
        if (recovered.containsKey(id)) {
          assertTrue(node.dropStripe(id));
        }
      }
      for (long id : recovered.keySet()) {
        assertTrue(dropped.contains(id) || sims.stream().anyMatch(s -> s.truth.id == id), "unknown " + id);
      }
    }

    private void check() {
      for (Sim sim : sims) {
        long id = sim.truth.id;
        String where = step + ": stripe " + id;
        assertEquals(OptionalLong.of(sim.nodeVersion), node.version(id), where);
        ParityRead read = node.readParity(id, sim.nodeVersion);
        assertArrayEquals(sim.truth.parity(sim.nodeVersion), read.parity(), where + " at " + sim.nodeVersion);
        long coordinator = sim.truth.version();
        if (coordinator != sim.nodeVersion) {
          ParityRead behind = node.readParity(id, coordinator);
          assertEquals(ParityRead.Status.BEHIND, behind.status(), where);
          assertEquals(sim.nodeVersion, behind.heldVersion(), where);
        }
        if (sim.nodeVersion > 0) {
          assertEquals(ParityRead.Status.AHEAD, node.readParity(id, sim.nodeVersion - 1).status(), where);
        }
      }
      assertTrue(node.bufferedBytes() <= config.bufferBytes(), step);
    }
  }
}

