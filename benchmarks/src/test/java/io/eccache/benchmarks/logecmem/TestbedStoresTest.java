package io.eccache.benchmarks.logecmem;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eccache.lognode.LogScheme;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The testbed's stores on real memcached servers and real log nodes, RS(3, 2) with 1 KiB values:
 * every value reads back as its last update, each update costs the paper's calls, and reads
 * survive two killed DRAM nodes (hybrid: the second failure is read through a log node).
 */
class TestbedStoresTest {
  private static final int K = 3;
  private static final int R = 2;
  private static final int UNIT = 1024;

  @TempDir
  Path dir;

  private static byte[] value(Random random) {
    byte[] v = new byte[UNIT];
    random.nextBytes(v);
    return v;
  }

  /** Loads 40 values, updates 120 at random, checks every value; returns the model. */
  private static Map<String, byte[]> loadAndUpdate(KvStore store) throws IOException {
    Random random = new Random(7);
    Map<String, byte[]> model = new LinkedHashMap<>();
    for (int i = 0; i < 40; i++) {
      String key = "user" + i;
      byte[] v = value(random);
      store.insert(key, v);
      model.put(key, v);
    }
    store.finishLoad();
    List<String> keys = new ArrayList<>(model.keySet());
    for (int i = 0; i < 120; i++) {
      String key = keys.get(random.nextInt(keys.size()));
      byte[] v = value(random);
      store.update(key, v);
      model.put(key, v);
    }
    for (Map.Entry<String, byte[]> e : model.entrySet()) {
      assertArrayEquals(e.getValue(), store.read(e.getKey()), store.name() + " " + e.getKey());
    }
    return model;
  }

  private static LogNodeFleet logs;

  @BeforeAll
  static void startLogNodes(@TempDir Path logDir) throws IOException {
    logs = LogNodeFleet.inProcess(R - 1, LogScheme.PLM, logDir);
  }

  @AfterAll
  static void stopLogNodes() {
    if (logs != null) {
      logs.close();
    }
  }

  private LogWire wire = LogWire.SOCKET;

  private Testbed bed(Testbed.Issue issue) throws IOException {
    return Testbed.start(K, R, UNIT, NodeMap.of(K + R, K + R), 16, issue, logs, wire, dir);
  }

  @Test
  void hybridUpdatesCostTwoReadsTwoWritesAndADeltaPerLogNodeAndSurviveTwoFailures()
      throws Exception {
    for (int run = 0; run < 4; run++) {
      Testbed.Issue issue = Testbed.Issue.values()[run % 2];
      wire = LogWire.values()[run / 2]; // the plain socket and gRPC
      try (Testbed bed = bed(issue)) {
        HybridKv store = new HybridKv(bed);
        Map<String, byte[]> model = loadAndUpdate(store);
        OpCounts before = snapshot(store);
        store.update("user1", model.get("user1").clone());
        assertEquals(2, delta(store, before, OpCounts.Kind.GET), issue + " " + wire);
        assertEquals(2, delta(store, before, OpCounts.Kind.SET), issue + " " + wire);
        assertEquals(R - 1, delta(store, before, OpCounts.Kind.LOG_APPEND), issue + " " + wire);
        // One DRAM node down: k - 1 data units and P1, no log node.
        bed.dram.get(0).kill();
        OpCounts one = snapshot(store);
        readAll(store, model);
        assertEquals(0, delta(store, one, OpCounts.Kind.LOG_READ), "one failure, no log node");
        // Two down: the log node's parity at the stripe's version fills in.
        bed.dram.get(1).kill();
        OpCounts two = snapshot(store);
        readAll(store, model);
        assertTrue(delta(store, two, OpCounts.Kind.LOG_READ) > 0, "two failures use P2");
      }
    }
  }

  @Test
  void inPlaceUpdatesReadAndWriteEveryParity() throws Exception {
    try (Testbed bed = bed(Testbed.Issue.PARALLEL)) {
      InPlaceKv store = new InPlaceKv(bed);
      Map<String, byte[]> model = loadAndUpdate(store);
      OpCounts before = snapshot(store);
      store.update("user2", model.get("user2").clone());
      assertEquals(R + 1, delta(store, before, OpCounts.Kind.GET));
      assertEquals(R + 1, delta(store, before, OpCounts.Kind.SET));
      bed.dram.get(0).kill();
      bed.dram.get(3).kill();
      readAll(store, model);
    }
  }

  @Test
  void fullStripeUpdatesAppendAndItsCollectionKeepsEveryValueAndParity() throws Exception {
    try (Testbed bed = bed(Testbed.Issue.SERIAL)) {
      FullStripeKv store = new FullStripeKv(bed);
      Map<String, byte[]> model = loadAndUpdate(store);
      OpCounts before = snapshot(store);
      store.update("user3", model.get("user3").clone());
      assertEquals(0, delta(store, before, OpCounts.Kind.GET), "an update reads nothing");
      assertTrue(store.finishRun() > 0);
      assertTrue(delta(store, before, OpCounts.Kind.DELETE) > 0, "emptied stripes deleted");
      assertTrue(delta(store, before, OpCounts.Kind.GET) > 0, "dead and moved units read");
      readAll(store, model);
      store.finishLoad(); // seal what waits, so every value has parity
      // A unit lost: rebuilt from parities the collection updated by deltas.
      bed.dram.get(2).kill();
      readAll(store, model);
    }
  }

  @Test
  void replicationWritesEveryCopyAndReadsAroundAFailure() throws Exception {
    try (Testbed bed = bed(Testbed.Issue.PARALLEL)) {
      ReplicatedKv store = new ReplicatedKv(bed, R + 1);
      Map<String, byte[]> model = loadAndUpdate(store);
      OpCounts before = snapshot(store);
      store.update("user4", model.get("user4").clone());
      assertEquals(R + 1, delta(store, before, OpCounts.Kind.SET));
      bed.dram.get(0).kill();
      bed.dram.get(1).kill();
      readAll(store, model);
    }
  }

  @Test
  void aStoreRefusesAValueOfAnotherSizeAndAnUnknownKey() throws Exception {
    try (Testbed bed = bed(Testbed.Issue.SERIAL)) {
      HybridKv store = new HybridKv(bed);
      assertThrows(IllegalArgumentException.class, () -> store.insert("a", new byte[10]));
      assertTrue(assertThrows(IOException.class, () -> store.read("nope")).getMessage()
          .contains("no value under nope"));
    }
  }

  private static void readAll(KvStore store, Map<String, byte[]> model) throws IOException {
    for (Map.Entry<String, byte[]> e : model.entrySet()) {
      assertArrayEquals(e.getValue(), store.read(e.getKey()), store.name() + " " + e.getKey());
    }
  }

  private static OpCounts snapshot(KvStore store) {
    OpCounts copy = new OpCounts();
    store.counts().snapshot().forEach(copy::add);
    return copy;
  }

  private static long delta(KvStore store, OpCounts before, OpCounts.Kind kind) {
    return store.counts().get(kind) - before.get(kind);
  }
}
